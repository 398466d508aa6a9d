// Context chips in a real VS Code (code-server + headless Chromium) against the
// scripted model server: `@` in the prompt box opens the picker, a file is
// picked with the keyboard and becomes a chip, another chip is removed with ×,
// and the sent request holds the picked file's content (and not the removed
// one's). Then Tandem: Add to Tandem Context from the palette attaches the
// editor's selection, the focus key puts the caret in the prompt box, `@`
// attaches another selection and the problems, and all of it reaches the
// model; the explorer's and the editor's context menus attach too; `@` attaches
// the workspace's uncommitted Git changes, the last command a terminal ran
// with what it printed, and a web page typed as a URL. One code-server session.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import { failureReporter, openFileInEditor, pickContextItem, waitFor } from './viewSteps';

const model = 'context-model';
let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-context-'));
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src', 'ledger.ts'), 'export const LEDGER_MARKER = "context-e2e-5150";\n');
  fs.writeFileSync(path.join(workspace, 'other.md'), 'OTHER-MARKER-must-not-be-sent\n');
  fs.writeFileSync(path.join(workspace, 'picked.py'), 'first = 1\nsecond = "SELECTION-MARKER-77"\nthird = 3\n');
  // A Git repository with one uncommitted change, for the Git changes item.
  fs.writeFileSync(path.join(workspace, 'release.md'), 'Release: Tuesday\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', ...args], { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'start');
  fs.writeFileSync(path.join(workspace, 'release.md'), 'Release: GIT-DIFF-MARKER-Friday\n');
  fs.writeFileSync(path.join(workspace, 'changelog.md'), 'UNTRACKED-MARKER: a new file\n');
  server = await startScriptedModelServer({ models: [model] });
  session = await launchVsCode({
    workspace,
    settings: {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': model,
      'tandem.answerModel.model': '',
      'tandem.agent.mode': 'chat',
      'git.enabled': true,
    },
  });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** The last user message the model received. */
function lastPrompt(): string {
  return String(server.requests.at(-1)?.messages.filter((message: { role: string }) => message.role === 'user').at(-1)?.content ?? '');
}

async function answered(view: Frame, text: string): Promise<void> {
  await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).trim() === text, 'the answer');
  await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to end');
}

const guarded = failureReporter('context', () => session);

