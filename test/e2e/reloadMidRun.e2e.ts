// Reliability: the window reloads while an answer is streaming. The reloaded
// panel shows the conversation (the question and the answer as far as it
// came), says the run was cut off, is not stuck in a run, and the next
// question gets its answer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import { panelAfterReload } from './viewSteps';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-reload-'));
let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

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
    // Reload in the middle of the answer. Saves come every 1.5 s during a run; what arrived since the last
    // one is stored as the window goes (deactivate), so all that was shown is kept.
    await view.locator('[data-testid="answer"]', { hasText: 'word16' }).waitFor({ timeout: 60_000 });
    await session.reload();

    view = await panelAfterReload(session);
    const question = view.locator('[data-testid="user-message"]', { hasText: 'Tell me a long story.' });
    await question.waitFor({ state: 'visible', timeout: 60_000 });
    // Not stuck: the run ends (finished in the old host or marked as ended) within the stream's length and then some.
    await view.locator('body[data-running="false"]').waitFor({ timeout: 60_000 });
    // What had arrived is still there, and the run says why it stopped.
    const kept = await view.locator('[data-testid="answer"]').first().innerText();
    assert.match(kept, /^word0 word1 word2 word3 word4 word5 .*\bword16\b/u, kept);
    const interrupted = view.locator('[data-kind="error"][data-code="INTERRUPTED"]');
    await interrupted.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await interrupted.innerText(), /did not finish here: the window running it was reloaded or closed/u);

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
