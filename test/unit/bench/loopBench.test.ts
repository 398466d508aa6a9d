// Keeps the benchmark harness from rotting: one short round of every loop
// stack, each in its own process against the scripted server in another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loopTable, measureLoop, type LoopFigures } from '../../../bench/loopBench';
import { ROUNDS } from '../../../bench/loop/conversation';
import { stacks } from '../../../bench/loop/stacks';

describe('loop benchmark harness', () => {
  it('runs one round of each stack and reports every figure', { timeout: 90_000 }, async () => {
    const results = await measureLoop(Object.keys(stacks), 1, 1, 0, 1);
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
      // One round: the paired ratio is that round's, so it equals the ratio of the medians.
      else assert.ok(Math.abs(figures.cpuRatioToFloor!.median - figures.cpuMsPerRun / results['floor']!.cpuMsPerRun) < 1e-9, `${name}: paired ratio`);
    }
  });

  it('prints each stack over the floor round by round, with the range', () => {
    const figures: LoopFigures = { cpuMsPerRun: 10, mainThreadCpuMsPerRun: 8, wallMsPerRun: 12, requestsPerRun: 7, usCpuPerChunk: 20, usCpuPerChunkPaced: null, allocMbPerRun: 1.5 };
    const table = loopTable({ floor: figures, tandem: { ...figures, cpuRatioToFloor: { median: 1.15, min: 1.08, max: 1.3 }, mainThreadRatioToFloor: { median: 1.1, min: 1.02, max: 1.22 } } });
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
