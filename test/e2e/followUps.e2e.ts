// Follow-ups in a real VS Code (code-server + headless Chromium): a message
// sent while a run goes is queued above the prompt box and goes when the run
// ends with an answer, its context chips read then; Stop holds the queue
// (Send next, Edit, Remove); a window reload keeps it, held, and the prompt
// box's draft.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { LoggedRequest, ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, panelAfterReload, pickContextItem, send, waitFor, waitIdle } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'follow-ups',
    files: { 'notes.txt': 'original notes\n' },
    settings: { 'tandem.tools.autoApprove': 'all' },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const guarded = failureReporter('follow-ups', () => session);

const sent = (request: LoggedRequest | undefined) => JSON.stringify(request?.messages ?? []);

const queuedTexts = (view: Frame) => view.locator('[data-testid="queued-text"]').allTextContents();

async function running(view: Frame): Promise<void> {
  await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'true', 'the run to show as going', 10_000);
}

test('a message sent while a run goes waits above the prompt box and goes when the run ends with an answer, its chips read then', { timeout: 150_000 }, () =>
  guarded('queued', async () => {
    const view = await session.webview();
    server.push(
      // The first reply takes a while, so the follow-up is queued before the run writes the notes.
      { model: fc, firstByteDelayMs: 8_000, toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'written by the first run\n' } }] },
      { model: fc, content: 'Rewrote the notes.' },
      { model: answerModel, content: 'First answer.' },
      { model: fc, content: 'No tools needed.' },
      { model: answerModel, content: 'Second answer.' },
    );
    await send(view, 'Rewrite the notes.');
    await running(view);
    assert.equal(await view.locator('[data-testid="queue"]').isVisible(), true, 'Queue is offered while the run goes');
    await pickContextItem(view, '@notes', 'notes.txt');
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('What do the notes say now?');
    await prompt.press('Enter');
    const queued = view.locator('[data-testid="queued-message"]');
    await queued.waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepEqual(await queuedTexts(view), ['What do the notes say now?']);
    assert.match(await queued.innerText(), /\+ notes\.txt/, 'its chip goes with it');
    assert.equal(await view.locator('[data-testid="context-chip"]').count(), 0, 'the chip left the prompt box with it');
    assert.equal(await prompt.inputValue(), '', 'the prompt box is free for the next one');
    assert.match(await view.locator('[data-testid="follow-ups-status"]').innerText(), /sent when this run ends/);
    assert.equal(await view.locator('[data-testid="user-message"]').count(), 1, 'not sent while the run goes');

    await view.locator('[data-testid="answer"]', { hasText: 'Second answer.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    const questions = await view.locator('[data-testid="user-message"]').allInnerTexts();
    assert.equal(questions.length, 2);
    assert.match(questions[0] ?? '', /Rewrite the notes\./);
    assert.match(questions[1] ?? '', /What do the notes say now\?[\s\S]*notes\.txt/);
    assert.equal(await view.locator('[data-testid="follow-ups"]').isVisible(), false, 'the queue is empty');
    // The chip was read when the follow-up was sent: after the first run had rewritten the file.
    const followUpRequest = server.requests.find((request) => sent(request).includes('What do the notes say now?'));
    assert.match(sent(followUpRequest), /written by the first run/);
    assert.doesNotMatch(sent(followUpRequest), /original notes/);
    assert.match(sent(followUpRequest), /First answer\./, 'it went after the first run, which it sees');
    await session.screenshot('follow-ups-sent');
  }),
);

