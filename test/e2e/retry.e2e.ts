// Retry and Edit in a real VS Code (code-server + headless Chromium): the last
// question is asked again (or changed, then asked), the first try stays in the
// panel marked and leaves what the models are sent; a first try that changed
// files asks whether to revert them first; the mark survives a window reload.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { LoggedRequest, ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { answerDialogs } from './dialogs';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, panelAfterReload, send, waitFor, waitIdle, waitRestored } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'retry',
    files: { 'notes.txt': 'original notes\n' },
    settings: { 'tandem.tools.autoApprove': 'all' },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const read = (relative: string) => fs.readFileSync(path.join(workspace, relative), 'utf8');

const guarded = failureReporter('retry', () => session);

/** Everything the model was sent in a request, as one text. */
const sent = (request: LoggedRequest | undefined) => JSON.stringify(request?.messages ?? []);

async function answers(view: Frame): Promise<string[]> {
  return view.locator('[data-testid="answer"]').allTextContents();
}

/** Asks `question` of a model that writes `content` to notes.txt, and waits for the run to end. */
async function rewriteNotes(view: Frame, question: string, content: string, answer: string): Promise<void> {
  server.push(
    { model: fc, toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content } }] },
    { model: fc, content: 'Rewrote the notes.' },
    { model: answerModel, content: answer },
  );
  await send(view, question);
  await waitIdle(view);
  assert.equal(read('notes.txt'), content);
}

test('Retry asks the last question again: the first try stays, marked, and the models no longer see its answer; Copy takes an answer\'s Markdown', { timeout: 120_000 }, () =>
  guarded('again', async () => {
    const view = await session.webview();
    const retry = view.locator('[data-testid="retry"]');
    assert.equal(await retry.isVisible(), false, 'nothing to ask again in a new conversation');

    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'The capital is Lyon.' });
    await send(view, 'What is the capital of France?');
    await waitIdle(view);
    await retry.waitFor({ state: 'visible', timeout: 10_000 });

    const requestsBefore = server.requests.length;
    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'The capital is **Paris**.' });
    await retry.click();
    await waitFor(async () => (await answers(view)).some((text) => text.includes('Paris')), 'the second try\'s answer');
    await waitIdle(view);

    const questions = view.locator('[data-testid="user-message"]');
    assert.deepEqual((await questions.allTextContents()).map((text) => (text.match(/What is the capital of France\?/) ? 'asked' : text)), ['asked', 'asked']);
    assert.deepEqual(await questions.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['setAside'])), ['true', 'false']);
    assert.match(await questions.first().locator('[data-testid="retried"]').innerText(), /asked again below/);
    // Both answers stay on screen; the new try's requests carry the question once and not the first answer.
    assert.deepEqual((await answers(view)).map((text) => text.trim()), ['The capital is Lyon.', 'The capital is Paris.']);
    const retried = server.requests.slice(requestsBefore);
    assert.ok(retried.length >= 1, 'the retry reached the model');
    for (const request of retried) {
      assert.doesNotMatch(sent(request), /Lyon/, 'the first answer is not sent');
      assert.equal(sent(request).match(/What is the capital of France\?/g)?.length, 1, 'the question is sent once');
    }
    // Retry now offers the new try.
    await retry.waitFor({ state: 'visible', timeout: 10_000 });
    // A finished answer's Copy takes its Markdown, as the model wrote it.
    assert.equal(await view.locator('[data-testid="copy-answer"]').count(), 2, 'each finished answer has its Copy');
    await view.locator('[data-testid="copy-answer"]').last().click();
    await waitFor(async () => (await session.page.evaluate(() => navigator.clipboard.readText())) === 'The capital is **Paris**.', 'the answer on the clipboard');
    await session.screenshot('retry-asked-again');
    await questions.first().scrollIntoViewIfNeeded();
    await session.screenshot('retry-first-try');
  }),
);

