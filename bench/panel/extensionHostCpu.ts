// CPU time of code-server's extension host, read from Linux's /proc: the
// process that runs Tandem's model client, loop and the panel's transport
// (coalescing, the conversation log, postMessage to the webview). The panel
// bench reads it around each streamed answer, so the host's cost per token
// (loop plus panel transport) sits beside the webview's latency.
// undefined where /proc is not there (not Linux) or no extension host runs.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The newest process started as VS Code's extension host (`--type=extensionHost`). */
export function findExtensionHost(): number | undefined {
  let newest: { pid: number; started: number } | undefined;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=extensionHost')) continue;
      const started = statFields(Number(entry))[19]!;
      if (!newest || started > newest.started) newest = { pid: Number(entry), started };
    } catch {
      // Gone meanwhile.
    }
  }
  return newest?.pid;
}

/** User + system CPU of `pid` so far, ms. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const fields = statFields(pid);
    return ((fields[11]! + fields[12]!) * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat's numeric fields from the third on (after "pid (comm)", which may hold spaces). */
function statFields(pid: number): number[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}
