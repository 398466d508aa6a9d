import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { retryTarget } from '../../../src/protocol/retryTarget';

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
