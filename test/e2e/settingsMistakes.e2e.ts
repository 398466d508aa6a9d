// Configuration mistakes a newcomer makes, in a real VS Code: a base URL typed
// without its scheme (Ollama's docs write `localhost:11434/v1`) is read with
// http:// and the run goes to that server, never to OpenAI's default; a base
// URL that is not one stops every request, and the welcome view names the
// setting to fix; each settings warning offers to open its setting.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { closeVsCode, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, send, waitFor, waitIdle } from './viewSteps';

const model = 'local-model';
let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'settings-mistakes',
    files: { 'notes.md': '# Notes\n' },
    models: [model],
    settings: (scripted) => ({
      'tandem.functionCallModel.baseUrl': scripted.baseUrl.replace(/^http:\/\//, ''),
      'tandem.functionCallModel.model': model,
      'tandem.answerModel.model': '',
      'tandem.agent.mode': 'Chat',
    }),
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const guarded = failureReporter('settings-mistakes', () => session);

/** Types a new base URL in the Settings editor the warning opened, as the user would. */
async function typeBaseUrl(value: string): Promise<void> {
  const row = session.page.locator('.settings-editor .setting-item', { hasText: 'Function Call Model: Base Url' }).first();
  const input = row.locator('input').first();
  await input.fill(value);
  await input.press('Enter');
}

test('a base URL without its scheme reaches the server it names, and the warning opens the setting', { timeout: 120_000 }, () =>
  guarded('no-scheme', async () => {
    const view = await session.webview();
    server.push({ model, content: 'Answered by the local model.' });
    await send(view, 'Hello?');
    await waitIdle(view);
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes('Answered by the local model.'), 'the answer');
    assert.equal(server.requests.length >= 1, true, 'the request went to the server the setting names');
    // "Chat" is read as chat mode: no tools were offered.
    assert.equal(server.requests.at(-1)?.tools, undefined);

    const toast = session.page.locator('.notification-toast', { hasText: 'has no scheme; read as' });
    await toast.waitFor({ state: 'visible', timeout: 15_000 });
    await session.screenshot('settings-no-scheme-warning');
    await toast.getByRole('button', { name: 'Open Setting' }).click();
    await session.page.locator('.settings-editor').waitFor({ state: 'visible', timeout: 15_000 });
    const row = session.page.locator('.settings-editor .setting-item', { hasText: 'Function Call Model: Base Url' }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
  }),
);

test('a base URL that is not one sends nothing, and the welcome view names the setting to fix', { timeout: 120_000 }, () =>
  guarded('bad-url', async () => {
    const served = server.requests.length;
    await typeBaseUrl('my server');
    const view = await session.webview();
    const problems = view.locator('[data-testid="welcome-problems"]');
    await problems.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await problems.innerText(), /"my server" is not an http\(s\) URL, so nothing is sent: fix tandem\.functionCallModel\.baseUrl/);
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Anyone?');
    await prompt.press('Enter');
    await view.locator('[data-testid="welcome-held"]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await prompt.inputValue(), 'Anyone?', 'the question stays in the box');
    assert.equal(server.requests.length, served, 'no request anywhere');
    // The user's own setting is what fails: the view says so first, not "set up a model".
    const welcome = view.locator('[data-testid="welcome"]');
    assert.equal((await welcome.locator('h3').first().innerText()).trim(), 'Tandem cannot reach your model');
    assert.match(await view.locator('[data-testid="welcome-held"]').innerText(), /^Not sent: your model server cannot be used yet\./);
    await session.screenshot('settings-bad-base-url');

    // Its Open Settings opens that setting.
    await session.runCommand('workbench.action.closeAllEditors', 'View: Close All Editors');
    await view.locator('[data-testid="welcome-open-settings"]').click();
    await session.page.locator('.settings-editor .setting-item', { hasText: 'Function Call Model: Base Url' }).first().waitFor({ state: 'visible', timeout: 15_000 });

    // Fixed in the Settings editor: the welcome view goes, no reload needed.
    await typeBaseUrl(server.baseUrl);
    await problems.waitFor({ state: 'detached', timeout: 30_000 });
  }),
);

test('mistakes found together share one warning, which names each setting and shows them all', { timeout: 120_000 }, () =>
  guarded('together', async () => {
    const noScheme = server.baseUrl.replace(/^http:\/\//, '');
    await session.updateSettings({ 'tandem.functionCallModel.baseUrl': noScheme, 'tandem.answerModel.baseUrl': noScheme });
    await session.webview();
    const toasts = session.page.locator('.notification-toast', { hasText: 'has no scheme; read as' });
    await toasts.first().waitFor({ state: 'visible', timeout: 30_000 });
    // Give a second toast time to appear, were there one.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(await toasts.count(), 1, 'one toast for both');
    const text = await toasts.first().innerText();
    // Each warning names the setting that fixes it: the answer model's base URL is fine once its model is named.
    assert.match(text, /2 warnings \(tandem\.functionCallModel\.baseUrl, tandem\.answerModel\.model\)/);
    assert.ok(text.includes('functionCallModel') && text.includes('answerModel'), text);
    await session.screenshot('settings-two-warnings');
    await toasts.first().getByRole('button', { name: 'Show All' }).click();
    const output = session.page.locator('.part.panel .monaco-editor', { hasText: 'has no scheme' }).first();
    await output.waitFor({ state: 'visible', timeout: 15_000 });
    // The editor draws spaces as no-break spaces.
    assert.match(await output.innerText(), /tandem\.answerModel\.baseUrl\sis\sset\sbut\standem\.answerModel\.model\sis\sempty/);
  }),
);

test('a model name the server does not list is warned of before any run, once, with Select Models at hand', { timeout: 120_000 }, () =>
  guarded('unlisted-model', async () => {
    const served = server.requests.length;
    await session.updateSettings({ 'tandem.functionCallModel.baseUrl': server.baseUrl, 'tandem.answerModel.baseUrl': '', 'tandem.functionCallModel.model': 'local-modle' });
    await session.webview();
    const toast = session.page.locator('.notification-toast', { hasText: 'does not list the model "local-modle"' });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await toast.innerText(), /it lists local-model\)/);
    await session.screenshot('settings-unlisted-model');
    assert.equal(server.requests.length, served, 'no chat request was sent to find out');
    await toast.getByRole('button', { name: 'Select Models' }).click();
    // Select Models asks the server for its models and offers them.
    await session.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'local-model' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await session.page.keyboard.press('Escape');
  }),
);

