import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { appendCompacted } from '../../../src/protocol/eventCompaction';

const text = (delta: string) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta }) as unknown as AgentEvent;

it('merges deltas per list: an event both lists hold is never changed, and neither list sees the other\'s merges', () => {
  // The stored conversation and the panel's queue get the same event objects.
  const stored: AgentEvent[] = [];
  const queued: AgentEvent[] = [];
  const first = text('Hel');
  for (const list of [stored, queued]) appendCompacted(list, first);
  appendCompacted(stored, text('lo'));
  appendCompacted(queued, text('lo'));
  // The queue sends what it holds and starts over; the conversation keeps growing.
  const sent = queued.splice(0);
  const later = text(' world');
  appendCompacted(stored, later);
  appendCompacted(queued, later);
  appendCompacted(queued, text('!'));
  appendCompacted(stored, text('!'));
  assert.equal(first['delta'], 'Hel', 'the shared first event is as it was emitted');
  assert.equal(later['delta'], ' world');
  assert.deepEqual(sent.map((event) => event['delta']), ['Hello'], 'what was sent does not change afterwards');
  assert.deepEqual(stored.map((event) => event['delta']), ['Hello world!']);
  assert.deepEqual(queued.map((event) => event['delta']), [' world!']);
});

it('never merges into an event before `sealed` (already on disk)', () => {
  const events: AgentEvent[] = [];
  appendCompacted(events, text('a'));
  appendCompacted(events, text('b'));
  appendCompacted(events, text('c'), events.length);
  assert.deepEqual(events.map((event) => event['delta']), ['ab', 'c']);
});
