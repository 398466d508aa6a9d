import assert from 'node:assert/strict';
import { it } from 'node:test';
import { EventType } from '@ag-ui/core';
import { MessagesSnapshot } from '../../../src/agui/messagesSnapshot';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

const event = (type: EventType, fields: Record<string, unknown>) => ({ type, ...fields }) as unknown as AgentEvent;
const text = (messageId: string, delta: string) => [event(EventType.TEXT_MESSAGE_START, { messageId, role: 'assistant' }), event(EventType.TEXT_MESSAGE_CONTENT, { messageId, delta })];

it('leaves out the messages a retry or a reclassification discarded; the rest keep their order', () => {
  const snapshot = new MessagesSnapshot([{ id: 'u1', role: 'user', content: 'Plan it.' }]);
  for (const next of [
    ...text('void', 'A broken attempt'),
    event(EventType.CUSTOM, { name: 'tandem.retry', value: { role: 'function-call', model: 'm', attempt: 1, delayMs: 0, reason: 'reset', discarded: ['void'] } }),
    ...text('thought', 'Reasoning that streamed as text'),
    event(EventType.CUSTOM, { name: 'tandem.reclassified', value: { role: 'function-call', model: 'm', discarded: ['thought', 'u1', 'unknown'] } }),
    ...text('kept', 'Checking the calendar.'),
  ]) {
    snapshot.observe(next);
  }
  assert.deepEqual(snapshot.snapshot(), [
    { id: 'u1', role: 'user', content: 'Plan it.' },
    { id: 'kept', role: 'assistant', content: 'Checking the calendar.' },
  ]);
});
