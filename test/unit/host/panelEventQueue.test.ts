import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { PanelEventQueue } from '../../../src/host/panelEventQueue';

const delta = (text: string): AgentEvent => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: text }) as AgentEvent;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits until `done` holds (timers here may run late on a loaded machine). */
async function until(done: () => boolean, limitMs = 5_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!done() && Date.now() < end) await sleep(2);
}

interface Sent {
  readonly at: number;
  readonly conversationId: string;
  readonly text: string;
  readonly count: number;
  answer(): void;
}

function recorder(answers: 'at once' | 'by hand' | 'none' = 'at once') {
  const sent: Sent[] = [];
  const send = (conversationId: string, events: AgentEvent[]) => {
    if (answers === 'none') {
      sent.push({ at: performance.now(), conversationId, text: events.map((event) => String(event['delta'] ?? '')).join(''), count: events.length, answer: () => undefined });
      return undefined;
    }
    let answer!: () => void;
    const taken = new Promise<void>((resolve) => (answer = resolve));
    sent.push({ at: performance.now(), conversationId, text: events.map((event) => String(event['delta'] ?? '')).join(''), count: events.length, answer });
    if (answers === 'at once') answer();
    return taken;
  };
  return { sent, send };
}

describe('PanelEventQueue', () => {
  it('sends the first events after a quiet spell at the end of the task, deltas merged', async () => {
    const { sent, send } = recorder();
    const queue = new PanelEventQueue({ send, intervalMs: 50 });
    queue.push('c', delta('a'));
    queue.push('c', delta('b'));
    assert.equal(sent.length, 0, 'not inside the task that pushed');
    await tick();
    assert.deepEqual(sent.map((message) => [message.text, message.count]), [['ab', 1]]);
    queue.dispose();
  });

  it('sends at most once per interval: what arrives meanwhile goes as one message', async () => {
    const { sent, send } = recorder();
    const queue = new PanelEventQueue({ send, intervalMs: 40 });
    queue.push('c', delta('a'));
    await tick();
    queue.push('c', delta('b'));
    queue.push('c', delta('c'));
    await tick();
    assert.equal(sent.length, 1, 'the next message waits for the interval');
    await until(() => sent.length === 2);
    assert.deepEqual(sent.map((message) => message.text), ['a', 'bc']);
    assert.ok(sent[1]!.at - sent[0]!.at >= 38, `sent ${sent[1]!.at - sent[0]!.at} ms apart`);
    queue.dispose();
  });

  it('holds back while `window` messages are unanswered, then sends everything that waited as one', async () => {
    const { sent, send } = recorder('by hand');
    const queue = new PanelEventQueue({ send, intervalMs: 1, window: 1 });
    queue.push('c', delta('a'));
    await tick();
    for (const text of ['b', 'c', 'd']) {
      queue.push('c', delta(text));
      await sleep(5);
    }
    assert.deepEqual(sent.map((message) => message.text), ['a'], 'nothing more while the first is unanswered');
    sent[0]!.answer();
    await until(() => sent.length === 2);
    assert.deepEqual(sent.map((message) => message.text), ['a', 'bcd']);
    queue.dispose();
  });

  it('by default waits for the answer to the last message, so a slow browser gets fewer, larger messages', async () => {
    const { sent, send } = recorder('by hand');
    const queue = new PanelEventQueue({ send, intervalMs: 1 });
    queue.push('c', delta('a'));
    await tick();
    queue.push('c', delta('b'));
    await sleep(20);
    assert.deepEqual(sent.map((message) => message.text), ['a'], 'the second waits for the first answer, not only the interval');
    queue.push('c', delta('c'));
    sent[0]!.answer();
    await until(() => sent.length === 2);
    assert.deepEqual(sent.map((message) => message.text), ['a', 'bc']);
    queue.dispose();
  });

  it('does not stop for an answer that never comes', async () => {
    const { sent, send } = recorder('by hand');
    const queue = new PanelEventQueue({ send, intervalMs: 1, window: 1, answerTimeoutMs: 30 });
    queue.push('c', delta('a'));
    await tick();
    queue.push('c', delta('b'));
    await until(() => sent.length === 2);
    assert.deepEqual(sent.map((message) => message.text), ['a', 'b']);
    queue.dispose();
  });

  it('flush sends at once whatever the pace, and a switch of conversation sends the other one first', async () => {
    const { sent, send } = recorder('by hand');
    const queue = new PanelEventQueue({ send, intervalMs: 1_000, window: 1 });
    queue.push('c', delta('a'));
    queue.flush();
    queue.push('c', delta('b'));
    queue.push('d', delta('x'));
    assert.deepEqual(sent.map((message) => [message.conversationId, message.text]), [['c', 'a'], ['c', 'b']]);
    queue.flush();
    assert.deepEqual(sent.at(-1)?.text, 'x');
    queue.flush(); // nothing queued: nothing sent
    assert.equal(sent.length, 3);
    queue.dispose();
  });

  it('a send with no panel to take it does not count as unanswered', async () => {
    const { sent, send } = recorder('none');
    const queue = new PanelEventQueue({ send, intervalMs: 1, window: 1 });
    queue.push('c', delta('a'));
    await tick();
    await sleep(5);
    queue.push('c', delta('b'));
    await until(() => sent.length === 2);
    assert.deepEqual(sent.map((message) => message.text), ['a', 'b']);
    queue.dispose();
  });
});
