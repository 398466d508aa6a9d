// run_command and rules files in a real VS Code (code-server + headless
// Chromium) against the scripted model server: the card asks with the exact
// command and folder; "Always allow commands starting with echo" lets the next
// echo run unasked; `false`'s exit code reaches the model; a chain with an
// uncovered part asks again and, rejected, does not run. The workspace's
// AGENTS.md text reaches both models' system prompts. fetch_url asks with the
// URL, and "Always allow fetching from <origin>" lets the next page of that
// site come unasked. One code-server session.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { panelAfterReload, waitFor, waitIdle } from './viewSteps';

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'command',
    files: { 'AGENTS.md': 'Run the tests before answering. AGENTS-MARKER-7731\n' },
    settings: { 'tandem.tools.autoApprove': 'readOnly' },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

async function pendingCard(view: Frame, seen: Set<string>, tool = 'run_command'): Promise<Locator> {
  let id: string | undefined;
  await waitFor(async () => {
    const ids = await view
      .locator('[data-testid="approval"][data-status="pending"]')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['approvalId'] ?? ''));
    id = ids.find((candidate) => candidate !== '' && !seen.has(candidate));
    return id !== undefined;
  }, 'a pending approval card');
  seen.add(id!);
  const card = view.locator(`[data-testid="approval"][data-approval-id="${id!}"]`);
  assert.equal(await card.getAttribute('data-tool'), tool);
  return card;
}

function toolMessages(): string[] {
  return server.requests.flatMap((request) =>
    (request.body?.messages ?? []).filter((message: { role: string }) => message.role === 'tool').map((message: { content: unknown }) => String(message.content)),
  );
}

