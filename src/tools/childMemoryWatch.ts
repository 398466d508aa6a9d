// Stops a child process whose resident memory passes a limit. ripgrep reads
// every .gitignore it meets, following links: a repository that commits
// `.gitignore -> /dev/zero` makes it read one endless line (1 GB in 1.5 s
// here). Nothing tells that apart before the walk, so its memory is watched.

import { execFile, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** Far above what ripgrep uses on any real tree (tens of MB), far below what hurts the machine. */
export const CHILD_MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024;

const LINUX_POLL_MS = 100;
/** Elsewhere each look runs `ps`: less often, and not at all for a search that ends at once. */
const PS_POLL_MS = 500;

/**
 * Looks at the child's resident memory until it exits, calling `exceeded`
 * once (after killing it) when it passes `limitBytes`. Returns a function
 * that stops watching. Windows is not watched: it has no /dev/zero, and a
 * linked file needs a privilege to create.
 */
export function watchChildMemory(child: ChildProcess, exceeded: (residentBytes: number) => void, limitBytes = CHILD_MEMORY_LIMIT_BYTES): () => void {
  const pid = child.pid;
  if (pid === undefined || process.platform === 'win32') return () => undefined;
  const measure = process.platform === 'linux' ? () => linuxResident(pid) : () => psResident(pid);
  let stopped = false;
  let looking = false;
  const timer = setInterval(
    () => {
      if (looking) return;
      looking = true;
      void measure().then((bytes) => {
        looking = false;
        if (stopped || bytes === undefined || bytes <= limitBytes) return;
        stop();
        child.kill('SIGKILL');
        exceeded(bytes);
      });
    },
    process.platform === 'linux' ? LINUX_POLL_MS : PS_POLL_MS,
  );
  timer.unref();
  const stop = (): void => {
    stopped = true;
    clearInterval(timer);
  };
  child.once('exit', stop);
  return stop;
}

async function linuxResident(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kilobytes = /^VmRSS:\s+(\d+) kB$/mu.exec(status)?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined; // Gone already.
  }
}

function psResident(pid: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile('/bin/ps', ['-o', 'rss=', '-p', String(pid)], { timeout: 2000 }, (error, stdout) => {
      const kilobytes = Number(stdout.trim());
      resolve(error === null && Number.isFinite(kilobytes) && stdout.trim() !== '' ? kilobytes * 1024 : undefined);
    });
  });
}
