// `npm run bench` (loop part): the same scripted five-round tool conversation
// run by each stack, one process per stack, stacks interleaved over several
// rounds; each figure is the median over rounds of each process's medians,
// reported beside its ratio to the floor (the raw openai SDK making the same
// requests with no agent logic). The scripted model server runs in its own
// process so its CPU is not counted. Every worker runs one esbuild bundle of
// bench/loop/loopWorker.ts, built as the extension's own host.js is (Tandem
// ships bundled, not through a TypeScript loader); node_modules stay outside
// it, loaded as every stack would load them.
//   TANDEM_BENCH_ROUNDS (default 5), TANDEM_BENCH_RUNS per process (default 7),
//   TANDEM_BENCH_STACKS (comma list; default every stack in loop/stacks.ts),
//   TANDEM_BENCH_PACED_RUNS per process (default 3; 0 skips the paced figure).
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { median, updateResults } from './benchResults';
import { PACED_TOKENS_PER_SECOND } from './loop/conversation';
import { stacks } from './loop/stacks';

const ROUNDS = Number(process.env['TANDEM_BENCH_ROUNDS'] ?? 5);
const RUNS = Number(process.env['TANDEM_BENCH_RUNS'] ?? 7);
const WARMUPS = Number(process.env['TANDEM_BENCH_WARMUPS'] ?? 3);
const PACED_RUNS = Number(process.env['TANDEM_BENCH_PACED_RUNS'] ?? 3);
const STACKS = (process.env['TANDEM_BENCH_STACKS'] ?? Object.keys(stacks).join(',')).split(',').filter(Boolean);
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
   * CPU per run over the floor's, taken round by round (a round's processes
   * run within a minute of each other here, so the machine's slower drift
   * mostly cancels): the median over rounds and its range. Absent for the floor.
   */
  cpuRatioToFloor?: RatioSpread;
  mainThreadRatioToFloor?: RatioSpread;
}

export interface RatioSpread {
  median: number;
  min: number;
  max: number;
}

function spread(values: readonly number[]): RatioSpread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
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
async function bundleWorker(): Promise<string> {
  // Inside the repository, so that the bundle resolves node_modules from it.
  const outfile = path.join(root, 'node_modules', '.cache', 'tandem-bench', 'loopWorker.cjs');
  await build({
    entryPoints: [path.join(root, 'bench', 'loop', 'loopWorker.ts')],
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

function runWorker(worker: string, stack: string, baseUrl: string, runs: number, warmups: number, pacedRuns: number): Promise<LoopFigures> {
  const child = spawn(process.execPath, ['--expose-gc', worker, stack, baseUrl, String(runs), String(warmups), String(pacedRuns)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (errors += data.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as LoopFigures);
      else reject(new Error(`${stack} worker failed (${code}): ${errors.slice(-2000)}`));
    });
  });
}

/** Runs every stack `rounds` times, interleaved; returns the medians per stack. */
export async function measureLoop(stackNames: readonly string[], rounds: number, runs: number, warmups = 3, pacedRuns = 0): Promise<Record<string, LoopFigures>> {
  const worker = await bundleWorker();
  const server = await startServer();
  try {
    const samples = new Map<string, LoopFigures[]>(stackNames.map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const name of stackNames) samples.get(name)!.push(await runWorker(worker, name, server.baseUrl, runs, warmups, pacedRuns));
    }
    const result: Record<string, LoopFigures> = {};
    const floor = samples.get('floor');
    for (const [name, figures] of samples) {
      const paired = (pick: (figure: LoopFigures) => number) => spread(figures.map((figure, round) => pick(figure) / pick(floor![round]!)));
      result[name] = {
        cpuMsPerRun: median(figures.map((figure) => figure.cpuMsPerRun)),
        mainThreadCpuMsPerRun: median(figures.map((figure) => figure.mainThreadCpuMsPerRun)),
        wallMsPerRun: median(figures.map((figure) => figure.wallMsPerRun)),
        requestsPerRun: median(figures.map((figure) => figure.requestsPerRun)),
        usCpuPerChunk: median(figures.map((figure) => figure.usCpuPerChunk)),
        usCpuPerChunkPaced: pacedRuns > 0 ? median(figures.map((figure) => figure.usCpuPerChunkPaced ?? Number.NaN)) : null,
        allocMbPerRun: median(figures.map((figure) => figure.allocMbPerRun)),
        ...(floor && name !== 'floor'
          ? { cpuRatioToFloor: paired((figure) => figure.cpuMsPerRun), mainThreadRatioToFloor: paired((figure) => figure.mainThreadCpuMsPerRun) }
          : {}),
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
    `stack          cpu ms/run        main thread ms/run  wall ms/run       requests  µs cpu/chunk (over floor)  ${paced ? `paced, ${PACED_TOKENS_PER_SECOND}/s         ` : ''}alloc MB/run`,
  ];
  for (const [name, figures] of Object.entries(results)) {
    lines.push(
      [
        name.padEnd(14),
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
      ratio && Number.isFinite(ratio.median) ? `${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})` : 'n/a';
    lines.push('over the floor in the same round (median of the rounds, and their range):');
    for (const [name, figures] of pairs) {
      lines.push(`${name.padEnd(14)}cpu ${shown(figures.cpuRatioToFloor).padEnd(22)}main thread ${shown(figures.mainThreadRatioToFloor)}`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  console.log(
    `loop: ${STACKS.join(', ')}; ${ROUNDS} interleaved rounds of one process per stack, ${RUNS} runs each (after warm-up)` +
      (PACED_RUNS > 0 ? ` and ${PACED_RUNS} with the long replies paced at ${PACED_TOKENS_PER_SECOND} tokens/s` : ''),
  );
  const results = await measureLoop(STACKS, ROUNDS, RUNS, WARMUPS, PACED_RUNS);
  console.log(loopTable(results));
  updateResults('loop', results);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
