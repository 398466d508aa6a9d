// Where a stack's loop CPU goes: runs the benchmark conversation `runs` times
// back to back (their turns queued up front, so no control request falls
// inside the profile) under the V8 profiler, writes the .cpuprofile and prints
// the self time by function and by file. Self-time shares are what to compare
// between stacks; they hold up on a loaded machine where absolute times don't.
//   node --import tsx bench/loop/loopProfile.ts <stack> [runs=30] [words=20] [top=40] [cpu|alloc]
// `words` is the length of each text reply: 20 shows the per-run cost, 2000 the per-chunk cost.
// `alloc` samples allocations instead (bytes allocated per run, by function and file).
// Self time is counted in samples, not summed deltas: on a loaded machine a
// descheduled thread's gap would otherwise land on whichever frame resumes.
// It runs the stacks through tsx (readable names and lines), so absolute times
// run higher than the bench's bundled workers.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startServer } from '../loopBench';
import { turnsForRun } from './conversation';
import { stacks } from './stacks';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  startTime: number;
  endTime: number;
}
interface AllocationNode {
  callFrame: CallFrame;
  selfSize: number;
  children: AllocationNode[];
}

const [stackName = 'tandem', runsText = '30', wordsText = '20', topText = '40', kind = 'cpu'] = process.argv.slice(2);
const stack = stacks[stackName];
if (!stack) throw new Error(`unknown stack ${stackName}; known: ${Object.keys(stacks).join(', ')}`);

async function queueTurns(baseUrl: string, runs: number, words: number): Promise<void> {
  const turns = Array.from({ length: runs }, () => turnsForRun(stack!.replies, words)).flat();
  await fetch(`${baseUrl.replace(/\/v1$/, '')}/__scripted/turns`, { method: 'POST', body: JSON.stringify(turns) });
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*?\/node_modules\//, 'node_modules/').replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/');
}

function fileOf(url: string): string {
  const short = shortUrl(url);
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(short);
  if (pkg) return pkg[1]!;
  if (short.startsWith('node:internal/deps/undici')) return 'undici';
  return short || '(native)';
}

/** Adds `amount` under the frame's function and file. */
function tally(frame: CallFrame, amount: number, byFunction: Map<string, number>, byFile: Map<string, number>): void {
  const fn = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + amount);
  const file = fileOf(frame.url) || frame.functionName;
  byFile.set(file, (byFile.get(file) ?? 0) + amount);
}

async function main(): Promise<void> {
  const runs = Number(runsText);
  const words = Number(wordsText);
  const server = await startServer();
  const session = new Session();
  session.connect();
  try {
    await queueTurns(server.baseUrl, 5, words);
    for (let warm = 0; warm < 5; warm++) await stack!.run(server.baseUrl);
    await queueTurns(server.baseUrl, runs, words);
    const byFunction = new Map<string, number>();
    const byFile = new Map<string, number>();
    let all = 0;
    let unit: string;
    let scale: number;
    const cpu = process.cpuUsage();
    if (kind === 'alloc') {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
      for (let run = 0; run < runs; run++) await stack!.run(server.baseUrl);
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: AllocationNode } };
      const walk = (node: AllocationNode) => {
        all += node.selfSize;
        if (node.selfSize > 0) tally(node.callFrame, node.selfSize, byFunction, byFile);
        node.children.forEach(walk);
      };
      walk(profile.head);
      unit = 'kB per run';
      scale = 1 / 1024 / runs;
    } else {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      for (let run = 0; run < runs; run++) await stack!.run(server.baseUrl);
      const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
      writeFileSync(path.join(tmpdir(), `loop-${stackName}-${words}w-${process.pid}.cpuprofile`), JSON.stringify(profile));
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      for (const id of profile.samples) {
        const frame = byId.get(id)!.callFrame;
        if (frame.functionName === '(idle)') continue;
        all++;
        tally(frame, 1, byFunction, byFile);
      }
      unit = '% of busy samples';
      scale = 100 / all;
    }
    const used = process.cpuUsage(cpu);
    const top = Number(topText);
    const table = (title: string, totals: Map<string, number>) =>
      [title, ...[...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, amount]) => `${(amount * scale).toFixed(1).padStart(9)}  ${key}`)].join('\n');
    console.log(`${stackName}: ${runs} runs, ${words} words per reply; ${((used.user + used.system) / 1000 / runs).toFixed(2)} ms CPU per run (profiler on); total ${(all * scale).toFixed(1)} ${unit}`);
    console.log(table(`by file (${unit})`, byFile));
    console.log(table(`by function (${unit})`, byFunction));
  } finally {
    session.disconnect();
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