test('run_command asks, remembers a prefix, reports exit codes, asks for a chain; AGENTS.md reaches both models', { timeout: 120_000 }, async () => {
  try {
    server.push(
      { model: fc, toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo hello-e2e' } }] },
      { model: fc, toolCalls: [{ id: 'c2', name: 'run_command', arguments: { command: 'echo unasked-e2e' } }] },
      { model: fc, toolCalls: [{ id: 'c3', name: 'run_command', arguments: { command: 'false' } }] },
      { model: fc, toolCalls: [{ id: 'c4', name: 'run_command', arguments: { command: 'echo chained && touch made.txt' } }] },
      { model: fc, content: 'Done.' },
      { model: answerModel, content: 'Ran the commands.' },
    );
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Run some commands.');
    await prompt.press('Enter');

    const seen = new Set<string>();
    const first = await pendingCard(view, seen);
    const summary = await first.locator('[data-testid="approval-summary"]').innerText();
    assert.ok(summary.includes('echo hello-e2e') && summary.includes(path.basename(workspace)), summary);
    assert.equal(await first.locator('[data-testid="approve-always"]').innerText(), 'Always allow commands starting with echo');
    await first.locator('[data-testid="approve-always"]').click();

    const failing = await pendingCard(view, seen); // `false`: echo is allowed, false is not
    assert.match(await failing.locator('[data-testid="approval-summary"]').innerText(), /`false`/);
    await failing.locator('[data-testid="approve"]').click();

    const chained = await pendingCard(view, seen);
    assert.match(await chained.locator('[data-testid="approval-summary"]').innerText(), /echo chained && touch made\.txt/);
    await chained.locator('[data-testid="reject"]').click();

    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'false', 'the run to end', 60_000);
    assert.equal(await view.locator('[data-testid="approval"]').count(), 3, 'the second echo ran unasked');
    assert.equal(fs.existsSync(path.join(workspace, 'made.txt')), false, 'the rejected chain did not run');
    const results = toolMessages();
    assert.ok(results.some((text) => /exit code 0/.test(text) && text.includes('hello-e2e')), results.join('\n---\n'));
    assert.ok(results.some((text) => /exit code 0/.test(text) && text.includes('unasked-e2e')), results.join('\n---\n'));
    assert.ok(results.some((text) => text.startsWith('$ false') && /exit code 1/.test(text)), results.join('\n---\n'));
    const settings = JSON.parse(fs.readFileSync(path.join(session.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(settings['tandem.tools.alwaysAllow'], ['run_command:echo']);

    for (const model of [fc, answerModel]) {
      const requests = server.requests.filter((request) => request.body?.model === model);
      assert.ok(requests.length > 0, model);
      for (const request of requests) {
        const system = request.body.messages.find((message: { role: string }) => message.role === 'system');
        assert.match(String(system?.content), /AGENTS-MARKER-7731/, `${model}'s system prompt holds AGENTS.md`);
      }
    }
    const notices = await view.locator('[data-testid="notice"]').allInnerTexts();
    assert.ok(notices.some((text) => text.includes('Rules: AGENTS.md')), notices.join(' | '));
  } catch (error) {
    await session.screenshot('run-command-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('a job left in the background is noted; a window reload ends it and a command still running in the Tandem terminal', { timeout: 150_000 }, async () => {
  try {
    // The command writes its own process id, then waits far longer than the test.
    fs.writeFileSync(path.join(workspace, 'hold.sh'), 'echo $$ > hold.pid\nexec sleep 300\n');
    const pidFile = path.join(workspace, 'hold.pid');
    const backgroundPidFile = path.join(workspace, 'background.pid');
    server.push(
      { model: fc, toolCalls: [{ id: 'b1', name: 'run_command', arguments: { command: 'sleep 290 & echo $! > background.pid' } }] },
      { model: fc, toolCalls: [{ id: 'h1', name: 'run_command', arguments: { command: 'sh hold.sh', timeoutSeconds: 280 } }] },
    );
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Start the long commands.');
    await prompt.press('Enter');
    const seen = new Set(await view.locator('[data-testid="approval"]').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['approvalId'] ?? '')));
    await (await pendingCard(view, seen)).locator('[data-testid="approve"]').click();
    await (await pendingCard(view, seen)).locator('[data-testid="approve"]').click();
    const background = toolMessages().find((text) => text.startsWith('$ sleep 290 &'));
    assert.match(background ?? '', /\[A process the command started is still running in the background in the Tandem terminal;/u, background);
    await waitFor(async () => fs.existsSync(pidFile) && /^\d+\s*$/.test(fs.readFileSync(pidFile, 'utf8')), 'the command to start', 60_000);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    const backgroundPid = Number(fs.readFileSync(backgroundPidFile, 'utf8'));
    const alive = (id: number) => {
      try {
        process.kill(id, 0);
        return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${id}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    assert.equal(alive(pid), true, 'running before the reload');
    assert.equal(alive(backgroundPid), true, 'the background job too');
    await session.reload();
    const reloaded = await panelAfterReload(session);
    await waitFor(async () => !alive(pid) && !alive(backgroundPid), 'the command and the job to be ended with the window they ran for', 30_000);
    // The window stored the run as it stood when it went (both approvals given), not as of its last save.
    await waitFor(async () => (await reloaded.locator('body').getAttribute('data-conversation')) !== null, "the host's conversation", 90_000);
    await reloaded.locator('[data-kind="error"][data-code="INTERRUPTED"]').waitFor({ state: 'visible', timeout: 30_000 });
    const approvals = await reloaded.locator('[data-testid="approval"]').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['status']));
    assert.deepEqual(approvals.slice(-2), ['approved', 'approved'], approvals.join(', '));
  } catch (error) {
    await session.screenshot('run-command-reload-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test("a workspace's terminal settings that would run code in the shell send the command to a child process instead", { timeout: 120_000 }, async () => {
  try {
    const marker = path.join(workspace, 'prompt-command-ran.txt');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'terminal.integrated.env.linux': { PROMPT_COMMAND: `echo ran >> ${marker}` } }),
    );
    // A reload, so the window reads the workspace's settings for sure (a watched change may take a while to arrive).
    await session.reload();
    const view = await panelAfterReload(session);
    // The panel may come back from a snapshot taken while the last run went (Send refused as "a run is going")
    // until the host has answered with the conversation as it is: the question waits for that.
    await waitFor(async () => (await view.locator('body').getAttribute('data-conversation')) !== null, "the host's conversation", 90_000);
    await waitIdle(view);
    server.push(
      { model: fc, toolCalls: [{ id: 'w1', name: 'run_command', arguments: { command: 'echo beside-workspace-env' } }] },
      { model: fc, content: 'Done.' },
      { model: answerModel, content: 'Ran it.' },
    );
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Echo once more.');
    await prompt.press('Enter');
    await waitFor(async () => toolMessages().some((text) => text.startsWith('$ echo beside-workspace-env') && /exit code 0/.test(text)), 'the command to run', 60_000);
    await waitFor(async () => /the workspace sets terminal\.integrated\.env\.linux; running as a child process: echo beside-workspace-env/.test(session.logs()), 'the log line', 20_000);
    assert.equal(fs.existsSync(marker), false, "the workspace's PROMPT_COMMAND did not run");
  } catch (error) {
    await session.screenshot('run-command-workspace-env-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('fetch_url asks with the exact URL, remembers the site, and gives the model the page as Markdown', { timeout: 120_000 }, async () => {
  const hits: string[] = [];
  const site = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<html><head><title>Guide</title><script>tracker()</script></head><body><nav>Menu</nav><h1>Install ${request.url === '/guide' ? 'GUIDE-MARKER-5521' : 'SECOND-PAGE-8123'}</h1><p>Run <code>make</code>, see <a href="/other">the next page</a>.</p></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  try {
    const view = await session.webview();
    await waitIdle(view);
    const approvalsBefore = await view.locator('[data-testid="approval"]').count();
    server.push(
      { model: fc, toolCalls: [{ id: 'f1', name: 'fetch_url', arguments: { url: `${origin}/guide` } }] },
      { model: fc, toolCalls: [{ id: 'f2', name: 'fetch_url', arguments: { url: `${origin}/other` } }] },
      { model: fc, content: 'Read both pages.' },
      { model: answerModel, content: 'Install with make.' },
    );
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('How do I install it? See the guide.');
    await prompt.press('Enter');

    const card = await pendingCard(view, new Set(), 'fetch_url');
    assert.match(await card.locator('[data-testid="approval-summary"]').innerText(), new RegExp(`Fetch ${origin}/guide \\(an address on this machine`));
    assert.deepEqual(hits, [], 'nothing is sent before the user says so');
    assert.equal(await card.locator('[data-testid="approve-always"]').innerText(), `Always allow fetching from ${origin}`);
    await card.locator('[data-testid="approve-always"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'Install with make.' }).waitFor({ timeout: 60_000 });
    await waitIdle(view);

    assert.deepEqual(hits, ['/guide', '/other']);
    assert.equal(await view.locator('[data-testid="approval"]').count(), approvalsBefore + 1, 'the second page of the site came unasked');
    const pages = toolMessages().filter((text) => text.startsWith(`GET ${origin}/`));
    assert.equal(pages.length >= 2, true, pages.join('\n---\n'));
    assert.match(pages[0]!, /Title: Guide\n\n# Install GUIDE-MARKER-5521\n\nRun `make`, see \[the next page\]\(http:\/\/127\.0\.0\.1:\d+\/other\)\./);
    assert.doesNotMatch(pages[0]!, /tracker|Menu/);
    const settings = JSON.parse(fs.readFileSync(path.join(session.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.ok((settings['tandem.tools.alwaysAllow'] as string[]).includes(`fetch_url:${origin}`), JSON.stringify(settings['tandem.tools.alwaysAllow']));
    await session.screenshot('fetch-url');
  } catch (error) {
    await session.screenshot('fetch-url-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  } finally {
    site.closeAllConnections();
    site.close();
  }
});
