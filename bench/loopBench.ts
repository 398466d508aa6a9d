// `npm run bench` (loop part): the same scripted five-round tool conversation
// run by each stack, one process per stack. Each round starts a fresh process
// per stack and keeps them all alive while it asks them for runs in turn, one
// run each, the order rotating: the machine's speed drifts by more than the
// margins measured (up to 2x in a day here, ±15% between processes a minute
// apart), and runs taken back to back share its state. Each figure is the
// median over rounds of each process's medians; the ratio to the floor (the
// raw openai SDK making the same requests with no agent logic) is taken run
// by run, each run against the floor's run of the same turn. The scripted
// model server runs in its own process so its CPU is not counted. Every
// worker runs one esbuild bundle of bench/loop/loopWorker.ts, built as the
// extension's own host.js is (Tandem ships bundled, not through a TypeScript
// loader); node_modules stay outside it, loaded as every stack would load them.
//   TANDEM_BENCH_ROUNDS (default 5), TANDEM_BENCH_RUNS per process (default 7),
//   TANDEM_BENCH_WARMUPS per process (default 3; a short and a long run each),
//   TANDEM_BENCH_STACKS (comma list; default every stack in loop/stacks.ts),
//   TANDEM_BENCH_PACED_RUNS per process (default 3; 0 skips the paced figure),
//   TANDEM_BENCH_BASELINE (the path of another checkout: its Tandem runs as one
//   more stack, `tandem@baseline`, in the same rounds, so that a change is told
//   from the machine's drift; results.json is then left as it is).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { median, updateResults } from './benchResults';
import { LONG_WORDS, PACED_TOKENS_PER_SECOND, SHORT_WORDS } from './loop/conversation';
import type { RunKind, RunSample } from './loop/loopWorker';
import { stacks } from './loop/stacks';

const ROUNDS = Number(process.env['TANDEM_BENCH_ROUNDS'] ?? 5);
const RUNS = Number(process.env['TANDEM_BENCH_RUNS'] ?? 7);
const WARMUPS = Number(process.env['TANDEM_BENCH_WARMUPS'] ?? 3);
const PACED_RUNS = Number(process.env['TANDEM_BENCH_PACED_RUNS'] ?? 3);
const STACKS = (process.env['TANDEM_BENCH_STACKS'] ?? Object.keys(stacks).join(',')).split(',').filter(Boolean);
const BASELINE = process.env['TANDEM_BENCH_BASELINE'];
const BASELINE_STACK = 'tandem@baseline';
const root = path.resolve(__dirname, '..');

export interface LoopFigures {
  cpuMsPerRun: number;
  /** Of cpuMsPerRun, the JavaScript thread's (Linux; NaN elsewhere). */
  mainThreadCpuMsPerRun: number;
  wallMsPerRun: number;
  requestsPerRun: number;
  usCpuPerChunk: number;
  /**
   * The same with the long replies streamed at PACED_TOKENS_PER_SECOND, a
   * chunk per network read as a real model streams (at full speed one read
   * holds many chunks and shares its cost); null when not measured.
   */
  usCpuPerChunkPaced: number | null;
  allocMbPerRun: number;
  /**
   * CPU per short run over the floor's, run by run (each against the floor's
   * run of the same turn, taken a fraction of a second apart): the median
   * over every measured run of every round, and the middle half of them.
   * Absent for the floor.
   */
  cpuRatioToFloor?: RatioSpread;
  mainThreadRatioToFloor?: RatioSpread;
}

export interface RatioSpread {
  median: number;
  /** The first and third quartiles. */
  q1: number;
  q3: number;
  /** How many paired runs. */
  pairs: number;
}

function quantile(sorted: readonly number[], share: number): number {
  const at = (sorted.length - 1) * share;
  const below = Math.floor(at);
  return sorted[below]! + (sorted[Math.min(below + 1, sorted.length - 1)]! - sorted[below]!) * (at - below);
}

function spread(values: readonly number[]): RatioSpread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: median(sorted), q1: quantile(sorted, 0.25), q3: quantile(sorted, 0.75), pairs: sorted.length };
}

