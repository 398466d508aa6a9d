// Agent time: a deadline fires after its agent time, and time paused (a
// person deciding) does not count. Mocked timers and Date make it exact, so a
// busy machine cannot turn it into a race.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, it, mock } from 'node:test';
import { AgentClock } from '../../../src/agent/agentClock';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
afterEach(() => mock.timers.reset());

it('fires a deadline after its agent time; paused time does not count', () => {
  const clock = new AgentClock(() => Date.now());
  let fired = 0;
  clock.deadline(150, () => fired++);
  mock.timers.tick(50);
  const resume = clock.pause();
  mock.timers.tick(200);
  assert.equal(fired, 0, 'not while paused');
  resume();
  resume(); // once only
  mock.timers.tick(99);
  assert.equal(fired, 0, '100 ms of agent time were left');
  mock.timers.tick(1);
  assert.equal(fired, 1);
  mock.timers.tick(1_000);
  assert.equal(fired, 1, 'once only');
});

it('nested pauses resume the clock only when the last one ends; dispose cancels', () => {
  const clock = new AgentClock(() => Date.now());
  let fired = 0;
  const first = clock.pause();
  const second = clock.pause();
  clock.deadline(30, () => fired++);
  const cancelled = clock.deadline(30, () => fired++);
  cancelled.dispose();
  first();
  mock.timers.tick(60);
  assert.equal(fired, 0, 'still paused by the second wait');
  assert.equal(clock.paused, true);
  second();
  mock.timers.tick(30);
  assert.equal(fired, 1);
});

it('counts the time it stood paused (nested pauses once), so a run can say how long it waited on the user', () => {
  const clock = new AgentClock(() => Date.now());
  assert.equal(clock.pausedMs(), 0);
  const first = clock.pause();
  mock.timers.tick(100);
  const second = clock.pause();
  mock.timers.tick(50);
  assert.equal(clock.pausedMs(), 150, 'while paused, so far');
  first();
  mock.timers.tick(25);
  second();
  mock.timers.tick(1_000);
  assert.equal(clock.pausedMs(), 175);
});
