// Keeps the benchmark harness from rotting: one short round of every loop
// stack, each in its own process against the scripted server in another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loopTable, measureLoop, type LoopFigures } from '../../../bench/loopBench';
import { ROUNDS } from '../../../bench/loop/conversation';
import { stacks } from '../../../bench/loop/stacks';

describe('loop benchmark harness', () => {
  it('runs one round of each stack and reports every figure', { timeout: 90_000 }, async () => {
    const results = await measureLoop(Object.keys(stacks), 1, 2, 0, 1);
    assert.deepEqual(Object.keys(results), Object.keys(stacks));
    for (const [name, figures] of Object.entries(results)) {
      assert.ok(figures.cpuMsPerRun > 0, `${name}: cpu`);
      if (process.platform === 'linux') assert.ok(figures.mainThreadCpuMsPerRun > 0, `${name}: the main thread's cpu`);
      assert.ok(figures.wallMsPerRun > 0, `${name}: wall`);
      assert.equal(figures.requestsPerRun, ROUNDS + stacks[name]!.replies, `${name}: the tool rounds and the text replies`);
      assert.ok(Number.isFinite(figures.usCpuPerChunk), `${name}: per chunk`);
      // Measured (its value means little here: no warm-up, one run).
      assert.ok(figures.usCpuPerChunkPaced !== null && Number.isFinite(figures.usCpuPerChunkPaced), `${name}: per chunk, paced`);
      assert.ok(figures.allocMbPerRun > 0, `${name}: alloc`);
      if (name === 'floor') assert.equal(figures.cpuRatioToFloor, undefined);
      else {
        // Each measured run against the floor's run of the same turn.
        assert.equal(figures.cpuRatioToFloor!.pairs, 2, `${name}: paired runs`);
        assert.ok(figures.cpuRatioToFloor!.q1 <= figures.cpuRatioToFloor!.median && figures.cpuRatioToFloor!.median <= figures.cpuRatioToFloor!.q3, `${name}: quartiles`);
        assert.ok(figures.cpuRatioToFloor!.median > 0 && Number.isFinite(figures.cpuRatioToFloor!.median), `${name}: paired ratio`);
      }
    }
  });

  it('prints each stack over the floor run by run, with the middle half', () => {
    const figures: LoopFigures = { cpuMsPerRun: 10, mainThreadCpuMsPerRun: 8, wallMsPerRun: 12, requestsPerRun: 7, usCpuPerChunk: 20, usCpuPerChunkPaced: null, allocMbPerRun: 1.5 };
    const table = loopTable({
      floor: figures,
      tandem: { ...figures, cpuRatioToFloor: { median: 1.15, q1: 1.08, q3: 1.3, pairs: 35 }, mainThreadRatioToFloor: { median: 1.1, q1: 1.02, q3: 1.22, pairs: 35 } },
    });
    assert.match(table, /median of 35 paired runs/);
    assert.match(table, /tandem\s+cpu 1\.15x \(1\.08-1\.30\)\s+main thread 1\.10x \(1\.02-1\.22\)/);
  });

  it('prints the paced figure over the floor, when it was measured', () => {
    const figures: LoopFigures = { cpuMsPerRun: 10, mainThreadCpuMsPerRun: 8, wallMsPerRun: 12, requestsPerRun: 7, usCpuPerChunk: 20, usCpuPerChunkPaced: 100, allocMbPerRun: 1.5 };
    const table = loopTable({ floor: figures, tandem: { ...figures, usCpuPerChunk: 15, usCpuPerChunkPaced: 104.5 } });
    assert.match(table, /paced, 2000\/s/);
    assert.match(table, /tandem\s.*15\.0 \(-5\.0\)\s+104\.5 \(\+4\.5\)\s+1\.50/);
  });

  it('prints the main thread as not measured where it is not (off Linux), not NaN', () => {
    const figures: LoopFigures = { cpuMsPerRun: 10, mainThreadCpuMsPerRun: Number.NaN, wallMsPerRun: 12, requestsPerRun: 7, usCpuPerChunk: 20, usCpuPerChunkPaced: null, allocMbPerRun: 1.5 };
    const table = loopTable({ floor: figures, tandem: { ...figures, cpuMsPerRun: 11 } });
    assert.doesNotMatch(table, /NaN/);
    assert.match(table, /tandem\s+11\.00 \(1\.10x\)\s+n\/a \(Linux only\)/);
  });
});
