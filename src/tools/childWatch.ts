// Stops a child process that runs away or hangs. ripgrep reads every
// .gitignore it meets: a repository that commits `.gitignore -> /dev/zero`
// makes it read one endless line (1 GB in 1.5 s here), and a .gitignore that
// is a FIFO (a tarball can hold one) blocks it forever in open(). Nothing
// tells either apart before the walk, so the child's memory, and on Linux
// what it reads and writes, are watched while it runs. CPU time would not do
// for the second: while one thread waits on the FIFO, ripgrep 13's others
// poll for work and keep adding a little.

import { execFile, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export interface ChildWatchLimits {
  /** Resident memory past which the child is stopped. */
  readonly memoryBytes: number;
  /** How long the child may read and write nothing before it is stopped (Linux only). */
  readonly stallMs: number;
}

/** Far above what ripgrep uses on any real tree (tens of MB), far below what hurts the machine; no real walk reads nothing for seconds. */
export const RIPGREP_LIMITS: ChildWatchLimits = { memoryBytes: 1024 * 1024 * 1024, stallMs: 5000 };

export type ChildTrouble = { readonly kind: 'memory'; readonly residentBytes: number } | { readonly kind: 'stalled'; readonly idleMs: number };

const LINUX_POLL_MS = 100;
/** Elsewhere each look runs `ps`: less often, and not at all for a search that ends at once. */
const PS_POLL_MS = 500;

interface Sample {
  readonly residentBytes: number;
  /** Bytes read and written so far, files and pipes alike; undefined where it cannot be seen. */
  readonly transferred?: number;
}

/**
 * Looks at the child until it exits, killing it and calling `trouble` once
 * when it passes the memory limit or stalls. Returns a function that stops
 * watching. Windows is not watched: it has no /dev/zero or FIFO files, and a
 * linked file needs a privilege to create. Other systems without /proc have
 * the memory watch only.
 */
export function watchChild(child: ChildProcess, trouble: (what: ChildTrouble) => void, limits: ChildWatchLimits = RIPGREP_LIMITS): () => void {
  const pid = child.pid;
  if (pid === undefined || process.platform === 'win32') return () => undefined;
  const sample = process.platform === 'linux' ? () => linuxSample(pid) : () => psResident(pid);
  let stopped = false;
  let looking = false;
  let lastTransferred: number | undefined;
  let progressAt = Date.now();
  const fail = (what: ChildTrouble): void => {
    stop();
    child.kill('SIGKILL');
    trouble(what);
  };
  const timer = setInterval(
    () => {
      if (looking) return;
      looking = true;
      void sample().then((seen) => {
        looking = false;
        if (stopped || seen === undefined) return;
        if (seen.residentBytes > limits.memoryBytes) {
          fail({ kind: 'memory', residentBytes: seen.residentBytes });
          return;
        }
        if (seen.transferred === undefined) return;
        const now = Date.now();
        if (seen.transferred !== lastTransferred) {
          lastTransferred = seen.transferred;
          progressAt = now;
        } else if (now - progressAt > limits.stallMs) {
          fail({ kind: 'stalled', idleMs: now - progressAt });
        }
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

async function linuxSample(pid: number): Promise<Sample | undefined> {
  let status: string;
  try {
    status = await readFile(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined; // Gone already.
  }
  const kilobytes = /^VmRSS:\s+(\d+) kB$/mu.exec(status)?.[1];
  if (kilobytes === undefined) return undefined;
  // rchar and wchar count every byte passed through read() and write(), cached or not.
  const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
  const read = /^rchar:\s+(\d+)$/mu.exec(io)?.[1];
  const written = /^wchar:\s+(\d+)$/mu.exec(io)?.[1];
  return { residentBytes: Number(kilobytes) * 1024, transferred: read === undefined || written === undefined ? undefined : Number(read) + Number(written) };
}

function psResident(pid: number): Promise<Sample | undefined> {
  return new Promise((resolve) => {
    execFile('/bin/ps', ['-o', 'rss=', '-p', String(pid)], { timeout: 2000 }, (error, stdout) => {
      const kilobytes = Number(stdout.trim());
      resolve(error === null && Number.isFinite(kilobytes) && stdout.trim() !== '' ? { residentBytes: kilobytes * 1024 } : undefined);
    });
  });
}
