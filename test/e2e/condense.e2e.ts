// The context budget in a real VS Code (code-server + headless Chromium)
// against the scripted model server, with a small context window: a request
// near the window is condensed first and shows as a `condensed` step (the
// summary hidden until clicked), the next request carries the summary
// instead of the long turn; Tandem: Condense Conversation condenses on
// demand; and an answer cut at the token limit offers Continue, whose click
// asks the model to go on. One code-server session.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { closeVsCode, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, waitFor } from './viewSteps';

const model = 'condense-model';
const LONG_ANSWER = `LONG-ANSWER-MARKER ${Array.from({ length: 500 }, (_, index) => `detail${index}`).join(' ')}`;
let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'condense',
    models: [model],
    settings: {
      'tandem.functionCallModel.model': model,
      // 0.85 × (1200 − 200) = 850 tokens: the long answer (~1,000) pushes the second request over.
      'tandem.functionCallModel.contextWindow': 1200,
      'tandem.functionCallModel.maxTokens': 200,
      'tandem.answerModel.model': '',
      'tandem.agent.mode': 'chat',
    },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

async function ask(view: Frame, text: string, answer: string): Promise<void> {
  const prompt = view.locator('[data-testid="prompt"]');
  await prompt.fill(text);
  await view.locator('[data-testid="send"]').click();
  await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')).includes(answer), `the answer "${answer.slice(0, 30)}"`);
  await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to end');
}

function lastRequestText(): string {
  return JSON.stringify(server.requests.at(-1)?.messages ?? []);
}

const guarded = failureReporter('condense', () => session);

test('a request near the window is condensed first: a condensed step, the summary on click, the summary sent', { timeout: 120_000 }, () =>
  guarded('near-window', async () => {
    const view = await session.webview();
    server.push({ model, content: LONG_ANSWER });
    await ask(view, 'Tell me everything about the build.', 'LONG-ANSWER-MARKER');

    server.push({ model, content: 'SUMMARY-ONE: the user asked about the build; a long list of details was given.' }, { model, content: 'Second answer.' });
    await ask(view, 'And the tests?', 'Second answer.');
    const step = view.locator('[data-testid="step"][data-kind="condensed"]');
    await step.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await step.innerText(), /Condensed 2 messages: ~[\d,]+ → ~[\d,]+ tokens/);
    assert.equal(await step.locator('[data-testid="condensed-summary"]').count(), 0, 'the summary is hidden until clicked');
    await step.locator('summary').first().click();
    await waitFor(async () => (await step.locator('[data-testid="condensed-summary"]').innerText().catch(() => '')).includes('SUMMARY-ONE'), 'the summary on click');
    await session.screenshot('condense-step');

    const sent = lastRequestText();
    assert.match(sent, /SUMMARY-ONE/, 'the answer request carries the summary');
    assert.doesNotMatch(sent, /LONG-ANSWER-MARKER/, 'and not the long turn');
    assert.match(sent, /And the tests\?/, 'the current message stays verbatim');
    assert.match(JSON.stringify(server.requests.at(-2)?.messages), /LONG-ANSWER-MARKER/, 'the answer model condensed the long turn');
  }),
);

test('Tandem: Condense Conversation condenses the earlier turns on demand; later requests send the summary', { timeout: 90_000 }, () =>
  guarded('command', async () => {
    const view = await session.webview();
    server.push({ model, content: 'Config answer.' });
    await ask(view, 'One more: where is the config?', 'Config answer.');
    const steps = view.locator('[data-testid="step"][data-kind="condensed"]');
    const before = await steps.count();
    const meter = view.locator('[data-testid="context-meter"]');
    const meterTokens = async () => Number(/^([\d,]+) \//.exec((await meter.innerText()).trim())?.[1]?.replace(/,/g, '') ?? NaN);
    const tokensBefore = await meterTokens();
    assert.ok(tokensBefore > 0, 'the meter counts the last request');
    server.push({ model, content: 'SUMMARY-TWO: the build and the tests were discussed.' });
    await session.runCommand('tandem.condense');
    await waitFor(async () => (await steps.count()) > before, 'the condensed step of the command');
    const title = await steps.last().innerText();
    assert.match(title, /Condensed 3 messages: ~[\d,]+ → ~[\d,]+ tokens/, 'the earlier summary and the second turn');
    // The meter drops by what the history lost, and says it is the next request's count, estimated.
    const [condensedFrom] = [...title.matchAll(/~([\d,]+)/g)].map((match) => Number(match[1]!.replace(/,/g, '')));
    const condensedTo = Number(/→ ~([\d,]+)/.exec(title)?.[1]?.replace(/,/g, ''));
    await waitFor(async () => (await meterTokens()) === Math.max(0, tokensBefore - ((condensedFrom ?? 0) - condensedTo)), 'the meter after condensing');
    assert.match((await meter.getAttribute('aria-valuetext')) ?? '', /^Next request, after condensing, to .+, estimated locally/);
    assert.match(lastRequestText(), /SUMMARY-ONE/, 'the earlier summary was condensed again');
    assert.doesNotMatch(lastRequestText(), /Config answer/, 'the latest turn stays verbatim');

    server.push({ model, content: 'Fourth answer.' });
    await ask(view, 'Thanks. Anything else?', 'Fourth answer.');
    const sent = lastRequestText();
    assert.match(sent, /SUMMARY-TWO/);
    assert.doesNotMatch(sent, /SUMMARY-ONE|Second answer/, 'the condensed turns are not sent again');
    assert.match(sent, /Config answer\./);
  }),
);

test('an answer cut at the token limit offers Continue; clicking it asks the model to go on', { timeout: 90_000 }, () =>
  guarded('continue', async () => {
    const view = await session.webview();
    server.push({ model, content: 'The first half of the essay', finishReason: 'length' });
    await ask(view, 'Write an essay.', 'The first half of the essay');
    const action = view.locator('[data-testid="notice"][data-code="answerTruncated"] [data-testid="notice-action"][data-command="tandem.continueAnswer"]');
    await action.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal((await action.innerText()).trim(), 'Continue');
    server.push({ model, content: 'and the second half.' });
    const answers = await view.locator('[data-testid="answer"]').count();
    await action.click();
    await waitFor(async () => (await view.locator('[data-testid="answer"]').count()) > answers, 'the continued answer');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText()).includes('and the second half.'), 'the second half');
    const lastUser = server.requests.at(-1)?.messages.filter((message: { role: string }) => message.role === 'user').at(-1);
    assert.match(String(lastUser?.content), /^Your last answer was cut off at the token limit\. Continue it/, 'Continue sends the continue prompt');
    assert.match(lastRequestText(), /The first half of the essay/, 'with the cut answer in the history');
  }),
);
