import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { appendCompacted } from '../../../src/protocol/eventCompaction';
import { eventsAfter, positionOf } from '../../../src/protocol/streamPosition';
import { applyEvents } from '../../../webview/viewModel';
import { createConversationView } from '../../../webview/steps';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;
const text = (delta: string) => event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta });
const usage = (n: number) => event('CUSTOM', { name: 'tandem.usage', value: { n } });

describe('stream position', () => {
  it('names the count and the last delta, and gives back what came after it', () => {
    const events: AgentEvent[] = [];
    for (const next of [event('RUN_STARTED', { runId: 'r' }), event('TEXT_MESSAGE_START', { messageId: 'm' }), text('Hel')]) appendCompacted(events, next);
    const seen = positionOf(events, 's');
    assert.deepEqual(seen, { stream: 's', count: 3, tail: 3 });
    // The last delta grows, then more events come.
    for (const next of [text('lo'), text(' world'), event('TEXT_MESSAGE_END', { messageId: 'm' }), event('RUN_FINISHED')]) appendCompacted(events, next);
    assert.deepEqual(eventsAfter(events, 's', seen), [text('lo world'), event('TEXT_MESSAGE_END', { messageId: 'm' }), event('RUN_FINISHED')]);
    assert.deepEqual(eventsAfter(events, 's', positionOf(events, 's')), []);
    assert.deepEqual(eventsAfter(events, 's', { stream: 's', count: 0, tail: 0 }), events);
  });

  it('a panel that applies its snapshot and then the rest shows what one given the whole stream shows', () => {
    const whole: AgentEvent[] = [];
    const stream = [
      event('RUN_STARTED', { runId: 'r' }),
      event('TEXT_MESSAGE_START', { messageId: 'm' }),
      ...'The answer comes in pieces.'.split(' ').map((word) => text(`${word} `)),
      usage(1),
      usage(2),
      event('TEXT_MESSAGE_END', { messageId: 'm' }),
      event('RUN_FINISHED'),
    ];
    for (let cut = 0; cut <= stream.length; cut++) {
      whole.length = 0;
      for (const next of stream.slice(0, cut)) appendCompacted(whole, next);
      const snapshot = whole.map((entry) => ({ ...entry }));
      const position = positionOf(whole, 's');
      for (const next of stream.slice(cut)) appendCompacted(whole, next);
      const rest = eventsAfter(whole, 's', position);
      assert.ok(rest, `cut ${cut}`);
      const resumed = applyEvents(applyEvents(createConversationView(), snapshot), rest);
      const fresh = applyEvents(createConversationView(), whole);
      // `version` counts updates (render bookkeeping): more batches, more updates, the same steps.
      const shown = (steps: readonly object[]) => steps.map(({ version: _version, ...step }: { version?: number }) => step);
      assert.deepEqual(shown(resumed.steps), shown(fresh.steps), `cut ${cut}`);
      assert.deepEqual(resumed.usage, fresh.usage, `cut ${cut}`);
    }
  });

  it('sends everything again for another copy of the stream or a position that is not in it', () => {
    const events = [event('RUN_STARTED'), text('abc')];
    assert.equal(eventsAfter(events, 's', { stream: 'other', count: 1, tail: 0 }), undefined);
    assert.equal(eventsAfter(events, 's', { stream: 's', count: 3, tail: 0 }), undefined);
    assert.equal(eventsAfter(events, 's', { stream: 's', count: 2, tail: 4 }), undefined);
    assert.equal(eventsAfter(events, 's', { stream: 's', count: 0, tail: 2 }), undefined);
  });
});
