// After a reload, the panel reopens the conversation it showed, not the one
// another window on the same workspace used last (the index's "current
// conversation" is one value shared by the windows; here the other window's
// write is made to the index file directly).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import { failureReporter, panelAfterReload, send, waitFor, waitIdle } from './viewSteps';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-own-conversation-'));
let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;
const guarded = failureReporter('reload-own-conversation', () => session);

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function ask(view: Frame, question: string): Promise<void> {
  server!.push({ content: `Answer to: ${question}` });
  await send(view, question);
  await view.locator('[data-testid="answer"]', { hasText: `Answer to: ${question}` }).waitFor({ timeout: 60_000 });
  await waitIdle(view);
}

/** The History index of the workspace's conversations, under the user data folder. */
function indexFile(userDataDir: string): string {
  const found = fs.readdirSync(path.join(userDataDir, 'User', 'globalStorage'), { recursive: true, encoding: 'utf8' }).find((name) => /conversations[\\/][^\\/]+[\\/]index\.json$/.test(name));
  assert.ok(found, 'the History index exists');
  return path.join(userDataDir, 'User', 'globalStorage', found);
}

test("a reloaded panel shows the conversation it showed, not another window's last", { timeout: 240_000 }, () =>
  guarded('reload', async () => {
    server = await startScriptedModelServer({ models: ['chat-model'] });
    session = await launchVsCode({
      workspace,
      settings: { 'tandem.functionCallModel.baseUrl': server.baseUrl, 'tandem.functionCallModel.model': 'chat-model', 'tandem.agent.mode': 'chat' },
    });
    let view = await session.webview();
    await ask(view, 'Mine, shown in this window');
    await view.locator('[data-testid="new-chat"]').click();
    await waitFor(async () => (await view.locator('[data-testid="user-message"]').count()) === 0, 'an empty conversation');
    await ask(view, 'Used last in the other window');
    // Back to the first one, from History.
    await view.locator('[data-testid="history-toggle"]').click();
    await view.locator('[data-testid="history"] button.link', { hasText: 'Mine, shown in this window' }).click();
    await view.locator('[data-testid="user-message"]', { hasText: 'Mine, shown in this window' }).waitFor({ timeout: 30_000 });
    const mine = await view.locator('body').getAttribute('data-conversation');

    // The other window uses the second one last.
    const index = indexFile(session.userDataDir);
    await waitFor(() => JSON.parse(fs.readFileSync(index, 'utf8'))['tandem.currentConversation'] === mine, 'this window to note its conversation');
    const values = JSON.parse(fs.readFileSync(index, 'utf8'));
    const theirs = values['tandem.conversations'].find((entry: { title: string }) => entry.title === 'Used last in the other window').id;
    fs.writeFileSync(index, JSON.stringify({ ...values, 'tandem.currentConversation': theirs }));
    // The page keeps what it shows once idle for a moment.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Reload Window, as a person does: the workbench saves its views' state (this page's included) on the way.
    const page = session.page;
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), session.runCommand('workbench.action.reloadWindow', 'Developer: Reload Window')]);
    await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    view = await panelAfterReload(session);
    // The host's answer to `ready` names the conversation it opened.
    await waitFor(async () => (await view.locator('body').getAttribute('data-conversation')) !== null, "the host's conversation", 90_000);
    assert.ok(Number(await view.locator('body').getAttribute('data-restored-events')) > 0, "the page's state came back (it names what it showed)");
    assert.equal(await view.locator('body').getAttribute('data-conversation'), mine);
    await view.locator('[data-testid="user-message"]', { hasText: 'Mine, shown in this window' }).waitFor({ timeout: 30_000 });
    assert.equal(await view.locator('[data-testid="user-message"]', { hasText: 'Used last in the other window' }).count(), 0);
    await session.screenshot('reload-own-conversation');
  }),
);
