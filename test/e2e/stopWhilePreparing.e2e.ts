// Stop while a run is still being prepared. The first agent run starts the
// MCP servers, and one that never answers holds the run for up to its start
// timeout (30 s). The panel shows the run from the user's message on, so Stop
// is there at once; it ends the run without waiting, and no model is asked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import { failureReporter, send, waitFor, waitIdle } from './viewSteps';

const fc = 'fc-model';
let server: ScriptedModelServer;
let session: VsCodeSession | undefined;
let scratch: string;
const guarded = failureReporter('stop-while-preparing', () => session);

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-stop-preparing-'));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'notes.md'), '# Notes\n');
  // An MCP server that starts and never answers `initialize`.
  const silent = path.join(scratch, 'silent-mcp-server.js');
  fs.writeFileSync(silent, 'setInterval(() => {}, 1000);\n');
  server = await startScriptedModelServer({ models: [fc] });
  session = await launchVsCode({
    workspace,
    settings: {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': fc,
      'tandem.agent.mode': 'agent',
      'tandem.mcp.servers': { silent: { type: 'stdio', command: process.execPath, args: [silent] } },
    },
  });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('Stop works while the run waits for an MCP server to start, and ends it at once', { timeout: 120_000 }, () =>
  guarded('stop', async () => {
    assert.ok(session);
    const view = await session.webview();
    await send(view, 'Hello?');
    await view.locator('[data-testid="user-message"]', { hasText: 'Hello?' }).waitFor({ timeout: 10_000 });
    // Running from the user's message on, though the loop has not started (no RUN_STARTED yet).
    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'true', 'the panel to show the run', 5_000);
    const stop = view.locator('[data-testid="stop"]:not([disabled])');
    await stop.waitFor({ timeout: 5_000 });
    assert.equal(await view.locator('[data-testid="send"][disabled]').count(), 1, 'Send waits while the run is prepared');
    const stoppedAt = Date.now();
    await stop.click();
    await view.locator('[data-testid="notice"][data-code="cancelled"]').waitFor({ state: 'visible', timeout: 10_000 });
    await waitIdle(view, 10_000);
    const tookMs = Date.now() - stoppedAt;
    assert.ok(tookMs < 10_000, `Stop ended the run after ${tookMs} ms, not after the server's start timeout`);
    assert.equal(server.requests.filter((request) => request.path.endsWith('/chat/completions')).length, 0, 'no model was asked');
    assert.equal(await view.locator('[data-testid="usage-cost"]').innerText(), 'The last run made no model call.');
    await session.screenshot('stop-while-preparing');
  }),
);
