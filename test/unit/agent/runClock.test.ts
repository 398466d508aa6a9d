import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunClock } from '../../../src/agent/runClock';

describe('RunClock', () => {
  it('counts only unpaused time, with nested pauses', () => {
    let now = 0;
    const clock = new RunClock(1000, () => now);
    clock.start();
    now = 100;
    clock.pause();
    clock.pause();
    now = 5000;
    clock.resume();
    assert.equal(clock.elapsedMs(), 100, 'still paused while one waiter remains');
    clock.resume();
    now = 5300;
    assert.equal(clock.elapsedMs(), 400);
    clock.dispose();
  });

  it('fires the limit after agent time, not wall time, and tells late listeners at once', async () => {
    const clock = new RunClock(80);
    let fired = 0;
    clock.onLimit(() => fired++);
    clock.start();
    clock.pause();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(fired, 0, 'a person deciding does not use up the time');
    clock.resume();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(fired, 1);
    assert.ok(clock.limitReached);
    let late = 0;
    clock.onLimit(() => late++);
    assert.equal(late, 1);
  });
});
