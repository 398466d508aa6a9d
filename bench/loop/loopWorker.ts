// One stack in its own process: runs the benchmark conversation `runs` times
// after a warm-up and prints JSON medians. The scripted server runs in
// another process, so the CPU measured here is the stack's alone.
//   node --expose-gc --import tsx bench/loop/loopWorker.ts <stack> <baseUrl> <runs> [warm-ups] [paced runs]
// (bench/loopBench.ts runs it as an esbuild bundle, as the extension ships).
import { performance } from 'node:perf_hooks';
import { GCProfiler } from 'node:v8';
import { PACED_TOKENS_PER_SECOND, turnsForRun } from './conversation';
import { mainThreadCpuMs } from './mainThreadCpu';
import { stacks } from './stacks';

const [stackName = '', baseUrl = '', runsText = '5', warmupsText = '3', pacedRunsText = '0'] = process.argv.slice(2);
const stack = stacks[stackName];
if (!stack) throw new Error(`unknown stack ${stackName}; known: ${Object.keys(stacks).join(', ')}`);
const runs = Number(runsText);
const SHORT = 20;
const LONG = 2000;
const SETTLE_MS = 100;
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function control(path: string, body?: unknown): Promise<unknown> {
  const root = baseUrl.replace(/\/v1$/, '');
  const response = await fetch(`${root}/__scripted/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return response.json();
}

interface Sample {
  cpuMs: number;
  /** The JavaScript thread's share of cpuMs (NaN off Linux); the rest is V8's and libuv's helper threads. */
  mainThreadCpuMs: number;
  wallMs: number;
  requests: number;
  allocMb: number;
}

async function once(words: number, tokensPerSecond?: number): Promise<Sample> {
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  for (let warm = 0; warm < Number(warmupsText); warm++) {
    await once(SHORT);
    await once(LONG);
  }
  const short: Sample[] = [];
  const long: Sample[] = [];
  for (let run = 0; run < runs; run++) {
    short.push(await once(SHORT));
    long.push(await once(LONG));
  }
  // Paced runs take a second per reply: a few, after the others.
  const paced: Sample[] = [];
  for (let run = 0; run < Number(pacedRunsText); run++) paced.push(await once(LONG, PACED_TOKENS_PER_SECOND));
  const cpuShort = median(short.map((sample) => sample.cpuMs));
  // Every text reply of the long run (the stack's `replies`, one word per chunk) streams LONG - SHORT more chunks.
  const perChunk = (samples: Sample[]) => ((median(samples.map((sample) => sample.cpuMs)) - cpuShort) * 1000) / (stack!.replies * (LONG - SHORT));
  const usCpuPerChunk = perChunk(long);
  const usCpuPerChunkPaced = paced.length > 0 ? perChunk(paced) : null;
  process.stdout.write(
    `${JSON.stringify({
      cpuMsPerRun: cpuShort,
      mainThreadCpuMsPerRun: median(short.map((sample) => sample.mainThreadCpuMs)),
      wallMsPerRun: median(short.map((sample) => sample.wallMs)),
      requestsPerRun: median(short.map((sample) => sample.requests)),
      usCpuPerChunk,
      usCpuPerChunkPaced,
      allocMbPerRun: median(short.map((sample) => sample.allocMb)),
    })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
