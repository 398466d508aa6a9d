// The memory watch that stops a ripgrep reading an endless ignore file, on
// real child processes: one that keeps growing, one that stays small.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { watchChildMemory } from '../../../src/tools/childMemoryWatch';

const GROWS = 'const kept = []; setInterval(() => kept.push(Buffer.alloc(16 * 1024 * 1024, 1)), 10);';
const STAYS_SMALL = 'setTimeout(() => undefined, 1500);';

describe('watchChildMemory', { skip: process.platform === 'win32' ? 'not watched on Windows' : false }, () => {
  it('kills a child that passes the limit and says how much it held', async () => {
    const child = spawn(process.execPath, ['-e', GROWS], { stdio: 'ignore' });
    let seen: number | undefined;
    watchChildMemory(child, (bytes) => (seen = bytes), 200 * 1024 * 1024);
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    assert.equal(signal, 'SIGKILL', `exit code ${String(code)}`);
    assert.ok(seen !== undefined && seen > 200 * 1024 * 1024, String(seen));
  });

  it('leaves a child under the limit alone until it exits', async () => {
    const child = spawn(process.execPath, ['-e', STAYS_SMALL], { stdio: 'ignore' });
    let seen: number | undefined;
    watchChildMemory(child, (bytes) => (seen = bytes), 200 * 1024 * 1024);
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.equal(seen, undefined);
  });
});
