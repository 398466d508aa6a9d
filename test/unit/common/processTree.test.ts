// The processes below a process, with their start times, and ending them:
// real processes (`sh` starting `sleep`), real signals. A process noted
// earlier is signalled only while it is still that process: one whose id now
// belongs to another start time is left alone.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, it } from 'node:test';
import { descendantPids, descendants, endDescendants, endProcesses } from '../../../src/common/processTree';

const posix = process.platform !== 'win32';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('process tree', { skip: !posix && 'no ps on Windows' }, () => {
  const started: ChildProcess[] = [];
  /** A shell that starts a `sleep` and waits for it: the sleep is its descendant. */
  const shellWithSleep = async () => {
    const shell = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    started.push(shell);
    await waitFor(async () => (await descendantPids(shell.pid!)).length === 1, 'the sleep to start');
    return shell;
  };
  afterEach(() => {
    for (const child of started.splice(0)) {
      for (const pid of [child.pid!]) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('lists what a process started, each with the time it started', async () => {
    const shell = await shellWithSleep();
    const [sleep] = await descendants(shell.pid!);
    assert.ok(sleep);
    assert.notEqual(sleep.pid, shell.pid);
    // `ps -o lstart`, e.g. "Sat Nov 28 12:15:03 2026".
    assert.match(sleep.started, /\d{1,2}:\d{2}:\d{2}/u);
    process.kill(sleep.pid, 'SIGKILL');
  });

  it('ends the processes noted, when they are still the same processes', async () => {
    const shell = await shellWithSleep();
    const noted = await descendants(shell.pid!);
    await endProcesses(noted, 1_000);
    await waitFor(() => !isRunning(noted[0]!.pid), 'the sleep to end');
  });

  it('leaves alone a process whose id now belongs to another start time (a reused id)', async () => {
    const shell = await shellWithSleep();
    const [sleep] = await descendants(shell.pid!);
    assert.ok(sleep);
    // As if the noted process had ended and its id gone to this one.
    await endProcesses([{ pid: sleep.pid, started: 'Thu Jan  1 00:00:00 1970' }], 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(isRunning(sleep.pid), true, 'the other process is still running');
    process.kill(sleep.pid, 'SIGKILL');
  });

  it('endDescendants ends what a shell started', async () => {
    const shell = await shellWithSleep();
    const [sleep] = await descendants(shell.pid!);
    await endDescendants(shell.pid!, 500);
    await waitFor(() => !isRunning(sleep!.pid), 'the sleep to end');
  });
});