test('Edit puts the last question in the prompt box; Escape puts back the draft, Send asks the changed question in place of that try and renames the conversation', { timeout: 120_000 }, () =>
  guarded('edit', async () => {
    const view = await session.webview();
    const edit = view.locator('[data-testid="edit-question"]');
    assert.equal(await edit.count(), 1, 'only the last question offers Edit');
    // Named for a screen reader by what it acts on, starting with the word shown.
    assert.equal(await edit.getAttribute('aria-label'), 'Edit question');
    assert.equal(await view.locator('[data-testid="retry"]').getAttribute('aria-label'), 'Retry the last question');
    assert.equal(await view.locator('[data-testid="copy-answer"]').last().getAttribute('aria-label'), 'Copy answer');
    const prompt = view.locator('[data-testid="prompt"]');
    const hint = view.locator('[data-testid="composer-hint"]');
    await prompt.fill('a draft of mine');
    await edit.click();
    assert.equal(await prompt.inputValue(), 'What is the capital of France?');
    assert.match(await hint.innerText(), /Editing your last question/);
    await session.screenshot('retry-editing');
    await prompt.press('Escape');
    assert.equal(await prompt.inputValue(), 'a draft of mine', 'Escape puts back what the box held');
    assert.equal(await hint.isVisible(), false);

    await edit.click();
    await prompt.fill('What is the capital of Italy?');
    const requestsBefore = server.requests.length;
    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'The capital is Rome.' });
    await prompt.press('Enter');
    await waitFor(async () => (await answers(view)).some((text) => text.includes('Rome')), 'the edited question\'s answer');
    await waitIdle(view);
    const questions = view.locator('[data-testid="user-message"]');
    assert.deepEqual(await questions.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['setAside'])), ['true', 'true', 'false']);
    assert.match(await questions.last().innerText(), /What is the capital of Italy\?/);
    for (const request of server.requests.slice(requestsBefore)) {
      assert.doesNotMatch(sent(request), /France|Lyon|Paris/, 'neither try of the first question is sent');
      assert.match(sent(request), /What is the capital of Italy\?/);
    }
    assert.equal(await edit.count(), 1, 'Edit moved to the new last question');
    assert.equal(await questions.last().locator('[data-testid="edit-question"]').count(), 1);
    // A pencil with a name, no word: the question's text is the question alone.
    assert.equal((await questions.last().innerText()).replace(/^You\s*/, '').trim(), 'What is the capital of Italy?');
    assert.equal(await prompt.inputValue(), 'a draft of mine', 'the draft is back once the edited question is sent');
    await prompt.fill('');
    // The conversation's opening question changed, and so did its name in History.
    const history = view.locator('[data-testid="history"]');
    await view.locator('[data-testid="history-toggle"]').click();
    await waitFor(async () => (await history.locator('.history-item').first().getAttribute('data-title')) === 'What is the capital of Italy?', 'the new title in History');
    await view.locator('[data-testid="history-toggle"]').click();
    await history.waitFor({ state: 'hidden' });
  }),
);

test('a first try that changed a file asks first: "Revert and Retry" restores it, and the next try is told', { timeout: 150_000 }, () =>
  guarded('edits', async () => {
    const view = await session.webview();
    await rewriteNotes(view, 'Rewrite the notes.', 'a wrong rewrite\n', 'I rewrote notes.txt.');
    const revert = view.locator('[data-testid="revert-run"]');
    await revert.waitFor({ state: 'visible', timeout: 10_000 });

    const requestsBefore = server.requests.length;
    server.push({ model: fc, content: 'Nothing to do yet.' }, { model: answerModel, content: 'What should the notes say?' });
    const dialogs = answerDialogs(session.page, () => 'Revert and Retry', (_dialog, index) => session.screenshot(`retry-dialog-${index}`));
    try {
      await view.locator('[data-testid="retry"]').click();
      await waitFor(async () => (await answers(view)).some((text) => text.includes('What should the notes say?')), 'the second try\'s answer');
      await waitIdle(view);
    } finally {
      await dialogs.stop();
    }
    assert.equal(dialogs.seen.length, 1, `asked ${JSON.stringify(dialogs.seen)}`);
    assert.match(dialogs.seen[0]!.message, /The first try changed 1 file\. Revert it before asking again\?/);
    assert.match(dialogs.seen[0]!.detail, /notes\.txt/);
    assert.deepEqual([...dialogs.seen[0]!.buttons].sort(), ['Cancel', 'Keep and Retry', 'Revert and Retry']);
    assert.equal(read('notes.txt'), 'original notes\n', 'the first try\'s edit was reverted');
    await revert.waitFor({ state: 'hidden' });
    // The next try knows what the set-aside one did, and that it was undone.
    const request = server.requests.slice(requestsBefore).find((entry) => entry.model === fc);
    assert.match(sent(request), /an earlier try at the question below, which the user set aside, did this: tools used: write_file ×1; files changed: notes\.txt/);
    assert.match(sent(request), /the user reverted the changes to notes\.txt/);
    assert.doesNotMatch(sent(request), /I rewrote notes\.txt\./);
  }),
);

test('Cancel in the dialog asks nothing again and changes nothing; the marks survive a window reload', { timeout: 150_000 }, () =>
  guarded('reload', async () => {
    let view = await session.webview();
    await rewriteNotes(view, 'Rewrite the notes again.', 'second rewrite\n', 'Rewritten again.');
    const questions = view.locator('[data-testid="user-message"]');
    const count = await questions.count();
    const requests = server.requests.length;
    const dialogs = answerDialogs(session.page, () => 'Cancel');
    try {
      await view.locator('[data-testid="retry"]').click();
      await waitFor(() => dialogs.seen.length === 1, 'the dialog');
      await waitFor(async () => !(await session.page.locator('.monaco-dialog-box').isVisible()), 'the dialog to close');
    } finally {
      await dialogs.stop();
    }
    assert.equal(await questions.count(), count, 'nothing was asked again');
    assert.equal(server.requests.length, requests);
    assert.equal(read('notes.txt'), 'second rewrite\n');
    assert.equal(await view.locator('[data-testid="retry"]').isVisible(), true, 'Retry is still offered');

    const marks = await questions.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['setAside']));
    assert.deepEqual(marks, ['true', 'true', 'false', 'true', 'false', 'false']);
    await session.reload();
    view = await panelAfterReload(session);
    await waitRestored(view, count);
    assert.deepEqual(await view.locator('[data-testid="user-message"]').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['setAside'])), marks);
    await view.locator('[data-testid="retry"]').waitFor({ state: 'visible', timeout: 10_000 });
  }),
);
