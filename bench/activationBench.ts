// `npm run bench` (activation part): Tandem's activation time as VS Code
// itself reports it — the "Activation: N ms" of Developer: Show Running
// Extensions, which is VS Code's code-loading time plus the activate() call
// (not the promise activate() returns; the hover says what activated it) — in
// code-server, over several fresh extension hosts (each window reload starts
// one); the median is reported. Each sample is taken apart from what Tandem
// logs in that extension host (src/host/activationTiming.ts): the modules the
// extension host required back to back right before Tandem's (for an
// onStartupFinished extension: the builtins of the same pass, which VS Code
// times as part of Tandem's code loading) and Tandem's own share (its module's
// evaluation + activate()). Also the sizes of the built bundles. Needs `npm run build` (the `bench` script builds first).
//   TANDEM_BENCH_ACTIVATIONS (default 5): how many extension hosts to sample.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchVsCode, type VsCodeSession } from '../test/e2e/harness';
import { parseCodeLoading, parseOwnActivation } from '../src/host/activationTiming';
import { median, updateResults } from './benchResults';

const SAMPLES = Number(process.env['TANDEM_BENCH_ACTIVATIONS'] ?? 5);
const root = path.resolve(__dirname, '..');

export interface ActivationFigures {
  /** Median of VS Code's reported activation time, ms. */
  ms: number;
  samplesMs: number[];
  /** Median of Tandem's own share (its module's evaluation + activate()), ms, as Tandem logs it. */
  ownMs: number;
  ownSamplesMs: number[];
  /** Median of the modules required back to back right before Tandem's (the rest of its pass), ms. */
  loadedBeforeMs: number;
  /** Each sample taken apart from what Tandem logged in that extension host (NaN where nothing was logged). */
  breakdown: SampleBreakdown[];
  /** VS Code's hover text of the last sample (what activated it). */
  reportedAs: string;
  /** dist/*.js sizes in bytes; extension.js is what activation loads, host.js loads right after. */
  bundleBytes: Record<string, number>;
}

/** One sample of VS Code's figure, taken apart; all ms. */
export interface SampleBreakdown {
  reportedMs: number;
  /** Modules the extension host required back to back right before Tandem's. */
  loadedBeforeMs: number;
  /** Tandem's require(): reading, compiling and evaluating dist/extension.js. */
  ownRequireMs: number;
  /** Tandem's activate() call. */
  activateMs: number;
  /** The rest: the extension host's own work between the start of Tandem's code loading and the first require(), and rounding. */
  restMs: number;
}

export function bundleSizes(): Record<string, number> {
  const dist = path.join(root, 'dist');
  const sizes: Record<string, number> = {};
  for (const name of fs.readdirSync(dist).filter((file) => file.endsWith('.js')).sort()) {
    sizes[name] = fs.statSync(path.join(dist, name)).size;
  }
  return sizes;
}

/** Reads Tandem's row of the Running Extensions editor: its "Activation: N ms" and the hover behind it. */
async function reportedActivation(session: VsCodeSession): Promise<{ ms: number; hover: string }> {
  // Tandem activates on startup finished: until then its row is missing or has no time yet, so ask again.
  const row = session.page.locator('.runtime-extensions-editor .monaco-list-row', { has: session.page.locator('.name', { hasText: /^Tandem$/ }) }).first();
  const time = row.locator('.activation-time');
  const deadline = Date.now() + 90_000;
  let text = '';
  while (!/\d\s*ms/.test(text)) {
    if (Date.now() > deadline) throw new Error(`Running Extensions showed no activation time for Tandem within 90 s (last: "${text}")`);
    await session.runCommand('workbench.action.showRuntimeExtensions', 'Developer: Show Running Extensions');
    text = (await time.waitFor({ state: 'visible', timeout: 5_000 }).then(() => time.textContent()).catch(() => '')) ?? '';
  }
  const match = /([\d.]+)\s*ms/.exec(text);
  if (!match) throw new Error(`no activation time in "${text}"`);
  await time.hover();
  const hover = session.page.locator('.workbench-hover, .monaco-hover').first();
  const hoverText = (await hover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => hover.innerText()).catch(() => '')).trim();
  await session.page.keyboard.press('Escape');
  return { ms: Number(match[1]), hover: `${text.trim()}${hoverText ? ` — ${hoverText.replace(/\s+/g, ' ')}` : ''}` };
}

