// One stack in its own process, run by bench/loopBench.ts: each line on stdin
// asks for one run of the benchmark conversation (`short`, `long` or
// `paced`), and each is answered with a JSON line of that run's figures. The
// bench keeps a process per stack alive and asks them in turn, run by run, so
// the machine's drift falls on every stack alike. The scripted server runs in
// another process, so the CPU measured here is the stack's alone.
//   node --expose-gc --import tsx bench/loop/loopWorker.ts <stack> <baseUrl>
// (the bench runs it as an esbuild bundle, as the extension ships).
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { GCProfiler } from 'node:v8';
import { LONG_WORDS, PACED_TOKENS_PER_SECOND, SHORT_WORDS, turnsForRun } from './conversation';
import { mainThreadCpuMs } from './mainThreadCpu';
import { stacks } from './stacks';

const [stackName = '', baseUrl = ''] = process.argv.slice(2);
const stack = stacks[stackName];
if (!stack) throw new Error(`unknown stack ${stackName}; known: ${Object.keys(stacks).join(', ')}`);
const SETTLE_MS = 100;
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function control(path: string, body?: unknown): Promise<unknown> {
  const root = baseUrl.replace(/\/v1$/, '');
  const response = await fetch(`${root}/__scripted/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return response.json();
}

export interface RunSample {
  cpuMs: number;
  /** The JavaScript thread's share of cpuMs (NaN off Linux); the rest is V8's and libuv's helper threads. */
  mainThreadCpuMs: number;
  wallMs: number;
  requests: number;
  allocMb: number;
}

async function once(words: number, tokensPerSecond?: number): Promise<RunSample> {
  await control('turns', turnsForRun(stack!.replies, words, tokensPerSecond));
  const before = ((await control('requests')) as unknown[]).length;
  collect();
  // The forced collection leaves sweeping to V8's helper threads, which
  // process.cpuUsage() would count in the sample (6.7-8 ms of the floor's
  // 18-22 ms per run here): let it finish first.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  // Bytes allocated = heap growth + what each collection during the run freed
  // (after the forced collection above, all garbage is the run's own).
  const collections = new GCProfiler();
  collections.start();
  const heap = process.memoryUsage().heapUsed;
  const mainThread = mainThreadCpuMs();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await stack!.run(baseUrl);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const mainThreadAfter = mainThreadCpuMs();
  const grown = process.memoryUsage().heapUsed - heap;
  let freed = 0;
  for (const collection of collections.stop().statistics) {
    freed += collection.beforeGC.heapStatistics.usedHeapSize - collection.afterGC.heapStatistics.usedHeapSize;
  }
  const allocMb = (grown + freed) / 1e6;
  const requests = ((await control('requests')) as unknown[]).length - before;
  const mainThreadMs = mainThread === undefined || mainThreadAfter === undefined ? Number.NaN : mainThreadAfter - mainThread;
  return { cpuMs: (used.user + used.system) / 1000, mainThreadCpuMs: mainThreadMs, wallMs, requests, allocMb };
}

/** The runs the bench asks for, a line each on stdin. */
export type RunKind = 'short' | 'long' | 'paced';

const RUNS: Record<RunKind, () => Promise<RunSample>> = {
  short: () => once(SHORT_WORDS),
  long: () => once(LONG_WORDS),
  paced: () => once(LONG_WORDS, PACED_TOKENS_PER_SECOND),
};

async function main(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    const kind = line.trim();
    const run = Object.hasOwn(RUNS, kind) ? RUNS[kind as RunKind] : undefined;
    if (!run) throw new Error(`unknown run ${line}; known: ${Object.keys(RUNS).join(', ')}`);
    process.stdout.write(`${JSON.stringify(await run())}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
