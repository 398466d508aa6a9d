import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { editsInPlace, opensConversation, retryTarget } from '../../../src/protocol/retryTarget';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;
const custom = (name: string, value: unknown) => event('CUSTOM', { name, value });
const asked = (text: string, runId: string, attached?: unknown) => custom('tandem.userMessage', attached === undefined ? { text, runId } : { text, runId, attached });
const finished = (runId: string) => event('RUN_FINISHED', { runId, threadId: 't', result: { stopReason: 'noToolCall', answer: 'ok' } });

it('is the last question once its run has ended, with what was attached to it', () => {
  const events = [asked('one', 'r1'), finished('r1'), asked('two', 'r2', { labels: ['a.ts'], text: 'a.ts:\n```\nx\n```' }), finished('r2'), custom('tandem.runEdits', { runId: 'r2', files: ['a.ts'] })];
  assert.deepEqual(retryTarget(events), { runId: 'r2', text: 'two', attached: { labels: ['a.ts'], text: 'a.ts:\n```\nx\n```' } });
  // A run that failed can be asked again too.
  assert.deepEqual(retryTarget([asked('one', 'r1'), event('RUN_ERROR', { message: 'HTTP 500' })]), { runId: 'r1', text: 'one', attached: undefined });
});

it("keeps the mode and tools a question ran with when its slash command said (a prompt file's), and reads no other value as one", () => {
  const chat = custom('tandem.userMessage', { text: 'Explain it.', runId: 'r1', mode: 'chat' });
  assert.deepEqual(retryTarget([chat, finished('r1')]), { runId: 'r1', text: 'Explain it.', attached: undefined, mode: 'chat' });
  const narrowed = custom('tandem.userMessage', { text: 'Explain it.', runId: 'r1', mode: 'agent', tools: ['codebase', 7, 'docs/*'] });
  assert.deepEqual(retryTarget([narrowed, finished('r1')]), { runId: 'r1', text: 'Explain it.', attached: undefined, mode: 'agent', tools: ['codebase', 'docs/*'] });
  const odd = custom('tandem.userMessage', { text: 'Explain it.', runId: 'r1', mode: 'plan' });
  assert.deepEqual(retryTarget([odd, finished('r1')]), { runId: 'r1', text: 'Explain it.', attached: undefined });
});

it('is nothing while the run goes, after a manual condense, after a retry, or for a prompt stored without its run id', () => {
  assert.equal(retryTarget([]), undefined);
  assert.equal(retryTarget([asked('one', 'r1'), event('RUN_STARTED', { runId: 'r1' })]), undefined);
  assert.equal(retryTarget([asked('one', 'r1'), finished('r1'), custom('tandem.condensed', { summary: 's', historyMessages: 2, reason: 'manual' })]), undefined);
  assert.equal(retryTarget([asked('one', 'r1'), finished('r1'), custom('tandem.retried', { runId: 'r1' })]), undefined);
  assert.equal(retryTarget([custom('tandem.userMessage', { text: 'old' }), finished('r1')]), undefined);
  // A summary the run made while it went replaced earlier turns only: the run can still be asked again.
  const condensedInRun = [asked('one', 'r1'), finished('r1'), asked('two', 'r2'), custom('tandem.condensed', { summary: 's', historyMessages: 2, reason: 'nearWindow' }), finished('r2')];
  assert.equal(retryTarget(condensedInRun)?.runId, 'r2');
});

it('knows whether a run asks the first question still standing, which names the conversation', () => {
  const events = [asked('one', 'r1'), finished('r1'), custom('tandem.retried', { runId: 'r1' }), asked('one again', 'r2'), finished('r2'), asked('two', 'r3'), finished('r3')];
  assert.equal(opensConversation(events, 'r2'), true, 'the question before it was asked again');
  assert.equal(opensConversation(events, 'r1'), true);
  assert.equal(opensConversation(events, 'r3'), false);
  assert.equal(opensConversation(events, 'nope'), false);
});

it('names the files a run changed that are not reverted: all of them, none after a revert, or those whose restore failed', () => {
  const edits = custom('tandem.runEdits', { runId: 'r1', files: ['a.ts', 'b.ts'] });
  const base = [asked('one', 'r1'), finished('r1'), edits];
  assert.deepEqual(editsInPlace(base, 'r1'), ['a.ts', 'b.ts']);
  assert.deepEqual(editsInPlace(base, 'r2'), []);
  assert.deepEqual(editsInPlace([...base, custom('tandem.runReverted', { runId: 'r1', files: ['a.ts', 'b.ts'], skipped: [], remaining: [] })], 'r1'), []);
  assert.deepEqual(editsInPlace([...base, custom('tandem.runReverted', { runId: 'r1', files: ['a.ts'], skipped: [], remaining: ['b.ts'] })], 'r1'), ['b.ts']);
});
