// Issue 5 item 6: a conversation survives a VS Code restart (code-server
// stopped and started again on the same user-data folder and workspace).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-restart-'));
const workspace = path.join(scratch, 'workspace');
const userDataDir = path.join(scratch, 'user-data');
fs.mkdirSync(workspace);
let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('the conversation is back after VS Code restarts', { timeout: 240_000 }, async () => {
  server = await startScriptedModelServer({ turns: [{ model: 'solo-model', content: 'Persisted answer.' }] });
  const settings = {
    'tandem.functionCallModel.baseUrl': server.baseUrl,
    'tandem.functionCallModel.model': 'solo-model',
    'tandem.agent.mode': 'chat',
  };
  session = await launchVsCode({ workspace, settings, userDataDir });
  try {
    let view = await session.webview();
    await view.locator('[data-testid="prompt"]').fill('Remember me.');
    await view.locator('[data-testid="send"]').click();
    const answer = view.locator('[data-testid="answer"]');
    await answer.waitFor({ state: 'visible', timeout: 60_000 });
    await view.locator('body[data-running="false"]').waitFor({ timeout: 60_000 });
    assert.equal((await answer.innerText()).trim(), 'Persisted answer.');
    await session.close();
    session = undefined;

    session = await launchVsCode({ workspace, settings, userDataDir });
    view = await session.webview();
    await view.locator('[data-testid="answer"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await view.locator('[data-testid="user-message"]').innerText()).replace(/^You\s*/, '').trim(), 'Remember me.');
    assert.equal((await view.locator('[data-testid="answer"]').innerText()).trim(), 'Persisted answer.');
    assert.equal(await view.locator('[data-kind="answer"]').getAttribute('data-model'), 'answer');
    await session.screenshot('panel-after-restart');
  } catch (error) {
    await session?.screenshot('panel-restart-failure').catch(() => undefined);
    if (session) console.error(session.logs());
    throw error;
  }
});
