// `npm run bench` (panel part): streaming to the screen. The scripted server
// streams a 20,000-token Markdown answer at 2,000 tokens/s into the Tandem
// panel of code-server in headless Chromium; a probe in the webview times
// each token's arrival in the DOM. One warm-up, then RUNS runs in the same
// window (New Chat between them); each figure is the median over runs.
// Beside it, the extension host's CPU per streamed token (Linux): the model
// client, the loop and the panel's transport together, less the host's idle
// CPU over the same time (measured once before the runs).
//   TANDEM_BENCH_PANEL_TOKENS (default 20000), TANDEM_BENCH_PANEL_RATE
//   (tokens/s, default 2000), TANDEM_BENCH_PANEL_RUNS (default 5: a run that
//   meets one of the machine's stalls of a few hundred ms has its p99 doubled,
//   and the median of five holds against two such runs, of three against one),
//   TANDEM_BENCH_PANEL_EXTENSION (another built Tandem folder, e.g. an older
//   version to compare with; its figures are not written to results.json),
//   TANDEM_BENCH_PANEL_DUMP (a file: the last run's raw timings, as JSON).
// Needs `npm run build` and code-server (`npm run setup:vscode`).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedModelServer } from '../test/fixtures/scriptedModelServer';
import { launchVsCode } from '../test/e2e/harness';
import { median, updateResults } from './benchResults';
import type { PanelFigures } from './panel/panelProbe';
import { streamIntoPanel } from './panel/streamIntoPanel';
import { findExtensionHost, processCpuMs } from './panel/extensionHostCpu';

const TOKENS = Number(process.env['TANDEM_BENCH_PANEL_TOKENS'] ?? 20_000);
const RATE = Number(process.env['TANDEM_BENCH_PANEL_RATE'] ?? 2_000);
const RUNS = Number(process.env['TANDEM_BENCH_PANEL_RUNS'] ?? 5);
const EXTENSION = process.env['TANDEM_BENCH_PANEL_EXTENSION'];
/** How long the extension host's idle CPU is read before the runs. */
const IDLE_MS = 5_000;

async function main(): Promise<void> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-panel-'));
  const server = await startScriptedModelServer({ models: ['stream-model'] });
  const session = await launchVsCode({
    workspace,
    settings: {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': 'stream-model',
      'tandem.agent.mode': 'chat',
    },
    ...(EXTENSION ? { extensionDir: path.resolve(EXTENSION) } : {}),
  });
  const runs: PanelFigures[] = [];
  const hostUsPerToken: number[] = [];
  let idleMsPerSecond = Number.NaN;
  try {
    const view = await session.webview();
    await streamIntoPanel(view, server, Math.min(TOKENS, 2_000), RATE); // warm-up
    const host = findExtensionHost();
    const hostCpu = host === undefined ? undefined : () => processCpuMs(host);
    const idleBefore = hostCpu?.();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleAfter = hostCpu?.();
    if (idleBefore !== undefined && idleAfter !== undefined) idleMsPerSecond = ((idleAfter - idleBefore) * 1000) / IDLE_MS;
    for (let run = 0; run < RUNS; run++) {
      const result = await streamIntoPanel(view, server, TOKENS, RATE, hostCpu);
      const usPerToken = result.hostCpuMs === undefined ? Number.NaN : ((result.hostCpuMs - (idleMsPerSecond * result.wallMs) / 1000) * 1000) / TOKENS;
      hostUsPerToken.push(usPerToken);
      console.log(`run ${run + 1}/${RUNS}: ${JSON.stringify({ ...result.figures, hostCpuMs: result.hostCpuMs, hostUsPerToken: Number(usPerToken.toFixed(1)) })}`);
      runs.push(result.figures);
    }
  } catch (error) {
    console.error(session.logs().slice(-5000));
    throw error;
  } finally {
    await session.close();
    await server.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  const figure = (key: Exclude<keyof PanelFigures, 'complete'>) => median(runs.map((run) => run[key]));
  const panel = {
    tokenToDomP50Ms: figure('tokenToDomP50Ms'),
    tokenToDomP99Ms: figure('tokenToDomP99Ms'),
    tokensPerSecond: figure('tokensPerSecond'),
    complete: runs.every((run) => run.complete),
    firstTenthP99Ms: figure('firstTenthP99Ms'),
    lastTenthP99Ms: figure('lastTenthP99Ms'),
    longTasks: figure('longTasks'),
    longestTaskMs: figure('longestTaskMs'),
    hostCpuUsPerToken: Number(median(hostUsPerToken).toFixed(1)),
    hostIdleCpuMsPerSecond: Number(idleMsPerSecond.toFixed(2)),
    tokens: TOKENS,
    sentTokensPerSecond: RATE,
    runs: RUNS,
  };
  if (!EXTENSION) updateResults('panel', panel);
  console.log(`\nstreaming to the screen: ${TOKENS} tokens at ${RATE}/s, median of ${RUNS} runs`);
  console.table({
    'token to DOM p50 (ms)': panel.tokenToDomP50Ms,
    'token to DOM p99 (ms)': panel.tokenToDomP99Ms,
    'p99, first tenth (ms)': panel.firstTenthP99Ms,
    'p99, last tenth (ms)': panel.lastTenthP99Ms,
    'tokens/s shown': panel.tokensPerSecond,
    'long tasks > 50 ms': panel.longTasks,
    'longest task (ms)': panel.longestTaskMs,
    'complete, in order': panel.complete,
    'extension host CPU per token (µs)': panel.hostCpuUsPerToken,
  });
  console.log(`  extension host CPU per token: model client, loop and panel transport, less its idle CPU (${panel.hostIdleCpuMsPerSecond} ms/s); DESIGN.md's budget: 30 µs`);
  if (!panel.complete) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
