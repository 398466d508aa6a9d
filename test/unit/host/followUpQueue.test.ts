import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextAttachments, readAttachments, type ContextAttachment } from '../../../src/host/contextAttachments';
import { FollowUpQueue, MAX_FOLLOW_UPS } from '../../../src/host/followUpQueue';

const file = (path: string, text: string): ContextAttachment => ({ path, label: path, title: path, name: `Attached file ${path}`, read: async () => `File ${path}:\n${text}` });

describe('follow-ups queued while a run goes', () => {
  it('go one at a time, in order, as each run ends with an answer', () => {
    let changes = 0;
    const queue = new FollowUpQueue(() => changes++);
    queue.add('first');
    queue.add('second');
    assert.equal(changes, 2);
    assert.equal(queue.afterRun('answered')?.text, 'first');
    assert.deepEqual(queue.items.map((each) => each.text), ['second']);
    assert.equal(queue.afterRun('answered')?.text, 'second');
    assert.equal(queue.afterRun('answered'), undefined, 'nothing left');
    assert.equal(queue.held, undefined);
  });

  it('wait for the user after a run that was stopped or failed, until Send next', () => {
    const queue = new FollowUpQueue();
    queue.add('after the stop');
    queue.add('and then');
    assert.equal(queue.afterRun('stopped'), undefined);
    assert.match(queue.held ?? '', /stopped/);
    // Another run the user sent meanwhile, answered, does not lift the hold.
    assert.equal(queue.afterRun('answered'), undefined);
    assert.equal(queue.resume()?.text, 'after the stop');
    assert.equal(queue.held, undefined, 'Send next lifts the hold');
    assert.equal(queue.afterRun('failed'), undefined);
    assert.match(queue.held ?? '', /error/);
    queue.release();
    assert.equal(queue.held, undefined);
    assert.equal(queue.afterRun('answered')?.text, 'and then', 'released: the next answered run sends it');
  });

  it('steer: marked ones leave the queue when the run takes them, in order; too late, they stay queued unmarked', () => {
    let changes = 0;
    const queue = new FollowUpQueue(() => changes++);
    const one = queue.add('one')!;
    const two = queue.add('two')!;
    const three = queue.add('three')!;
    assert.equal(queue.hasSteering, false);
    assert.equal(queue.steer('no such id'), false);
    const before = changes;
    assert.ok(queue.steer(three.id));
    assert.ok(queue.steer(one.id));
    assert.ok(queue.steer(one.id), 'twice is once');
    assert.equal(changes, before + 2, 'the panel hears of each mark once');
    assert.ok(queue.isSteering(one.id) && !queue.isSteering(two.id));
    assert.deepEqual(queue.takeSteering().map((each) => each.text), ['one', 'three'], 'in queue order, not in the order steered');
    assert.deepEqual(queue.items.map((each) => each.text), ['two']);
    assert.deepEqual(queue.takeSteering(), [], 'each once');
    // Marked, then the run answers before taking it: it goes after the answer as any follow-up.
    queue.steer(two.id);
    queue.endSteering();
    assert.equal(queue.hasSteering, false);
    assert.equal(queue.afterRun('answered')?.text, 'two');
    // A removed one is no longer steered; a run's end clears every mark.
    const four = queue.add('four')!;
    queue.steer(four.id);
    queue.remove(four.id);
    assert.equal(queue.hasSteering, false);
    const five = queue.add('five')!;
    queue.steer(five.id);
    assert.equal(queue.afterRun('stopped'), undefined);
    assert.equal(queue.isSteering(five.id), false);
  });

  it('remove, put back at the head, hold only with something queued, and refuse past the limit', () => {
    const queue = new FollowUpQueue();
    queue.hold('nothing to hold');
    assert.equal(queue.held, undefined, 'an empty queue is never held');
    const one = queue.add('one');
    const two = queue.add('two');
    assert.ok(one && two);
    assert.equal(queue.remove('no such id'), undefined);
    assert.equal(queue.remove(two.id)?.text, 'two');
    const taken = queue.afterRun('answered');
    assert.equal(taken?.text, 'one');
    queue.add('three');
    queue.putBack(taken!);
    assert.deepEqual(queue.items.map((each) => each.text), ['one', 'three']);
    queue.hold('reloaded');
    queue.remove(queue.items[0]!.id);
    queue.remove(queue.items[0]!.id);
    assert.equal(queue.held, undefined, 'the hold goes with the last one');
    for (let index = 0; index < MAX_FOLLOW_UPS; index++) assert.ok(queue.add(`q${index}`));
    assert.equal(queue.add('one too many'), undefined);
    assert.equal(queue.items.length, MAX_FOLLOW_UPS);
  });

  it('take the chips unread, and read them when sent (an item that fails is named, not fatal)', async () => {
    const attachments = new ContextAttachments();
    let reads = 0;
    attachments.attach({ ...file('a.ts', 'one'), read: async () => `File a.ts:\n${'x'.repeat(++reads)}` });
    attachments.attach({ ...file('gone.ts', ''), read: async () => Promise.reject(new Error('ENOENT: no such file')) });
    const items = attachments.takeItems();
    assert.equal(items.length, 2);
    assert.equal(attachments.list().length, 0, 'the chips are used up');
    assert.equal(reads, 0, 'not read when queued');
    const read = await readAttachments(items, new AbortController().signal);
    assert.equal(reads, 1);
    assert.deepEqual(read?.labels, ['a.ts', 'gone.ts (not sent: ENOENT: no such file)']);
    assert.match(read?.text ?? '', /File a.ts:\nx[\s\S]*Attached file gone.ts could not be read: ENOENT/);
    assert.equal(await readAttachments([], new AbortController().signal), undefined);
  });
});
