// `npm run bench` (search part): search_text against running rg directly on
// the same generated 20,000-file tree, with the same flags and the same
// .tandemignore, several alternating runs; prints the median times and the
// ratio. Goal: search_text within 1.3x of rg. With an include, rg is asked
// as a user would ask it: a glob for '*.ts', the folder for 'src/pkg1/**'.
//
// rg: `TANDEM_BENCH_RG` if set, else the first `rg` on PATH (on these
// machines Debian's ripgrep, /usr/bin/rg, the same 13.0.0 VS Code ships).

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EditJournal } from '../src/tools/editJournal';
import { TANDEM_IGNORE_FILE } from '../src/tools/ignoreRules';
import { findOnPath, NodeWorkspaceHost } from '../src/tools/nodeWorkspaceHost';
import { ripgrepArguments } from '../src/tools/ripgrepSearch';
import type { Tool, ToolContext } from '../src/tools/tool';
import { createWorkspaceTools } from '../src/tools/workspaceTools';
import { updateResults } from './benchResults';
import { generateSearchTree, NEEDLE, scratchDirForTree } from './searchTreeGenerator';

const RUNS = Number(process.env['TANDEM_BENCH_RUNS'] ?? 9);
const GOAL = 1.3;

interface Scenario {
  readonly label: string;
  readonly args: { query: string; isRegexp?: boolean; caseSensitive?: boolean; include?: string };
  /** How a user would ask rg for the same include: a glob, or the folder to search (rg then reads the .gitignore above it). */
  readonly rgInclude?: { glob: string } | { folder: string };
}

const DENSE = { query: 'lazy dog 1\\d{4}$', isRegexp: true, caseSensitive: true };
const scenarios: Scenario[] = [
  { label: `literal "${NEEDLE}" (sparse, ~3k lines)`, args: { query: NEEDLE } },
  { label: 'regex "lazy dog 1\\d{4}$" (~50k lines)', args: DENSE },
  { label: 'the same regex, include "*.ts" (~17k of them)', args: { ...DENSE, include: '*.ts' }, rgInclude: { glob: '*.ts' } },
  { label: 'the same regex, include "src/pkg1/**" (a 20th)', args: { ...DENSE, include: 'src/pkg1/**' }, rgInclude: { folder: 'src/pkg1' } },
];

/** rg as a user would run it: same flags, stdout read to the end and discarded. */
function runRgDirectly(rg: string, root: string, scenario: Scenario): Promise<number> {
  const args = ripgrepArguments({
    pattern: scenario.args.query,
    isRegexp: scenario.args.isRegexp ?? false,
    caseSensitive: scenario.args.caseSensitive ?? false,
    include: [],
    exclude: [],
    maxHits: 0,
  });
  const include = scenario.rgInclude;
  if (include !== undefined && 'glob' in include) args.push(`--glob=${include.glob}`);
  // Searching a folder, rg reads the .gitignore files above it unless told not to.
  const ownArgs = include !== undefined && 'folder' in include ? args.filter((arg) => arg !== '--no-ignore-parent') : args;
  ownArgs.push(`--ignore-file=${path.join(root, TANDEM_IGNORE_FILE)}`, '--regexp', scenario.args.query, '--', include !== undefined && 'folder' in include ? `./${include.folder}` : '.');
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ownArgs, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
    });
    child.on('error', reject);
    child.on('close', () => resolve(lines));
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function time<T>(action: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await action();
  return { ms: performance.now() - started, value };
}

async function main(): Promise<void> {
  const rg = process.env['TANDEM_BENCH_RG'] ?? findOnPath('rg');
  if (rg === undefined) {
    console.log('search bench: no rg on PATH (install ripgrep, or set TANDEM_BENCH_RG); skipped.');
    return;
  }
  const root = scratchDirForTree('tandem-search-bench-');
  try {
    const facts = generateSearchTree(root);
    console.log(`search bench: ${facts.files} searchable files (+ ignored ones) in ${root}; rg = ${rg}; ${RUNS} runs each, alternating`);
    const host = new NodeWorkspaceHost({ folders: [root], ripgrep: rg });
    const tools = createWorkspaceTools(host, new EditJournal(host));
    const searchText = tools.find((tool) => tool.name === 'search_text') as Tool;
    const context: ToolContext = { runId: 'bench', callId: 'bench', signal: new AbortController().signal, approval: { request: async () => false } };
    // The goal is read on the searches without an include; those with one are reported beside it.
    let worst = 0;
    let worstWithInclude = 0;
    for (const scenario of scenarios) {
      // Warm the file cache and both code paths once.
      const warmTool = await searchText.run(scenario.args, context);
      const warmRg = await runRgDirectly(rg, root, scenario);
      const toolTotal = warmTool.summary?.kind === 'search' ? warmTool.summary.total : -1;
      if (toolTotal !== warmRg) throw new Error(`${scenario.label}: search_text counted ${toolTotal}, rg printed ${warmRg} lines`);
      const toolTimes: number[] = [];
      const rgTimes: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        rgTimes.push((await time(() => runRgDirectly(rg, root, scenario))).ms);
        toolTimes.push((await time(() => searchText.run(scenario.args, context))).ms);
      }
      const ratio = median(toolTimes) / median(rgTimes);
      if (scenario.rgInclude === undefined) worst = Math.max(worst, ratio);
      else worstWithInclude = Math.max(worstWithInclude, ratio);
      console.log(
        `  ${scenario.label}: ${toolTotal} hits; rg median ${median(rgTimes).toFixed(1)} ms, search_text median ${median(toolTimes).toFixed(1)} ms, ratio ${ratio.toFixed(2)}x`,
      );
    }
    const fallbackHost = new NodeWorkspaceHost({ folders: [root] });
    const fallback = createWorkspaceTools(fallbackHost, new EditJournal(fallbackHost)).find((tool) => tool.name === 'search_text') as Tool;
    const fallbackTime = await time(() => fallback.run(scenarios[0]!.args, context));
    console.log(`  (JavaScript fallback, no rg: ${fallbackTime.ms.toFixed(0)} ms for the first scenario)`);
    console.log(`search_text vs rg: worst ratio ${worst.toFixed(2)}x; goal <= ${GOAL}x: ${worst <= GOAL ? 'met' : 'NOT met'}; with an include ${worstWithInclude.toFixed(2)}x`);
    updateResults('search', { ratioToRg: worst, ratioToRgWithInclude: worstWithInclude });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
