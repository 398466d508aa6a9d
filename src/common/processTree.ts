// The processes below a process, and ending them. A terminal's shell: what
// it started ends and the shell stays usable for the next command (after
// Ctrl+C did not stop a command in time). An MCP server behind a wrapper
// (`sh -c`, a launcher that does not pass signals on): the server ends with
// the wrapper the MCP SDK stops.
import { execFile, execFileSync } from 'node:child_process';

/** Process ids below `root` (children, grandchildren, ...), deepest last; empty where `ps` is unavailable. */
export async function descendantPids(root: number): Promise<number[]> {
  if (process.platform === 'win32') return [];
  const table = await new Promise<string>((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { timeout: 3000 }, (error, stdout) => resolve(error ? '' : stdout));
  });
  return below(root, table);
}

/**
 * Ends a shell and what it started, at once, as closing its terminal would
 * (SIGHUP), and SIGTERM to what it started. Synchronous: for a window that is
 * closing or reloading, where an asynchronous step may never run.
 */
export function hangUpNow(shell: number): void {
  if (process.platform === 'win32') return;
  let table = '';
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { timeout: 2000, encoding: 'utf8' });
  } catch {
    // No `ps`: the shell alone is hung up.
  }
  for (const pid of below(shell, table)) {
    signal(pid, 'SIGHUP');
    signal(pid, 'SIGTERM');
  }
  signal(shell, 'SIGHUP');
}

function below(root: number, table: string): number[] {
  const children = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const [pid, parent] = line.trim().split(/\s+/).map(Number);
    if (!Number.isInteger(pid) || !Number.isInteger(parent)) continue;
    const list = children.get(parent!) ?? [];
    list.push(pid!);
    children.set(parent!, list);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (found.includes(pid)) continue;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** SIGTERM to every descendant of `root`, then SIGKILL to those still there after `graceMs`. */
export async function endDescendants(root: number, graceMs: number): Promise<void> {
  const pids = await descendantPids(root);
  if (pids.length === 0) return;
  for (const pid of pids) signal(pid, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  for (const pid of pids) signal(pid, 'SIGKILL');
}

/** SIGTERM to each of `pids` still running, then SIGKILL to those still there after `graceMs`. */
export async function endProcesses(pids: readonly number[], graceMs: number): Promise<void> {
  const running = pids.filter(isRunning);
  if (running.length === 0) return;
  for (const pid of running) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && running.some(isRunning)) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const pid of running.filter(isRunning)) signal(pid, 'SIGKILL');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: there, but not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