test("a wrong value the workspace sets opens on the Settings editor's Workspace tab, where it is in force", { timeout: 120_000 }, () =>
  guarded('workspace-value', async () => {
    await session.runCommand('workbench.action.closeAllEditors', 'View: Close All Editors');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    const workspaceSettings = path.join(workspace, '.vscode', 'settings.json');
    fs.writeFileSync(workspaceSettings, JSON.stringify({ 'tandem.agent.maxIterations': 50 }, null, 2));
    try {
      await session.webview();
      const toast = session.page.locator('.notification-toast', { hasText: 'tandem.agent.maxIterations = 50 is out of range' });
      await toast.waitFor({ state: 'visible', timeout: 30_000 });
      await toast.getByRole('button', { name: 'Open Setting' }).click();
      await session.page.locator('.settings-editor .setting-item', { hasText: 'Max Iterations' }).first().waitFor({ state: 'visible', timeout: 15_000 });
      const checked = session.page.locator('.settings-editor .settings-tabs-widget .action-label.checked');
      await waitFor(async () => /Workspace/.test(await checked.first().innerText().catch(() => '')), 'the Workspace tab is the one shown', 15_000);
      await session.screenshot('settings-workspace-tab');
    } finally {
      // Later tests must not inherit the wrong value.
      fs.rmSync(workspaceSettings, { force: true });
    }
  }),
);

test("a wrong user value opens on the User tab when the workspace's own value is ignored (not allowed yet): the user's is in force", { timeout: 120_000 }, () =>
  guarded('ignored-workspace-value', async () => {
    await session.runCommand('workbench.action.closeAllEditors', 'View: Close All Editors');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    const workspaceSettings = path.join(workspace, '.vscode', 'settings.json');
    // A guarded value (it routes requests): it applies only once the user allows it, so the user's value below is in force.
    fs.writeFileSync(workspaceSettings, JSON.stringify({ 'tandem.functionCallModel.baseUrl': 'http://127.0.0.1:9/v1' }, null, 2));
    try {
      await session.updateSettings({ 'tandem.functionCallModel.baseUrl': server.baseUrl.replace(/^http:\/\//, ''), 'tandem.answerModel.baseUrl': '' });
      await session.webview();
      const toast = session.page.locator('.notification-toast', { hasText: 'has no scheme; read as' });
      await toast.first().waitFor({ state: 'visible', timeout: 30_000 });
      await toast.first().getByRole('button', { name: 'Open Setting' }).click();
      await session.page.locator('.settings-editor .setting-item', { hasText: 'Function Call Model: Base Url' }).first().waitFor({ state: 'visible', timeout: 15_000 });
      const checked = session.page.locator('.settings-editor .settings-tabs-widget .action-label.checked');
      await waitFor(async () => /User/.test(await checked.first().innerText().catch(() => '')), 'the User tab is the one shown', 15_000);
      assert.doesNotMatch(await checked.first().innerText(), /Workspace/);
    } finally {
      fs.rmSync(workspaceSettings, { force: true });
    }
  }),
);