test('@ picks a file with the keyboard, × removes a chip, and the file content goes with the message', { timeout: 90_000 }, () =>
  guarded('picker', async () => {
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    const chips = view.locator('[data-testid="context-chip"]');
    await prompt.click();
    await prompt.pressSequentially('Explain @ledg');
    const option = view.locator('[data-testid="context-option"][data-path="src/ledger.ts"]');
    await option.waitFor({ state: 'visible', timeout: 15_000 });
    await session.screenshot('context-picker');
    assert.equal(await view.locator('[data-testid="context-option"]').first().getAttribute('data-path'), 'src/ledger.ts', 'the best match comes first');
    // The box names the open list and its active option (a textbox: no aria-expanded).
    const listId = await prompt.getAttribute('aria-controls');
    assert.ok(listId, 'the prompt box controls the open list');
    assert.equal(await view.locator(`#${listId}`).getAttribute('role'), 'listbox');
    assert.equal(await prompt.getAttribute('aria-activedescendant'), await view.locator('[data-testid="context-option"]').first().getAttribute('id'));
    assert.equal(await prompt.getAttribute('aria-expanded'), null);
    await prompt.press('Enter'); // picks; does not send
    assert.equal(await prompt.getAttribute('aria-activedescendant'), null, 'no active option once the list is closed');
    await view.locator('[data-testid="context-chip"][data-path="src/ledger.ts"]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await prompt.inputValue(), 'Explain ', 'the @word gave way to the chip');
    assert.equal(server.requests.length, 0, 'nothing was sent');

    await prompt.pressSequentially('@other');
    await view.locator('[data-testid="context-option"][data-path="other.md"]').waitFor({ state: 'visible', timeout: 10_000 });
    await prompt.press('ArrowDown'); // the special items match less well; move and back to be sure keys reach the list
    await prompt.press('ArrowUp');
    await prompt.press('Tab');
    await view.locator('[data-testid="context-chip"][data-path="other.md"]').waitFor({ state: 'visible', timeout: 10_000 });
    await session.screenshot('context-chips');
    await view.locator('[data-testid="context-chip"][data-path="other.md"] [data-testid="context-chip-remove"]').click();
    await waitFor(async () => (await chips.count()) === 1, 'the removed chip to go');

    server.push({ model, content: 'It exports a marker.' });
    await prompt.pressSequentially('this file.');
    await prompt.press('Enter');
    await answered(view, 'It exports a marker.');
    const sent = lastPrompt();
    assert.match(sent, /^Explain this file\.\n\nAttached file src\/ledger\.ts:\n```ts\nexport const LEDGER_MARKER = "context-e2e-5150";/);
    assert.ok(!sent.includes('OTHER-MARKER'), 'the removed chip sent nothing');
    assert.equal(await chips.count(), 0, 'the chips are used up by the send');
    assert.match(await view.locator('[data-testid="user-message"]').last().innerText(), /Attached: ledger\.ts/);
    const meter = await view.locator('[data-testid="context-meter"]').innerText();
    assert.match(meter, /\d/, `the context meter counts the request: ${meter}`);
    // Its detail is there for the keyboard and a screen reader, not only in the tooltip.
    const meterView = view.locator('[data-testid="context-meter"]');
    assert.equal(await meterView.getAttribute('role'), 'meter');
    assert.match((await meterView.getAttribute('aria-valuetext')) ?? '', /^Last request to .+ tokens \(\d+%\)/);
  }),
);

test('@ attaches the Git changes: the uncommitted diff and the new file go with the message', { timeout: 90_000 }, () =>
  guarded('git-changes', async () => {
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await pickContextItem(view, 'Review @git', 'git-changes');
    await view.locator('[data-testid="context-chip"][data-path="git-changes"]').waitFor({ state: 'visible', timeout: 10_000 });
    await session.screenshot('context-git-changes-chip');
    server.push({ model, content: 'The release moved to Friday.' });
    await prompt.pressSequentially('these.');
    await prompt.press('Enter');
    await answered(view, 'The release moved to Friday.');
    const sent = lastPrompt();
    assert.match(sent, /Attached Git changes[^\n]*:\n```+diff\n# Not staged[\s\S]*-Release: Tuesday\n\+Release: GIT-DIFF-MARKER-Friday/, sent.slice(0, 600));
    assert.match(sent, /# Not tracked yet[\s\S]*new file changelog\.md:\nUNTRACKED-MARKER: a new file/, sent.slice(0, 1200));
  }),
);

test('@ followed by a URL attaches the web page: fetched when the message is sent, as Markdown', { timeout: 90_000 }, () =>
  guarded('url', async () => {
    const hits: string[] = [];
    const site = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Spec</title></head><body><nav>Menu</nav><h2>Limits</h2><p>At most WEB-PAGE-MARKER-64 items.</p></body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/spec`;
      const view = await session.webview();
      const prompt = view.locator('[data-testid="prompt"]');
      await pickContextItem(view, `Check @${url}`, url);
      await view.locator(`[data-testid="context-chip"][data-path="${url}"]`).waitFor({ state: 'visible', timeout: 10_000 });
      assert.deepEqual(hits, [], 'nothing fetched before the message is sent');
      server.push({ model, content: 'At most 64.' });
      await prompt.pressSequentially('the limit.');
      await prompt.press('Enter');
      await answered(view, 'At most 64.');
      assert.deepEqual(hits, ['/spec']);
      const sent = lastPrompt();
      assert.match(sent, new RegExp(`Attached web page ${url}:\\n\`+markdown\\nGET ${url} → 200 OK[^\\n]*\\nTitle: Spec\\n\\n## Limits\\n\\nAt most WEB-PAGE-MARKER-64 items\\.`), sent.slice(0, 600));
      assert.doesNotMatch(sent, /Menu/);
    } finally {
      site.closeAllConnections();
      site.close();
    }
  }),
);

