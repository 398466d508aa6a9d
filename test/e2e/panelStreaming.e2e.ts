// Streaming into the panel in a real VS Code: finished Markdown blocks are not
// rebuilt while the answer grows, so a text selection the user made in an
// earlier paragraph survives further streaming, and the text arrives whole
// and in order.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import type { Frame } from 'playwright-core';
import { streamIntoPanel } from '../../bench/panel/streamIntoPanel';
import { markersIn, streamedAnswer } from '../../bench/panel/streamedAnswer';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-streaming-'));
  server = await startScriptedModelServer({ models: ['chat-model'] });
  session = await launchVsCode({
    workspace,
    settings: {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': 'chat-model',
      'tandem.agent.mode': 'chat',
    },
  });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index} says **something** about item ${index} and goes on.`);
const answer = ['# Findings', 'Alpha bravo charlie delta echo foxtrot.', ...paragraphs, '```\ncode at the end\n```'].join('\n\n');

test('a selection in an earlier paragraph survives further streaming; the text arrives whole and in order', { timeout: 180_000 }, async () => {
  try {
    server.push({ content: answer, chunkDelayMs: 25 });
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Tell me everything.');
    await prompt.press('Enter');
    await view.locator('[data-testid="answer"] p', { hasText: 'Paragraph 3 ' }).waitFor({ timeout: 60_000 });

    // Select "bravo charlie" in the first paragraph and tag its node, as a user would while reading.
    const selected = await view.evaluate(() => {
      const paragraph = [...document.querySelectorAll('[data-testid="answer"] p')].find((p) => p.textContent?.startsWith('Alpha'));
      const text = paragraph?.firstChild;
      if (!paragraph || !text) return 'no paragraph';
      (paragraph as unknown as { tagged: boolean }).tagged = true;
      const range = document.createRange();
      range.setStart(text, 6);
      range.setEnd(text, 19);
      const selection = getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    });
    assert.equal(selected, 'bravo charlie');
    const stillStreaming = await view.locator('[data-kind="answer"][data-done="false"]').count();
    assert.equal(stillStreaming, 1, 'the selection was made while the answer was still streaming');

    await view.locator('[data-kind="answer"][data-done="true"]').waitFor({ timeout: 90_000 });
    const after = await view.evaluate(() => {
      const paragraph = [...document.querySelectorAll('[data-testid="answer"] p')].find((p) => p.textContent?.startsWith('Alpha'));
      return {
        selection: getSelection()?.toString() ?? '',
        sameNode: (paragraph as unknown as { tagged?: boolean } | undefined)?.tagged === true,
        paragraphs: [...document.querySelectorAll('[data-testid="answer"] p')].map((p) => p.textContent ?? ''),
        headings: document.querySelectorAll('[data-testid="answer"] h1').length,
        code: document.querySelector('[data-testid="answer"] pre code')?.textContent ?? '',
      };
    });
    assert.equal(after.selection, 'bravo charlie', 'the selection is still there');
    assert.ok(after.sameNode, 'the finished paragraph kept its node');
    assert.deepEqual(after.paragraphs, ['Alpha bravo charlie delta echo foxtrot.', ...paragraphs.map((p) => p.replace(/\*\*/g, ''))]);
    assert.equal(after.headings, 1);
    assert.equal(after.code.trim(), 'code at the end');
  } catch (error) {
    await session.screenshot('panel-streaming-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

// The short form of the "streaming to the screen" benchmark (bench/panelBench.ts):
// 2,000 numbered tokens of mixed Markdown at 2,000 tokens/s; every token shows,
// once, in order. Timing is the benchmark's business, not this test's.
test('2,000 streamed tokens all reach the DOM, in order', { timeout: 120_000 }, async () => {
  try {
    const view = await session.webview();
    const run = await streamIntoPanel(view, server, 2_000, 2_000);
    assert.equal(run.markers.length, run.expectedMarkers, 'every marker is in the answer once');
    assert.ok(run.markers.every((marker, index) => marker === index), 'the markers are in order');
    assert.ok(run.figures.complete);
  } catch (error) {
    await session.screenshot('panel-streaming-order-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

/** Switches the sidebar to the Explorer (the Tandem page is thrown away) and back; returns the new page's frame. */
async function hideAndReopen(view: Frame, whileHidden: () => Promise<void> = async () => undefined): Promise<Frame> {
  await session.page.locator('.activitybar .action-item:has(a[aria-label^="Explorer"])').first().click();
  const deadline = Date.now() + 15_000;
  while (!view.isDetached() && Date.now() < deadline) await session.page.waitForTimeout(100);
  assert.ok(view.isDetached(), 'the hidden view\'s page was disposed');
  await whileHidden();
  return session.webview();
}

async function answerMarkers(view: Frame): Promise<number[][]> {
  const texts = await view.locator('[data-testid="answer"]').allTextContents();
  return texts.map(markersIn);
}

test('a reopened view shows its conversation from its saved state and is sent only what it missed', { timeout: 120_000 }, async () => {
  try {
    let view = await session.webview();
    await view.locator('[data-testid="new-chat"]').click();
    const first = streamedAnswer(300);
    server.push({ content: first.content, tokensPerSecond: 2_000 });
    await view.locator('[data-testid="prompt"]').fill('First question.');
    await view.locator('[data-testid="prompt"]').press('Enter');
    await view.locator('[data-kind="answer"][data-done="true"]').waitFor({ timeout: 30_000 });
    await view.waitForTimeout(600); // the idle snapshot is written after a short pause

    // Nothing happened while hidden: the snapshot is all, the host sends no event.
    view = await hideAndReopen(view);
    assert.ok(Number(await view.locator('body').getAttribute('data-restored-events')) > 0, 'restored from the saved state');
    await view.locator('body[data-resumed-events]').waitFor({ state: 'attached', timeout: 10_000 });
    assert.equal(await view.locator('body').getAttribute('data-resumed-events'), '0');
    assert.deepEqual(await answerMarkers(view), [first.markerToken.map((_, index) => index)]);

    // A run streams on while the view is hidden: the reopened view gets the rest, whole and in order.
    const second = streamedAnswer(500);
    server.push({ content: second.content, tokensPerSecond: 150 });
    await view.locator('[data-testid="prompt"]').fill('Second question.');
    await view.locator('[data-testid="prompt"]').press('Enter');
    await view.locator('[data-kind="answer"][data-done="false"]').waitFor({ timeout: 30_000 });
    const restoredBefore = Number(await view.locator('body').getAttribute('data-restored-events'));
    view = await hideAndReopen(view, async () => {
      const deadline = Date.now() + 30_000;
      while (server.requests.at(-1)?.outcome !== 'completed' && Date.now() < deadline) await session.page.waitForTimeout(200);
    });
    await view.locator('body[data-resumed-events]').waitFor({ state: 'attached', timeout: 10_000 });
    const restored = Number(await view.locator('body').getAttribute('data-restored-events'));
    const resumed = Number(await view.locator('body').getAttribute('data-resumed-events'));
    assert.ok(restored >= restoredBefore && resumed > 0, `restored ${restored}, resumed ${resumed}`);
    await view.locator('[data-kind="answer"][data-done="true"] >> nth=1').waitFor({ timeout: 30_000 });
    assert.deepEqual(await answerMarkers(view), [first.markerToken.map((_, index) => index), second.markerToken.map((_, index) => index)]);
    assert.equal(await view.locator('[data-testid="user-message"]').count(), 2);
  } catch (error) {
    await session.screenshot('panel-reopen-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});
