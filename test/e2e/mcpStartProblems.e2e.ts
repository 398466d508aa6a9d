// MCP servers that are slow or fail to start, as a run meets them in a real
// VS Code: the conversation says what the run waits for and which server did
// not start (with the line of its output that says why, not npx's pointer to
// its log), with a button to Show MCP Servers; the next run does not wait on
// the failed server again, nor repeat the failure.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, send, waitFor, waitIdle } from './viewSteps';

const slowServer = path.resolve('test/fixtures/mcp/slowStartServer.mjs');
const npmNotFound = [
  'npm error code E404',
  'npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fserver-missing - Not found',
  'npm error 404',
  'npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log',
];

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'mcp-start',
    files: { 'notes.md': '# Notes\n' },
    settings: {
      'tandem.mcp.servers': {
        slow: { type: 'stdio', command: process.execPath, args: [slowServer, '2500'] },
        broken: { type: 'stdio', command: process.execPath, args: ['-e', `for (const line of ${JSON.stringify(npmNotFound)}) console.error(line); process.exit(1)`] },
      },
    },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const guarded = failureReporter('mcp-start-problems', () => session);

const noticeTexts = async (view: Awaited<ReturnType<VsCodeSession['webview']>>, code: string) =>
  view.locator(`[data-testid="notice"][data-code="${code}"]`).evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));

test('a run says what it waits for and which server did not start; the next run neither waits nor repeats it', { timeout: 120_000 }, () =>
  guarded('start', async () => {
    const view = await session.webview();
    server.push({ model: fc, content: 'Nothing to look up.' }, { model: answerModel, content: 'First answer.' });
    await send(view, 'Hello?');
    await waitIdle(view);
    const waiting = await noticeTexts(view, 'mcpStarting');
    assert.equal(waiting.length, 1, `one waiting notice: ${waiting.join(' | ')}`);
    // It names "slow"; on a slow machine "broken" may not have failed yet either, and is named with it.
    assert.match(waiting[0] ?? '', /Waiting for MCP servers? (?:"broken", )?"slow"(?:, "broken")? to start/);
    const failed = await noticeTexts(view, 'mcpFailed');
    assert.equal(failed.length, 1);
    assert.match(failed[0] ?? '', /An MCP server did not start\. "broken": The server closed the connection during the MCP handshake; its output: npm error 404 Not Found - GET https:\/\/registry\.npmjs\.org\/@example%2fserver-missing/);
    assert.doesNotMatch(failed[0] ?? '', /complete log/);
    const action = view.locator('[data-testid="notice"][data-code="mcpFailed"] [data-testid="notice-action"]');
    assert.equal(await action.innerText(), 'Show MCP Servers');
    // The run waited for the slow server: its tools were offered.
    const offered = (server.requests.find((request) => request.model === fc)?.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
    assert.ok(offered.includes('slow__echo'), `slow's tools offered: ${offered.join(', ')}`);
    await session.screenshot('mcp-start-problems');

    // The Show MCP Servers button opens the list with the failure.
    await action.click();
    const rows = session.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'broken' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await session.page.keyboard.press('Escape');

    // So does the MCP status line, while a server is in error.
    await view.locator('[data-testid="mcp-manage"]').click();
    await rows.filter({ hasText: 'broken' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await session.page.keyboard.press('Escape');

    // The next run: broken is retried without waiting, and nothing new is said.
    const before = server.requests.length;
    server.push({ model: fc, content: 'Still nothing.' }, { model: answerModel, content: 'Second answer.' });
    await send(view, 'And now?');
    await waitFor(() => server.requests.length > before, 'the second run to call its model', 10_000);
    await waitIdle(view);
    assert.equal((await noticeTexts(view, 'mcpStarting')).length, 1);
    assert.equal((await noticeTexts(view, 'mcpFailed')).length, 1);
  }),
);
