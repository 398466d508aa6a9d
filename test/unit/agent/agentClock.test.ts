// Agent time: a deadline fires after its agent time, and time paused (a
// person deciding) does not count.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AgentClock } from '../../../src/agent/agentClock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('fires a deadline after its agent time; paused time does not count', async () => {
  const clock = new AgentClock();
  let fired = 0;
  const started = Date.now();
  clock.deadline(150, () => fired++);
  await sleep(50);
  const resume = clock.pause();
  await sleep(200);
  assert.equal(fired, 0, 'not while paused');
  resume();
  resume(); // once only
  await sleep(60);
  assert.equal(fired, 0, 'about 50 ms of agent time were left');
  await sleep(120);
  assert.equal(fired, 1);
  assert.ok(Date.now() - started >= 340);
});

it('nested pauses resume the clock only when the last one ends; dispose cancels', async () => {
  const clock = new AgentClock();
  let fired = 0;
  const first = clock.pause();
  const second = clock.pause();
  clock.deadline(30, () => fired++);
  const cancelled = clock.deadline(30, () => fired++);
  cancelled.dispose();
  first();
  await sleep(60);
  assert.equal(fired, 0, 'still paused by the second wait');
  assert.equal(clock.paused, true);
  second();
  await sleep(60);
  assert.equal(fired, 1);
});
