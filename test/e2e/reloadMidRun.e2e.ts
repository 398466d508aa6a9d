// Reliability: the window reloads while an answer is streaming. The reloaded
// panel shows the conversation (the question is there), is not stuck in a
// run, and the next question gets its answer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-reload-'));
let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** After a reload the restored view can take long to resolve on a loaded machine: look for it, clicking its entry if it is not showing. */
async function panelAfterReload(current: VsCodeSession): Promise<Frame> {
  const page = current.page;
  const entry = page.locator('.activitybar .action-item:has(a[aria-label^="Tandem"])').first();
  const deadline = Date.now() + 90_000;
  let lastClick = Date.now();
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame !== page.mainFrame() && (await frame.$('[data-testid="prompt"]').catch(() => null))) return frame;
    }
    if (Date.now() - lastClick > 4000 && (await entry.count()) > 0) {
      if (!((await entry.getAttribute('class')) ?? '').split(/\s+/).includes('checked')) {
        await entry.click();
        await page.mouse.move(700, 450);
      }
      lastClick = Date.now();
    }
    await page.waitForTimeout(250);
  }
  throw new Error('the Tandem panel did not come back after the reload');
}

test('a window reload in the middle of a run leaves the conversation intact and usable', { timeout: 180_000 }, async () => {
  const slow = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
  server = await startScriptedModelServer({
    turns: [
      // 60 words at 150 ms each: about 9 s of streaming, the reload lands in the middle.
      { model: 'solo-model', content: slow, chunkDelayMs: 150 },
      { model: 'solo-model', content: 'Answer after the reload.' },
    ],
  });
  fs.writeFileSync(path.join(workspace, 'notes.md'), 'untouched\n');
  session = await launchVsCode({
    workspace,
    settings: { 'tandem.functionCallModel.baseUrl': server.baseUrl, 'tandem.functionCallModel.model': 'solo-model', 'tandem.agent.mode': 'chat' },
  });
  try {
    let view = await session.webview();
    await view.locator('[data-testid="prompt"]').fill('Tell me a long story.');
    await view.locator('[data-testid="send"]').click();
    // Reload once the answer has started streaming.
    await view.locator('[data-testid="answer"]', { hasText: 'word3' }).waitFor({ timeout: 60_000 });
    await session.reload();

    view = await panelAfterReload(session);
    const question = view.locator('[data-testid="user-message"]', { hasText: 'Tell me a long story.' });
    await question.waitFor({ state: 'visible', timeout: 60_000 });
    // Not stuck: the run ends (finished in the old host or marked as ended) within the stream's length and then some.
    await view.locator('body[data-running="false"]').waitFor({ timeout: 60_000 });

    await view.locator('[data-testid="prompt"]').fill('And now?');
    await view.locator('[data-testid="send"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'Answer after the reload.' }).waitFor({ timeout: 60_000 });
    await view.locator('body[data-running="false"]').waitFor({ timeout: 60_000 });
    assert.equal(await view.locator('[data-testid="user-message"]', { hasText: 'Tell me a long story.' }).count(), 1, 'the first question is still there once');
    assert.equal(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8'), 'untouched\n');
    await session.screenshot('reload-mid-run');
  } catch (error) {
    await session?.screenshot('reload-mid-run-failure').catch(() => undefined);
    if (session) console.error(session.logs());
    throw error;
  }
});
