import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { PanelState } from '../../../webview/panelState';

class Storage {
  state: unknown;
  writes = 0;
  constructor(state?: unknown) {
    this.state = state;
  }
  getState(): unknown {
    return this.state;
  }
  setState(state: unknown): void {
    this.state = JSON.parse(JSON.stringify(state));
    this.writes++;
  }
}

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;
const position = (count: number, tail = 0) => ({ stream: 's', count, tail });

describe('panel state', () => {
  it('keeps an old state\'s draft and starts without a snapshot', () => {
    const state = new PanelState(new Storage({ draft: 'half a question' }));
    assert.equal(state.initialDraft, 'half a question');
    assert.equal(state.snapshot, undefined);
  });

  it('writes no snapshot while a run streams, and one (compacted) once it is idle; a new page restores it', async () => {
    const storage = new Storage();
    const state = new PanelState(storage, 5);
    state.onConversation('c', [], position(0), false, false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const idleWrites = storage.writes;
    state.onEvents([event('RUN_STARTED'), event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'a' })], position(2, 1), true);
    for (let index = 0; index < 50; index++) state.onEvents([event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'b' })], position(2, 2 + index), true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(storage.writes, idleWrites, 'nothing written per token');
    state.onEvents([event('RUN_FINISHED')], position(3), false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(storage.writes, idleWrites + 1);

    const next = new PanelState(storage);
    assert.equal(next.snapshot?.conversationId, 'c');
    assert.deepEqual(next.snapshot?.position, position(3));
    assert.deepEqual(next.snapshot?.events, [event('RUN_STARTED'), event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: `a${'b'.repeat(50)}` }), event('RUN_FINISHED')]);
  });

  it('flush writes at once (the page is being hidden), mid-run too', () => {
    const storage = new Storage();
    const state = new PanelState(storage, 10_000);
    state.onConversation('c', [event('RUN_STARTED')], position(1), true, false);
    state.setDraft('typing');
    state.flush();
    assert.deepEqual(storage.state, { draft: 'typing', snapshot: { conversationId: 'c', position: position(1), running: true, events: [event('RUN_STARTED')] } });
  });

  it('continues a restored snapshot with what the host sent after it, and replaces it for another conversation', () => {
    const storage = new Storage({ snapshot: { conversationId: 'c', position: position(1), running: false, events: [event('RUN_STARTED')] } });
    const state = new PanelState(storage, 10_000);
    state.onConversation('c', [event('RUN_FINISHED')], position(2), false, true);
    state.flush();
    assert.equal((storage.state as { snapshot: { events: unknown[] } }).snapshot.events.length, 2);
    state.onConversation('d', [event('RUN_ERROR')], position(1), false, false);
    state.flush();
    assert.deepEqual((storage.state as { snapshot: { events: unknown[] } }).snapshot.events, [event('RUN_ERROR')]);
  });

  it('tells the host the draft once typing pauses, once per change (the host keeps it over a window reload)', async () => {
    const told: string[] = [];
    const state = new PanelState(new Storage({ draft: 'kept' }), 5, (draft) => told.push(draft));
    state.setDraft('kept');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(told, [], 'what the page started with is not told again');
    state.setDraft('a');
    state.setDraft('ab');
    await new Promise((resolve) => setTimeout(resolve, 20));
    state.onConversation('c', [], position(0), false, false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    state.setDraft('');
    state.flush();
    assert.deepEqual(told, ['ab', '']);
  });
});
