// CPU time of this process's main thread alone, in ms, from Linux's
// per-thread scheduler statistics (ns on CPU). process.cpuUsage() counts every
// thread: the JavaScript thread, and also V8's helpers (concurrent GC marking
// and sweeping, optimising compilers) and libuv's pool. Splitting the two
// tells a stack's own JavaScript from the work the runtime does around it.
// undefined where /proc is not there (not Linux).
import { readFileSync } from 'node:fs';

const file = `/proc/self/task/${process.pid}/schedstat`;

export function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}
