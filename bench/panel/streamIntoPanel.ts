// One measured run: the scripted server streams a long answer at a fixed
// rate into the Tandem panel of a running code-server, and the probe in the
// webview times each token's arrival in the DOM. Shared by the benchmark and
// the e2e test that checks the text arrives whole and in order.
import { writeFileSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import type { ScriptedModelServer } from '../../test/fixtures/scriptedModelServer';
import { installProbe, panelFigures, readProbe, type PanelFigures } from './panelProbe';
import { markersIn, streamedAnswer } from './streamedAnswer';

export interface StreamRun {
  readonly figures: PanelFigures;
  /** Markers found in the finished answer, in DOM order. */
  readonly markers: readonly number[];
  /** How many markers the answer holds. */
  readonly expectedMarkers: number;
  /** The extension host's CPU from the request to the finished answer, ms (when `hostCpuMs` was given and could be read). */
  readonly hostCpuMs: number | undefined;
  /** From the request to the finished answer, ms. */
  readonly wallMs: number;
}

export async function streamIntoPanel(
  view: Frame,
  server: ScriptedModelServer,
  tokens: number,
  tokensPerSecond: number,
  hostCpuMs?: () => number | undefined,
): Promise<StreamRun> {
  const answer = streamedAnswer(tokens);
  await view.locator('[data-testid="new-chat"]').click();
  await view.locator('[data-testid="step"]').first().waitFor({ state: 'detached', timeout: 10_000 });
  await installProbe(view);
  const served = server.requests.length;
  server.push({ content: answer.content, tokensPerSecond });
  const prompt = view.locator('[data-testid="prompt"]');
  await prompt.fill('Write the long answer.');
  const cpuBefore = hostCpuMs?.();
  const started = performance.now();
  await prompt.press('Enter');
  const seconds = tokens / tokensPerSecond;
  await view.locator('[data-kind="answer"][data-done="true"]').waitFor({ timeout: Math.max(60_000, seconds * 8_000) });
  const wallMs = performance.now() - started;
  const cpuAfter = hostCpuMs?.();
  const reading = await readProbe(view);
  const request = server.requests.slice(served).find((entry) => entry.stream);
  if (!request) throw new Error('the scripted server saw no streamed request');
  // Chunk 0 is the role; token i is chunk i + 1.
  const markerSentAt = answer.markerToken.map((token) => request.chunkSentAt[token + 1]!);
  const markers = markersIn(reading.answerText);
  const inOrder = markers.length === answer.markerToken.length && markers.every((marker, index) => marker === index);
  const dump = process.env['TANDEM_BENCH_PANEL_DUMP'];
  if (dump) writeFileSync(dump, JSON.stringify({ markerSentAt, reading }));
  return {
    figures: panelFigures(reading, markerSentAt, inOrder, answer.markerToken),
    markers,
    expectedMarkers: answer.markerToken.length,
    hostCpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    wallMs,
  };
}
