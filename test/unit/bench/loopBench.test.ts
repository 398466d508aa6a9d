// Keeps the benchmark harness from rotting: one short round of every loop
// stack, each in its own process against the scripted server in another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureLoop } from '../../../bench/loopBench';
import { stacks } from '../../../bench/loop/stacks';

describe('loop benchmark harness', () => {
  it('runs one round of each stack and reports every figure', { timeout: 60_000 }, async () => {
    const results = await measureLoop(Object.keys(stacks), 1, 1);
    assert.deepEqual(Object.keys(results), Object.keys(stacks));
    for (const [name, figures] of Object.entries(results)) {
      assert.ok(figures.cpuMsPerRun > 0, `${name}: cpu`);
      assert.ok(figures.wallMsPerRun > 0, `${name}: wall`);
      assert.equal(figures.requestsPerRun, 7, `${name}: five tool rounds, the last reply and the answer`);
      assert.ok(Number.isFinite(figures.usCpuPerChunk), `${name}: per chunk`);
      assert.ok(figures.allocMbPerRun >= 0, `${name}: alloc`);
    }
  });
});
