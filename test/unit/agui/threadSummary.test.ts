// A thread's condensed beginning: a run that condensed earlier turns leaves
// its summary with the thread, and the next run whose history starts with
// the same messages sends the summary instead of asking the answer model to
// condense them again; a changed history does not reuse it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '@ag-ui/core';
import type { ChatMessage } from '../../../src/models/chatModel';
import { applySummary, digestOf, summaryAfter } from '../../../src/agui/threadSummary';
import { runInput, sseEvents, startEndpoint } from './agUiTestSupport';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const history = [user('a'), assistant('b'), user('c'), assistant('d'), user('e')];

describe('thread summary (pure)', () => {
  it('stands in for the messages it covers only while they begin the conversation unchanged', () => {
    const summary = { count: 2, digest: digestOf(history.slice(0, 2)), text: 'S' };
    const applied = applySummary(summary, history);
    assert.deepEqual(applied.covers, [2, 1, 1, 1]);
    assert.equal(applied.messages[0]?.role, 'system');
    assert.match(String(applied.messages[0]?.content), /\n\nS$/);
    assert.deepEqual(applied.messages.slice(1), history.slice(2));

    const edited = [user('a'), assistant('b, edited'), ...history.slice(2)];
    assert.deepEqual(applySummary(summary, edited).messages, edited, 'a changed beginning is sent as it is');
    assert.deepEqual(applySummary(summary, history.slice(0, 2)).messages, history.slice(0, 2), 'nothing after it: no summary');
  });

  it('a run note comes first and covers nothing', () => {
    const applied = applySummary(undefined, history, user('note'));
    assert.deepEqual(applied.covers, [0, 1, 1, 1, 1, 1]);
  });

  it("follows the run's condensations, one after another, back to the conversation's messages", () => {
    const note = user('note');
    const run = applySummary({ count: 2, digest: digestOf(history.slice(0, 2)), text: 'S1' }, history, note);
    // [note, S1, c, d, e]: the first condensation takes note, S1 and c; the second, that summary and d.
    const after = summaryAfter(undefined, run, history, [
      { summary: 'S2', historyMessages: 3 },
      { summary: 'S3', historyMessages: 2 },
    ]);
    assert.deepEqual(after, { count: 4, digest: digestOf(history.slice(0, 4)), text: 'S3' });
    const kept = { count: 2, digest: 'x', text: 'S1' };
    assert.equal(summaryAfter(kept, run, history, [{ summary: 'tools only', historyMessages: 0 }]), kept, 'only tool exchanges condensed: the thread keeps its summary');
  });
});

const LONG_ANSWER = `The build uses esbuild. ${'Details about the bundles and their entry points. '.repeat(160)}`;
const SUMMARY = 'The user asked how the project is built (esbuild bundles).';

it('an AG-UI client resending its history does not pay for the same condensation twice', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    // A small answer window: the first run's history nears it and is condensed before it is sent.
    adjust: (settings) => ({ ...settings, answerModel: { ...settings.answerModel, contextWindow: 2000, maxTokens: 256 } }),
    turns: [
      { model: 'answer-model', content: SUMMARY },
      { model: 'answer-model', content: 'Tests run with node:test.' },
      { model: 'answer-model', content: 'The loop is in src/agent.' },
    ],
  });
  const first: Message[] = [
    { id: 'u1', role: 'user', content: 'How is it built?' },
    { id: 'a1', role: 'assistant', content: LONG_ANSWER },
    { id: 'u2', role: 'user', content: 'And tested?' },
  ];
  const one = await sseEvents(await endpoint.post(runInput({ threadId: 'long', runId: 'r1', messages: first })));
  assert.equal(one.at(-1)?.type, 'RUN_FINISHED', JSON.stringify(one.at(-1)));
  assert.equal(one.filter((event) => event.type === 'CUSTOM' && event.name === 'tandem.condensed').length, 1, 'the first run condensed');

  const second: Message[] = [...first, { id: 'a2', role: 'assistant', content: 'Tests run with node:test.' }, { id: 'u3', role: 'user', content: 'Where is the loop?' }];
  const two = await sseEvents(await endpoint.post(runInput({ threadId: 'long', runId: 'r2', messages: second })));
  assert.equal(two.at(-1)?.type, 'RUN_FINISHED', JSON.stringify(two.at(-1)));
  assert.equal(two.filter((event) => event.type === 'CUSTOM' && event.name === 'tandem.condensed').length, 0, 'nothing condensed again');
  const requests = endpoint.model.requests;
  assert.equal(requests.length, 3, 'one summary, two answers: no second summary request');
  const sent = JSON.stringify(requests[2]?.messages);
  assert.match(sent, /The user asked how the project is built/, 'the summary stands in for the first turns');
  assert.ok(!sent.includes('Details about the bundles'), 'the condensed answer is not sent again');
  assert.match(sent, /Where is the loop\?/);
});