export function startServer(): Promise<{ baseUrl: string; stop: () => void }> {
  const script = path.join(tmpdir(), `tandem-bench-script-${process.pid}.json`);
  writeFileSync(script, JSON.stringify({ turns: [], models: ['fc-model', 'answer-model'] }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/scriptedModelServer.ts', '--script', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      const ready = /READY (\S+)/.exec(output);
      if (ready) resolve({ baseUrl: ready[1]!, stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`scripted server exited with ${code}`)));
  });
}

/**
 * Bundles the worker with the options esbuild.mjs gives the extension host.
 * Run through tsx instead, Tandem's TypeScript paid for the loader's
 * per-file output (a name-keeping call for each closure created, getters for
 * each imported binding): measured 2026-11-26, 1.18x and 1.23x the floor
 * under tsx against 1.06x and 1.09x bundled, alternated in the same minutes.
 */
async function bundleWorker(checkout = root, name = 'loopWorker'): Promise<string> {
  // Inside the repository, so that the bundle resolves node_modules from it.
  const outfile = path.join(root, 'node_modules', '.cache', 'tandem-bench', `${name}.cjs`);
  await build({
    entryPoints: [path.join(checkout, 'bench', 'loop', 'loopWorker.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/** Which bundle a stack's process runs, and the stack it asks that bundle for. */
interface Workers {
  own: string;
  baseline?: string;
}

/** One stack's worker process, kept alive for a round and asked for one run at a time. */
class StackProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private waiting: { resolve: (sample: RunSample) => void; reject: (error: Error) => void } | undefined;
  private errors = '';
  private exited: Error | undefined;

  constructor(
    workers: Workers,
    readonly stack: string,
    baseUrl: string,
  ) {
    const [worker, workerStack] = stack === BASELINE_STACK ? [workers.baseline!, 'tandem'] : [workers.own, stack];
    this.child = spawn(process.execPath, ['--expose-gc', worker, workerStack, baseUrl], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      // A stack's library may print to stdout too: only the worker's JSON lines are answers.
      if (!line.startsWith('{"cpuMs"')) return;
      const sample = JSON.parse(line) as RunSample;
      // JSON has no NaN: the main thread's CPU where it is not measured.
      sample.mainThreadCpuMs ??= Number.NaN;
      this.waiting?.resolve(sample);
      this.waiting = undefined;
    });
    this.child.stderr.on('data', (data: Buffer) => (this.errors += data.toString()));
    this.child.on('exit', (code) => {
      this.exited = new Error(`${stack} worker exited (${code}): ${this.errors.slice(-2000)}`);
      this.waiting?.reject(this.exited);
    });
  }

  run(kind: RunKind): Promise<RunSample> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.child.stdin.write(`${kind}\n`);
    });
  }

  /** Ends the process (its sockets would keep it alive a while) and waits for it, so it takes no CPU from the next round. */
  close(): Promise<void> {
    if (this.exited) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill();
    return exited;
  }
}

interface RoundSamples {
  short: RunSample[];
  long: RunSample[];
  paced: RunSample[];
}

/** One round: a fresh process per stack, asked for runs in turn (one each per turn, the order rotating). */
async function measureRound(workers: Workers, baseUrl: string, stackNames: readonly string[], runs: number, warmups: number, pacedRuns: number): Promise<Map<string, RoundSamples>> {
  const processes = stackNames.map((name) => new StackProcess(workers, name, baseUrl));
  const samples = new Map<string, RoundSamples>(stackNames.map((name) => [name, { short: [], long: [], paced: [] }]));
  let turnNumber = 0;
  const turn = async (kind: RunKind, keep: boolean) => {
    const first = turnNumber++ % processes.length;
    for (const stackProcess of [...processes.slice(first), ...processes.slice(0, first)]) {
      const sample = await stackProcess.run(kind);
      if (keep) samples.get(stackProcess.stack)![kind].push(sample);
    }
  };
  try {
    for (let warm = 0; warm < warmups; warm++) {
      await turn('short', false);
      await turn('long', false);
    }
    for (let run = 0; run < runs; run++) {
      await turn('short', true);
      await turn('long', true);
    }
    // Paced runs take a second per reply: a few, after the others.
    for (let run = 0; run < pacedRuns; run++) await turn('paced', true);
  } finally {
    await Promise.all(processes.map((stackProcess) => stackProcess.close()));
  }
  return samples;
}

