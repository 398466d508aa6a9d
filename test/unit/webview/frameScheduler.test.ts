import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameScheduler } from '../../../webview/frameScheduler';

describe('frame scheduler', () => {
  it('runs the work once per frame however often it is scheduled', () => {
    const frames: (() => void)[] = [];
    let renders = 0;
    const scheduler = new FrameScheduler(() => renders++, (callback) => frames.push(callback));
    for (let index = 0; index < 500; index++) scheduler.schedule();
    assert.equal(frames.length, 1);
    frames.shift()!();
    assert.equal(renders, 1);
    scheduler.schedule();
    scheduler.schedule();
    assert.equal(frames.length, 1, 'a new frame after the last one ran');
    frames.shift()!();
    assert.equal(renders, 2);
  });
});