test("@ attaches the terminal's last command: what it printed and how it ended go with the message", { timeout: 90_000 }, () =>
  guarded('terminal', async () => {
    await session.runCommand('workbench.action.terminal.new', 'Terminal: Create New Terminal');
    const done = path.join(workspace, 'terminal-done.txt');
    // Typed once the new terminal has the keyboard (keys typed sooner go elsewhere: CI once ran only
    // "RMINAL-MARKER…"); the shell's integration reports it to the extension host.
    const page = session.page;
    await waitFor(async () => page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true), 'the terminal to have the keyboard', 30_000);
    await waitFor(async () => {
      await session.page.keyboard.type('echo TERMINAL-MARKER-$((40+2)); touch terminal-done.txt; false\n');
      for (let waited = 0; waited < 5_000 && !fs.existsSync(done); waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));
      return fs.existsSync(done);
    }, 'the command typed into the terminal to run', 45_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // its end (and exit code) reaches the extension host
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await pickContextItem(view, 'Why @term', 'terminal');
    await view.locator('[data-testid="context-chip"][data-path="terminal"]').waitFor({ state: 'visible', timeout: 10_000 });
    server.push({ model, content: 'The last part, false, failed.' });
    await prompt.pressSequentially('did it fail?');
    await prompt.press('Enter');
    await answered(view, 'The last part, false, failed.');
    const sent = lastPrompt();
    assert.match(sent, /Attached terminal output: `echo TERMINAL-MARKER-\$\(\(40\+2\)\); touch terminal-done\.txt; false` in [^\n]*\(exit code 1\):\n```+\n[\s\S]*TERMINAL-MARKER-42/, sent.slice(0, 600));
  }),
);

test('Tandem: Add to Tandem Context attaches the selection; the focus key puts the caret in the prompt box', { timeout: 90_000 }, () =>
  guarded('command', async () => {
    const page = session.page;
    const editor = await openFileInEditor(session, 'picked.py');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+End'); // line 2
    await session.runCommand('tandem.addContext');
    const view = await session.webview();
    await view.locator('[data-testid="context-chip"][data-path="selection:picked.py:2"]').waitFor({ state: 'visible', timeout: 15_000 });

    await editor.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+End'); // line 3, still selected while the panel has the focus
    await page.keyboard.press('Control+Alt+J');
    await waitFor(async () => view.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'prompt'), 'the prompt box to have the focus', 10_000);
    // The picker's special items: the selection (of the editor the panel's focus left) and the problems.
    for (const [typed, kind] of [['@sel', 'selection'], ['@probl', 'problems']] as const) {
      await page.keyboard.type(typed);
      // Enter picks the list's first option: wait for the list of what was typed, not one from a keystroke before
      // (the bare `@` lists every special item, the selection first; CI once picked it again for "@probl").
      await waitFor(async () => (await view.locator('[data-testid="context-option"]').first().getAttribute('data-kind').catch(() => null)) === kind, `the ${kind} option first in the list`, 10_000);
      await page.keyboard.press('Enter');
    }
    await view.locator('[data-testid="context-chip"][data-path="selection:picked.py:3"]').waitFor({ state: 'visible', timeout: 10_000 });
    await view.locator('[data-testid="context-chip"][data-path="problems"]').waitFor({ state: 'visible', timeout: 10_000 });
    server.push({ model, content: 'It sets second.' });
    await page.keyboard.type('What do these lines do?');
    await page.keyboard.press('Enter');
    await answered(view, 'It sets second.');
    const sent = lastPrompt();
    assert.match(sent, /^What do these lines do\?\n\nAttached selection from picked\.py, line 2:\n```python\nsecond = "SELECTION-MARKER-77"\n```/);
    assert.match(sent, /Attached selection from picked\.py, line 3:\n```python\nthird = 3\n```/);
    assert.match(sent, /Attached problems \(the diagnostics VS Code reports for the workspace\):/);
  }),
);

test("the explorer's and the editor's context menus attach a file and a selection", { timeout: 90_000 }, () =>
  guarded('menus', async () => {
    const page = session.page;
    const menuItem = page.locator('.context-view .monaco-menu .action-item', { hasText: 'Add to Tandem Context' });
    await session.webview(); // the extension host is up, so the menus hold Tandem's items
    await page.keyboard.press('Control+Shift+E');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'other.md' }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click({ button: 'right' });
    await menuItem.first().waitFor({ state: 'visible', timeout: 10_000 });
    await session.screenshot('context-explorer-menu');
    // A menu can drop a click that comes right as it opens; the hovered item also takes Enter.
    await menuItem.first().hover();
    await page.keyboard.press('Enter');
    const view = await session.webview(); // the command brings the panel back in place of the explorer
    await view.locator('[data-testid="context-chip"][data-path="other.md"]').waitFor({ state: 'visible', timeout: 15_000 });

    const editor = await openFileInEditor(session, 'picked.py');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End'); // line 1
    await editor.click({ button: 'right', position: { x: 20, y: 5 } });
    await menuItem.first().waitFor({ state: 'visible', timeout: 10_000 });
    await menuItem.first().hover();
    await page.keyboard.press('Enter');
    await view.locator('[data-testid="context-chip"][data-path="selection:picked.py:1"]').waitFor({ state: 'visible', timeout: 15_000 });

    server.push({ model, content: 'Both arrived.' });
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.click();
    await prompt.pressSequentially('What are these?');
    await prompt.press('Enter');
    await answered(view, 'Both arrived.');
    const sent = lastPrompt();
    assert.match(sent, /Attached file other\.md:\n```(markdown|md)?\nOTHER-MARKER-must-not-be-sent/);
    assert.match(sent, /Attached selection from picked\.py, line 1:\n```python\nfirst = 1\n```/);
  }),
);
