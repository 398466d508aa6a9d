// The watch that stops a ripgrep reading an endless ignore file or blocked on
// one, on real child processes: one that keeps growing, one that sleeps, one
// that reads without printing, one that prints now and then.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { watchChild, type ChildTrouble } from '../../../src/tools/childWatch';

const GROWS = 'const kept = []; setInterval(() => kept.push(Buffer.alloc(16 * 1024 * 1024, 1)), 10);';
const STAYS_SMALL = 'setTimeout(() => undefined, 500);';
const SLEEPS = 'setTimeout(() => undefined, 30000);';
const READS_SILENTLY = 'const fs = require("fs"); const end = Date.now() + 4000; const t = setInterval(() => { fs.readFileSync("/proc/self/stat"); if (Date.now() > end) clearInterval(t); }, 100);';
const PRINTS_IDLY = 'let n = 0; const t = setInterval(() => { process.stdout.write("x\\n"); if (++n === 40) clearInterval(t); }, 100);';
// The stall limit is 20 times the idle children's 100 ms between reads or writes, so a loaded machine's late timer
// does not read as a stall; the memory cases get one far longer than they run.
const LIMITS = { memoryBytes: 200 * 1024 * 1024, stallMs: 2000 };
const NO_STALL = { ...LIMITS, stallMs: 60_000 };

async function watched(script: string, limits = LIMITS): Promise<{ code: number | null; signal: NodeJS.Signals | null; trouble: ChildTrouble | undefined }> {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout.resume();
  let trouble: ChildTrouble | undefined;
  watchChild(child, (what) => (trouble = what), limits);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, trouble };
}

describe('watchChild', { skip: process.platform === 'win32' ? 'not watched on Windows' : false }, () => {
  it('kills a child that passes the memory limit and says how much it held', async () => {
    const { code, signal, trouble } = await watched(GROWS, NO_STALL);
    assert.equal(signal, 'SIGKILL', `exit code ${String(code)}`);
    assert.equal(trouble?.kind, 'memory');
    assert.ok(trouble.kind === 'memory' && trouble.residentBytes > LIMITS.memoryBytes, JSON.stringify(trouble));
  });

  it('leaves a small child that ends in time alone', async () => {
    const { code, trouble } = await watched(STAYS_SMALL, NO_STALL);
    assert.equal(code, 0);
    assert.equal(trouble, undefined);
  });

  it('kills a child that reads and writes nothing for longer than the stall limit (Linux)', { skip: process.platform !== 'linux' ? 'Linux only' : false }, async () => {
    // A ripgrep blocked on a FIFO while its other threads poll is in searchTextHostileNames.test.ts (node's own
    // event loop reads and writes an eventfd when busy, so it cannot stand in for that).
    const started = Date.now();
    const { signal, trouble } = await watched(SLEEPS);
    assert.equal(signal, 'SIGKILL');
    assert.equal(trouble?.kind, 'stalled');
    assert.ok(trouble.kind === 'stalled' && trouble.idleMs > LIMITS.stallMs, JSON.stringify(trouble));
    assert.ok(Date.now() - started < 10_000, 'stopped within seconds');
  });

  it('leaves alone a child that reads without printing, or prints now and then', async () => {
    for (const script of [READS_SILENTLY, PRINTS_IDLY]) {
      const { code, trouble } = await watched(script);
      assert.equal(trouble, undefined, script);
      assert.equal(code, 0, script);
    }
  });
});
