// Issue 9 item 10 in a real VS Code (code-server + headless Chromium): a run's
// edits can still be reverted from the panel after a window reload (the
// journal is stored with the conversation), and a file the user changed after
// the run is asked about (Restore anyway / Skip) instead of being overwritten.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { answerDialogs, PRESS_ENTER } from './dialogs';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, panelAfterReload, waitFor } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'revert',
    files: { 'notes.txt': 'original notes\n', 'plan.txt': 'plan v1\n' },
    settings: { 'tandem.tools.autoApprove': 'all' },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const read = (relative: string) => fs.readFileSync(path.join(workspace, relative), 'utf8');

const guarded = failureReporter('revert', () => session);

/** Sends a prompt and waits for its answer and the end of the run. */
async function runPrompt(view: Frame, text: string): Promise<void> {
  const answers = await view.locator('[data-testid="answer"]').count();
  const prompt = view.locator('[data-testid="prompt"]');
  await prompt.fill(text);
  await prompt.press('Enter');
  await waitFor(async () => (await view.locator('[data-testid="answer"]').count()) > answers, 'the answer', 60_000);
  await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to end', 60_000);
}

test('after a window reload, "Revert this run\'s edits" still restores the file', { timeout: 120_000 }, () =>
  guarded('reload', async () => {
    let view = await session.webview();
    server.push(
      { model: fc, toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'rewritten by the run\n' } }] },
      { model: fc, content: 'Rewrote the notes.' },
      { model: answerModel, content: 'I rewrote notes.txt.' },
    );
    await runPrompt(view, 'Rewrite the notes.');
    assert.equal(read('notes.txt'), 'rewritten by the run\n');

    await session.reload();
    view = await panelAfterReload(session);
    const revert = view.locator('[data-testid="revert-run"]');
    await revert.waitFor({ state: 'visible', timeout: 30_000 });
    // The bar names what Revert undoes.
    assert.match(await view.locator('.revert-bar').innerText(), /1 file changed: notes\.txt\./);
    await revert.click();
    await waitFor(() => read('notes.txt') === 'original notes\n', 'notes.txt to be restored');
    await revert.waitFor({ state: 'hidden' });
    const notice = view.locator('[data-testid="notice"][data-code="reverted"]').last();
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.innerText(), /Reverted 1 file changed by that run: notes\.txt\./u);
  }),
);

test('a file changed after the run is asked about; Skip keeps it and the other file is restored', { timeout: 120_000 }, () =>
  guarded('changed', async () => {
    const view = await session.webview();
    const notesBefore = read('notes.txt');
    server.push(
      {
        model: fc,
        toolCalls: [
          { name: 'write_file', arguments: { path: 'notes.txt', content: 'second run notes\n' } },
          { name: 'write_file', arguments: { path: 'plan.txt', content: 'plan v2\n' } },
        ],
      },
      { model: fc, content: 'Updated both.' },
      { model: answerModel, content: 'I updated notes.txt and plan.txt.' },
    );
    await runPrompt(view, 'Update the notes and the plan.');
    assert.equal(read('plan.txt'), 'plan v2\n');
    // The user changes one of the files after the run.
    fs.writeFileSync(path.join(workspace, 'plan.txt'), 'plan v2, with my own line\n');

    // Enter, as a user in a hurry would: the default must keep the user's change.
    const dialogs = answerDialogs(session.page, () => PRESS_ENTER);
    try {
      await view.locator('[data-testid="revert-run"]').click();
      await waitFor(() => read('notes.txt') === notesBefore, 'notes.txt to be restored');
      const notice = view.locator('[data-testid="notice"][data-code="reverted"]').last();
      await waitFor(async () => /Kept 1 file changed after the run: plan\.txt\./u.test(await notice.innerText().catch(() => '')), 'the notice naming the kept file');
    } finally {
      await dialogs.stop();
    }
    assert.equal(dialogs.seen.length, 1, `asked ${JSON.stringify(dialogs.seen)}`);
    assert.match(dialogs.seen[0]!.message, /plan\.txt no longer holds what the run wrote/u);
    assert.match(dialogs.seen[0]!.detail, /changed after the run/u);
    assert.deepEqual([...dialogs.seen[0]!.buttons].sort(), ['Cancel', 'Restore anyway', 'Skip']);
    assert.equal(read('plan.txt'), 'plan v2, with my own line\n', "the user's change is kept");
  }),
);

test('a question answered without edits does not hide the run before it: its edits are offered as an earlier run\'s', { timeout: 120_000 }, () =>
  guarded('earlier', async () => {
    const view = await session.webview();
    const notesBefore = read('notes.txt');
    server.push(
      { model: fc, toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'third run notes\n' } }] },
      { model: fc, content: 'Rewrote the notes.' },
      { model: answerModel, content: 'I rewrote notes.txt.' },
    );
    await runPrompt(view, 'Rewrite the notes once more.');
    server.push({ model: fc, content: 'Nothing to change.' }, { model: answerModel, content: 'notes.txt now says "third run notes".' });
    await runPrompt(view, 'What do the notes say now?');

    const revert = view.locator('[data-testid="revert-run"]');
    await revert.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await revert.innerText(), "Revert that run's edits");
    assert.match(await view.locator('.revert-bar').innerText(), /An earlier run \(“Rewrite the notes once more\.”\) changed 1 file: notes\.txt\./u);
    await session.screenshot('revert-earlier-run');
    // From the keyboard: the bar hides with its button, and the keyboard goes on in the prompt box, not the page.
    await revert.focus();
    await session.page.keyboard.press('Enter');
    await waitFor(() => read('notes.txt') === notesBefore, 'notes.txt to be restored');
    await revert.waitFor({ state: 'hidden' });
    assert.equal(await view.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName), 'prompt');
  }),
);