/** A process's figures from its samples: medians of the short runs; per chunk, the long runs' extra CPU over the short's. */
function processFigures(samples: RoundSamples, replies: number): LoopFigures {
  const cpuShort = median(samples.short.map((sample) => sample.cpuMs));
  // Every text reply of a long run (the stack's `replies`, one word per chunk) streams LONG_WORDS - SHORT_WORDS more chunks.
  const perChunk = (runs: RunSample[]) => ((median(runs.map((sample) => sample.cpuMs)) - cpuShort) * 1000) / (replies * (LONG_WORDS - SHORT_WORDS));
  return {
    cpuMsPerRun: cpuShort,
    mainThreadCpuMsPerRun: median(samples.short.map((sample) => sample.mainThreadCpuMs)),
    wallMsPerRun: median(samples.short.map((sample) => sample.wallMs)),
    requestsPerRun: median(samples.short.map((sample) => sample.requests)),
    usCpuPerChunk: perChunk(samples.long),
    usCpuPerChunkPaced: samples.paced.length > 0 ? perChunk(samples.paced) : null,
    allocMbPerRun: median(samples.short.map((sample) => sample.allocMb)),
  };
}

/** Runs every stack over `rounds` rounds of `runs` interleaved runs each; returns the medians per stack. */
export async function measureLoop(stackNames: readonly string[], rounds: number, runs: number, warmups = 3, pacedRuns = 0, baseline?: string): Promise<Record<string, LoopFigures>> {
  const workers: Workers = { own: await bundleWorker(), ...(baseline ? { baseline: await bundleWorker(path.resolve(baseline), 'loopWorkerBaseline') } : {}) };
  const server = await startServer();
  try {
    const figures = new Map<string, LoopFigures[]>(stackNames.map((name) => [name, []]));
    const ratios = new Map<string, { cpu: number[]; mainThread: number[] }>(stackNames.map((name) => [name, { cpu: [], mainThread: [] }]));
    for (let round = 0; round < rounds; round++) {
      const samples = await measureRound(workers, server.baseUrl, stackNames, runs, warmups, pacedRuns);
      const floor = samples.get('floor');
      for (const [name, roundSamples] of samples) {
        figures.get(name)!.push(processFigures(roundSamples, stacks[name === BASELINE_STACK ? 'tandem' : name]!.replies));
        if (!floor || name === 'floor') continue;
        roundSamples.short.forEach((sample, run) => {
          ratios.get(name)!.cpu.push(sample.cpuMs / floor.short[run]!.cpuMs);
          ratios.get(name)!.mainThread.push(sample.mainThreadCpuMs / floor.short[run]!.mainThreadCpuMs);
        });
      }
    }
    const result: Record<string, LoopFigures> = {};
    for (const [name, list] of figures) {
      const paired = ratios.get(name)!;
      result[name] = {
        cpuMsPerRun: median(list.map((figure) => figure.cpuMsPerRun)),
        mainThreadCpuMsPerRun: median(list.map((figure) => figure.mainThreadCpuMsPerRun)),
        wallMsPerRun: median(list.map((figure) => figure.wallMsPerRun)),
        requestsPerRun: median(list.map((figure) => figure.requestsPerRun)),
        usCpuPerChunk: median(list.map((figure) => figure.usCpuPerChunk)),
        usCpuPerChunkPaced: pacedRuns > 0 ? median(list.map((figure) => figure.usCpuPerChunkPaced ?? Number.NaN)) : null,
        allocMbPerRun: median(list.map((figure) => figure.allocMbPerRun)),
        ...(paired.cpu.length > 0 ? { cpuRatioToFloor: spread(paired.cpu), mainThreadRatioToFloor: spread(paired.mainThread) } : {}),
      };
    }
    return result;
  } finally {
    server.stop();
  }
}

