// The processes below a process, and ending them. A terminal's shell: what
// it started ends and the shell stays usable for the next command (after
// Ctrl+C did not stop a command in time). An MCP server behind a wrapper
// (`sh -c`, a launcher that does not pass signals on): the server ends with
// the wrapper the MCP SDK stops.
import { execFile, execFileSync } from 'node:child_process';

/**
 * A process as `ps` lists it: its id and when it started. Ids are reused once
 * a process ends; the pair is not, so a process noted earlier is signalled
 * only while it is still that process.
 */
export interface ProcessRef {
  readonly pid: number;
  /** `ps`'s start time; empty where `ps` cannot say (BusyBox), and then only the id is compared. */
  readonly started: string;
}

/** Process ids below `root` (children, grandchildren, ...), deepest last; empty where `ps` is unavailable. */
export async function descendantPids(root: number): Promise<number[]> {
  return (await descendants(root)).map((each) => each.pid);
}

/** The processes below `root`, deepest last, each with its start time. */
export async function descendants(root: number): Promise<ProcessRef[]> {
  if (process.platform === 'win32') return [];
  return below(root, await processTable());
}

/** Who is running now: pid, parent and start time, from `ps` (without start times where it has no `lstart`). */
async function processTable(): Promise<string> {
  const run = (columns: string) =>
    new Promise<string | undefined>((resolve) => {
      execFile('ps', ['-A', '-o', columns], { timeout: 3000 }, (error, stdout) => resolve(error ? undefined : stdout));
    });
  return (await run('pid=,ppid=,lstart=')) ?? (await run('pid=,ppid=')) ?? '';
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
  for (const { pid } of below(shell, table)) {
    signal(pid, 'SIGHUP');
    signal(pid, 'SIGTERM');
  }
  signal(shell, 'SIGHUP');
}

function parseTable(table: string): Map<number, { parent: number; started: string }> {
  const rows = new Map<number, { parent: number; started: string }>();
  for (const line of table.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s*(.*)$/u.exec(line);
    if (match) rows.set(Number(match[1]), { parent: Number(match[2]), started: match[3]!.trim() });
  }
  return rows;
}

function below(root: number, table: string): ProcessRef[] {
  const rows = parseTable(table);
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of rows) {
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (found.includes(pid)) continue;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found.map((pid) => ({ pid, started: rows.get(pid)?.started ?? '' }));
}

/** Those of `processes` still running as the same process (not another one that got its id since). */
async function stillRunning(processes: readonly ProcessRef[]): Promise<ProcessRef[]> {
  if (processes.every((each) => each.started === '')) return processes.filter((each) => isRunning(each.pid));
  const table = await processTable();
  // No `ps` now: the ids alone, as where it never had start times.
  if (table === '') return processes.filter((each) => isRunning(each.pid));
  const rows = parseTable(table);
  return processes.filter((each) => {
    const row = rows.get(each.pid);
    if (row === undefined) return false;
    return each.started === '' || row.started === '' ? isRunning(each.pid) : row.started === each.started;
  });
}

/** SIGTERM to every descendant of `root`, then SIGKILL to those still there (the same processes) after `graceMs`. */
export async function endDescendants(root: number, graceMs: number): Promise<void> {
  const found = await descendants(root);
  if (found.length === 0) return;
  for (const { pid } of found) signal(pid, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  for (const { pid } of await stillRunning(found)) signal(pid, 'SIGKILL');
}

/** SIGTERM to each of `processes` still running, then SIGKILL to those still there after `graceMs`; a reused id is left alone. */
export async function endProcesses(processes: readonly ProcessRef[], graceMs: number): Promise<void> {
  const running = await stillRunning(processes);
  if (running.length === 0) return;
  for (const { pid } of running) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && running.some(({ pid }) => isRunning(pid))) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const { pid } of await stillRunning(running)) signal(pid, 'SIGKILL');
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