test('Steer sends a queued message into the running run: the model reads it before its next step, and the panel shows it there', { timeout: 150_000 }, () =>
  guarded('steer', async () => {
    const view = await session.webview();
    const before = server.requests.length;
    server.push(
      // The first reply takes a while: the message is queued and steered meanwhile.
      { model: fc, firstByteDelayMs: 6_000, toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { model: fc, content: 'Read them, and noted the request.' },
      { model: answerModel, content: 'Steered answer.' },
    );
    await send(view, 'Read the notes.');
    await running(view);
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Quote them word for word.');
    await prompt.press('Enter');
    const queued = view.locator('[data-testid="queued-message"]', { hasText: 'Quote them word for word.' });
    await queued.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await view.locator('[data-testid="follow-ups-status"]').innerText(), /Steer sends one into this run/);
    await queued.locator('[data-testid="queued-steer"]').click();
    await queued.locator('[data-testid="queued-steering"]').waitFor({ state: 'visible', timeout: 10_000 });
    // Ctrl+Enter sends the next one into the run at once.
    await prompt.fill('And count the words.');
    await prompt.press('Control+Enter');
    await view.locator('[data-testid="queued-message"]', { hasText: 'And count the words.' }).locator('[data-testid="queued-steering"]').waitFor({ state: 'visible', timeout: 10_000 });
    await session.screenshot('follow-ups-steering');

    const steered = view.locator('[data-testid="step"][data-kind="steer"]');
    await waitFor(async () => (await steered.count()) === 2, 'both messages in the run', 30_000);
    assert.match(await steered.first().innerText(), /You, while it worked[\s\S]*Quote them word for word\./);
    assert.match(await steered.last().innerText(), /And count the words\./);
    await view.locator('[data-testid="answer"]', { hasText: 'Steered answer.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    assert.equal(await view.locator('[data-testid="follow-ups"]').isVisible(), false, 'the run took it: nothing is left queued');
    const questions = await view.locator('[data-testid="user-message"]').allInnerTexts();
    assert.match(questions.at(-1) ?? '', /Read the notes\./, 'no run of its own: the last question is still the one it steered');
    // In the page, between the tool's result and the next step.
    const kinds = await view.locator('[data-testid="step"]').evaluateAll((steps) => steps.map((step) => (step as HTMLElement).dataset['kind']));
    const at = kinds.indexOf('steer');
    assert.equal(kinds[at - 1], 'tool-result');
    assert.equal(kinds[at + 1], 'steer');
    // On the wire: not in the request made before it was sent; in the next one, after the tool's result; and the answer model's.
    const requests = server.requests.slice(before);
    assert.equal(requests.length, 3);
    assert.doesNotMatch(sent(requests[0]), /Quote them word for word/);
    assert.match(sent(requests[1]), /notes.txt \(lines 1-1 of 1\)[\s\S]*The user sent this while you were working[\s\S]*Quote them word for word\.[\s\S]*And count the words\./);
    assert.match(sent(requests[2]), /Quote them word for word\./);
    await session.screenshot('follow-ups-steered');

    // Retry asks the question again with what was sent into the first try, at its first step.
    const retried = server.requests.length;
    server.push({ model: fc, content: 'Quoted and counted.' }, { model: answerModel, content: 'Retried answer.' });
    await view.locator('[data-testid="retry"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'Retried answer.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    const again = server.requests.slice(retried);
    assert.match(sent(again[0]), /Read the notes\.[\s\S]*The user sent this while you were working[\s\S]*Quote them word for word\.[\s\S]*And count the words\./);
    assert.equal(await steered.count(), 4, 'the panel shows them in the second try too');
  }),
);

test('Stop holds the queue: Edit takes one back into the prompt box, Send next sends the first', { timeout: 150_000 }, () =>
  guarded('held', async () => {
    const view = await session.webview();
    server.push({ model: fc, firstByteDelayMs: 60_000, content: 'Too late.' });
    await send(view, 'Take your time.');
    await running(view);
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Fourth question.');
    await view.locator('[data-testid="queue"]').click();
    await prompt.fill('Fifth question.');
    await prompt.press('Enter');
    await waitFor(async () => (await queuedTexts(view)).length === 2, 'two queued messages');
    assert.deepEqual(await queuedTexts(view), ['Fourth question.', 'Fifth question.']);
    await session.screenshot('follow-ups-queued');

    await view.locator('[data-testid="stop"]').click();
    await waitIdle(view);
    const drawer = view.locator('[data-testid="follow-ups"]');
    await waitFor(async () => (await drawer.getAttribute('data-held')) === 'true', 'the queue to be held', 10_000);
    assert.match(await view.locator('[data-testid="follow-ups-status"]').innerText(), /stopped/);
    assert.deepEqual(await queuedTexts(view), ['Fourth question.', 'Fifth question.'], 'nothing was sent after Stop');
    await session.screenshot('follow-ups-held');

    await prompt.fill('half a thought');
    await view.locator('[data-testid="queued-message"]', { hasText: 'Fifth question.' }).locator('[data-testid="queued-edit"]').click();
    await waitFor(async () => (await queuedTexts(view)).length === 1, 'the edited one out of the queue');
    assert.equal(await prompt.inputValue(), 'half a thought\n\nFifth question.', 'it joins what the box held');
    await prompt.fill('');

    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'Fourth answer.' });
    await view.locator('[data-testid="follow-up-send-next"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'Fourth answer.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    assert.equal(await drawer.isVisible(), false);
    const questions = await view.locator('[data-testid="user-message"]').allInnerTexts();
    assert.match(questions.at(-1) ?? '', /Fourth question\./);
    assert.equal(questions.filter((text) => text.includes('Fifth question.')).length, 0, 'the edited one was not sent');
  }),
);

test('a window reload keeps the queued messages, held; Remove drops one', { timeout: 180_000 }, () =>
  guarded('reload', async () => {
    let view = await session.webview();
    server.push({ model: fc, firstByteDelayMs: 60_000, content: 'Too late.' });
    await send(view, 'Work on this for a while.');
    await running(view);
    const prompt = view.locator('[data-testid="prompt"]');
    for (const text of ['Then check the tests.', 'Then tidy up.']) {
      await prompt.fill(text);
      await prompt.press('Enter');
    }
    await waitFor(async () => (await queuedTexts(view)).length === 2, 'two queued messages');
    // A message still being written, not sent: the host keeps the draft once typing pauses (300 ms).
    await prompt.fill('And a half-written tho');
    await view.waitForTimeout(1_500);
    // The window stores them with the conversation as it goes; the next one queues them again, held.
    await session.reload();
    view = await panelAfterReload(session);
    await waitFor(async () => (await view.locator('body').getAttribute('data-conversation')) !== null, "the host's conversation", 90_000);
    await view.locator('[data-kind="error"][data-code="INTERRUPTED"]').waitFor({ state: 'visible', timeout: 30_000 });
    const drawer = view.locator('[data-testid="follow-ups"]');
    await waitFor(async () => (await drawer.getAttribute('data-held')) === 'true', 'the queue to come back, held', 30_000);
    assert.match(await view.locator('[data-testid="follow-ups-status"]').innerText(), /reloaded/);
    assert.deepEqual(await queuedTexts(view), ['Then check the tests.', 'Then tidy up.']);
    assert.equal(await view.locator('[data-testid="prompt"]').inputValue(), 'And a half-written tho', 'the draft is back in the prompt box');
    await session.screenshot('follow-ups-after-reload');

    await view.locator('[data-testid="queued-message"]', { hasText: 'Then tidy up.' }).locator('[data-testid="queued-remove"]').click();
    await waitFor(async () => (await queuedTexts(view)).length === 1, 'one left');
    server.push({ model: fc, content: 'No tools needed.' }, { model: answerModel, content: 'Tests checked.' });
    await view.locator('[data-testid="follow-up-send-next"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'Tests checked.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);
    assert.equal(await drawer.isVisible(), false);
    assert.equal((await view.locator('[data-testid="user-message"]').allInnerTexts()).filter((text) => text.includes('Then tidy up.')).length, 0);
  }),
);