/** Samples activation in `session`'s window, reloading it between samples (each reload starts a new extension host). */
export async function measureActivation(session: VsCodeSession, samples: number): Promise<ActivationFigures> {
  const samplesMs: number[] = [];
  let reportedAs = '';
  for (let sample = 0; sample < samples; sample++) {
    if (sample > 0) {
      // No editor restored into the next window: it starts as the first one did.
      await session.runCommand('workbench.action.closeAllEditors', 'View: Close All Editors');
      await session.reload();
    }
    const reported = await reportedActivation(session);
    samplesMs.push(reported.ms);
    reportedAs = reported.hover;
  }
  // Each extension host logs once, to its own log file, in sample order.
  const hostLogs = tandemLogsByHost(session.logs());
  const breakdown = samplesMs.map((reportedMs, index): SampleBreakdown => {
    const own = parseOwnActivation(hostLogs[index] ?? '')[0];
    const loading = parseCodeLoading(hostLogs[index] ?? '')[0];
    const loadedBeforeMs = loading?.beforeMs ?? NaN;
    const ownRequireMs = loading?.ownRequireMs ?? NaN;
    const activateMs = own?.activateMs ?? NaN;
    return { reportedMs, loadedBeforeMs, ownRequireMs, activateMs, restMs: reportedMs - loadedBeforeMs - ownRequireMs - activateMs };
  });
  const ownSamplesMs = hostLogs.map((text) => parseOwnActivation(text)[0]?.ownMs ?? NaN);
  return {
    ms: median(samplesMs),
    samplesMs,
    ownMs: medianOf(ownSamplesMs),
    ownSamplesMs,
    loadedBeforeMs: medianOf(breakdown.map((sample) => sample.loadedBeforeMs)),
    breakdown,
    reportedAs,
    bundleBytes: bundleSizes(),
  };
}

function medianOf(values: number[]): number {
  const known = values.filter((value) => Number.isFinite(value));
  return known.length ? median(known) : NaN;
}

/** Tandem's output-channel log of each extension host, ordered by the host's number (exthost1, exthost2, …, exthost10). */
export function tandemLogsByHost(logs: string): string[] {
  const sections = [...logs.matchAll(/^--- [^\n]*?exthost(\d+)\/tandem-dev\.tandem\/Tandem\.log\n([\s\S]*?)(?=^--- |^=== |(?![\s\S]))/gm)];
  return sections.sort((left, right) => Number(left[1]) - Number(right[1])).map((section) => section[2] ?? '');
}

/** One code-server window for `body`, closed afterwards; its logs are printed when `body` fails. */
export async function withVsCode<T>(body: (session: VsCodeSession) => Promise<T>): Promise<T> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-vscode-'));
  const session = await launchVsCode({ workspace });
  try {
    return await body(session);
  } catch (error) {
    console.error(session.logs());
    throw error;
  } finally {
    await session.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

export function printActivation(figures: ActivationFigures): void {
  const format = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '?');
  console.log(`activation ${figures.ms} ms (median of ${figures.samplesMs.join(', ')}; goal < 25 ms) — ${figures.reportedAs}`);
  console.log(`  modules required right before Tandem's in the same pass: median ${format(figures.loadedBeforeMs)} ms; Tandem's own share (module + activate()): median ${format(figures.ownMs)} ms`);
  console.log('  each sample: VS Code = required before Tandem + Tandem\'s require() + activate() + rest (ms)');
  for (const sample of figures.breakdown) {
    console.log(`    ${String(sample.reportedMs).padStart(5)} = ${format(sample.loadedBeforeMs).padStart(6)} + ${format(sample.ownRequireMs).padStart(5)} + ${format(sample.activateMs).padStart(5)} + ${format(sample.restMs).padStart(5)}`);
  }
  for (const [name, bytes] of Object.entries(figures.bundleBytes)) console.log(`  dist/${name.padEnd(14)} ${(bytes / 1024).toFixed(1).padStart(8)} KiB`);
}

async function main(): Promise<void> {
  console.log(`activation: ${SAMPLES} extension hosts in code-server, as Developer: Show Running Extensions reports it`);
  const figures = await withVsCode((session) => measureActivation(session, SAMPLES));
  printActivation(figures);
  updateResults('activation', figures);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