export function loopTable(results: Record<string, LoopFigures>): string {
  const floor = results['floor'];
  const ratio = (value: number, base: number | undefined) => (base ? ` (${(value / base).toFixed(2)}x)` : '');
  const paced = Object.values(results).some((figures) => figures.usCpuPerChunkPaced !== null);
  const perChunk = (value: number, base: number | null | undefined) =>
    `${value.toFixed(1)}${typeof base === 'number' ? ` (${value - base >= 0 ? '+' : ''}${(value - base).toFixed(1)})` : ''}`;
  const lines = [
    `stack            cpu ms/run        main thread ms/run  wall ms/run       requests  µs cpu/chunk (over floor)  ${paced ? `paced, ${PACED_TOKENS_PER_SECOND}/s         ` : ''}alloc MB/run`,
  ];
  for (const [name, figures] of Object.entries(results)) {
    lines.push(
      [
        name.padEnd(16),
        `${figures.cpuMsPerRun.toFixed(2)}${ratio(figures.cpuMsPerRun, floor?.cpuMsPerRun)}`.padEnd(18),
        // Read from Linux's per-thread statistics: elsewhere (and as null in results.json) it is not measured.
        (Number.isFinite(figures.mainThreadCpuMsPerRun)
          ? `${figures.mainThreadCpuMsPerRun.toFixed(2)}${ratio(figures.mainThreadCpuMsPerRun, floor?.mainThreadCpuMsPerRun)}`
          : 'n/a (Linux only)'
        ).padEnd(20),
        `${figures.wallMsPerRun.toFixed(2)}${ratio(figures.wallMsPerRun, floor?.wallMsPerRun)}`.padEnd(18),
        String(figures.requestsPerRun).padEnd(10),
        perChunk(figures.usCpuPerChunk, floor?.usCpuPerChunk).padEnd(27),
        paced ? (figures.usCpuPerChunkPaced === null ? 'n/a' : perChunk(figures.usCpuPerChunkPaced, floor?.usCpuPerChunkPaced)).padEnd(25) : '',
        figures.allocMbPerRun.toFixed(2),
      ].join(''),
    );
  }
  const pairs = Object.entries(results).filter(([, figures]) => figures.cpuRatioToFloor);
  if (pairs.length > 0) {
    const shown = (ratio: RatioSpread | undefined) =>
      ratio && Number.isFinite(ratio.median) ? `${ratio.median.toFixed(2)}x (${ratio.q1.toFixed(2)}-${ratio.q3.toFixed(2)})` : 'n/a';
    lines.push(`over the floor run by run (median of ${pairs[0]![1].cpuRatioToFloor!.pairs} paired runs, and the middle half):`);
    for (const [name, figures] of pairs) {
      lines.push(`${name.padEnd(16)}cpu ${shown(figures.cpuRatioToFloor).padEnd(22)}main thread ${shown(figures.mainThreadRatioToFloor)}`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  console.log(
    `loop: ${(BASELINE ? [...STACKS, BASELINE_STACK] : STACKS).join(', ')}; ${ROUNDS} interleaved rounds of one process per stack, ${RUNS} runs each (after warm-up)` +
      (PACED_RUNS > 0 ? ` and ${PACED_RUNS} with the long replies paced at ${PACED_TOKENS_PER_SECOND} tokens/s` : ''),
  );
  const stackNames = BASELINE ? [...STACKS, BASELINE_STACK] : STACKS;
  const results = await measureLoop(stackNames, ROUNDS, RUNS, WARMUPS, PACED_RUNS, BASELINE);
  console.log(loopTable(results));
  if (BASELINE) {
    const [own, base] = [results['tandem'], results[BASELINE_STACK]];
    if (own?.cpuRatioToFloor && base?.cpuRatioToFloor)
      console.log(`this checkout against ${BASELINE}: cpu ${(own.cpuMsPerRun / base.cpuMsPerRun).toFixed(3)}x, over the floor run by run ${own.cpuRatioToFloor.median.toFixed(3)}x against ${base.cpuRatioToFloor.median.toFixed(3)}x`);
  } else updateResults('loop', results);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
