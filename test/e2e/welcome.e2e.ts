// Issue 10, first run: on a fresh profile (default OpenAI base URL, no key,
// nothing on the local-server ports) the panel shows the welcome view instead
// of failing a run; setting a key hides it; choosing a local server the probe
// found writes the user settings and a run then works. The probe looks only
// where TANDEM_LOCAL_SERVERS says (a scripted server and a closed port), so
// nothing here depends on what else runs on this machine, and OpenAI's host is
// never contacted: without a key it is unusable by rule, not by probe.
// Also: Select Models says that VS Code offers no language models here; Use an
// Endpoint (the welcome view's way in for a hosted endpoint) takes a base URL,
// a key and one of the endpoint's listed models, and the key goes only there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';

const localModel = 'local-test-model';
const answerText = 'Answered by the local test model.';
const directText = 'Answered directly in agent mode.';

let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;
let workspace: string;

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-welcome-'));
  fs.writeFileSync(path.join(workspace, 'notes.md'), '# Notes\n');
  server = await startScriptedModelServer({
    models: [localModel],
    turns: [{ model: localModel, content: answerText }],
  });
  session = await launchVsCode({
    workspace,
    // Nothing about models configured: a fresh profile.
    settings: { 'tandem.agent.mode': 'chat' },
    env: { TANDEM_LOCAL_SERVERS: `Local test server=${server.baseUrl},Closed=http://127.0.0.1:${await closedPort()}/v1` },
  });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** The user settings once `ready` holds (the file may be mid-write when first read). */
async function settingsWhen(ready: (settings: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const file = path.join(session!.userDataDir, 'User', 'settings.json');
  const deadline = Date.now() + 10_000;
  let last: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    try {
      last = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      if (ready(last)) return last;
    } catch {
      // Being written: read again.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

async function typeIntoInputBox(page: Page, text: string): Promise<string> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  const title = await widget.innerText();
  await input.fill(text);
  await input.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  return title;
}

async function welcomeHidden(view: Frame): Promise<void> {
  await view.locator('[data-testid="welcome"]').waitFor({ state: 'hidden', timeout: 15_000 });
}

test('with nothing configured the welcome view shows; a key or a local server makes a model usable', { timeout: 150_000 }, async () => {
  assert.ok(session && server);
  try {
    const view = await session.webview();
    const welcome = view.locator('[data-testid="welcome"]');
    await welcome.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await view.locator('[data-testid="welcome-problems"]').innerText(), /No API key for https:\/\/api\.openai\.com\/v1/);
    // The probe found the scripted server and its model; the closed port is simply not listed.
    const localChoice = view.locator(`[data-testid="welcome-local-model"][data-model="${localModel}"]`);
    await localChoice.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await localChoice.getAttribute('data-base-url'), server.baseUrl);
    assert.equal(await view.locator('[data-testid="welcome-local"]').innerText().then((text) => text.includes('Closed')), false);
    assert.equal(await view.locator('[data-testid="welcome-use-endpoint"]').count(), 1, 'a way in for another endpoint');
    // No VS Code models in code-server: that option is not offered.
    assert.equal(await view.locator('[data-testid="welcome-vscode"]').count(), 0);
    await session.screenshot('welcome-view');
    // A new chat under it: no empty conversation or blank usage takes the welcome view's room.
    assert.equal(await view.locator('[data-testid="usage"]').isVisible().catch(() => false), false, 'the blank usage is hidden');
    // Check again with nothing changed: the button comes back and says when it looked.
    await view.locator('[data-testid="welcome-check"]').click();
    await view.locator('[data-testid="welcome-checked"]', { hasText: /Checked at .*: nothing has changed\./ }).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await view.locator('[data-testid="welcome-check"]').innerText(), 'Check again');

    // Sending does not start a run that can only fail: no step, the question stays in the box.
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('Is anyone there?');
    await view.locator('[data-testid="send"]').click();
    await view.waitForFunction(() => (document.querySelector('[data-testid="prompt"]') as HTMLTextAreaElement | null)?.value === 'Is anyone there?', undefined, { timeout: 10_000 });
    assert.equal(await view.locator('[data-testid="step"]').count(), 0, 'a run started');
    assert.equal(server.requests.length, 0);
    assert.ok(await welcome.isVisible());
    // ...and the welcome view says why, at its top.
    const held = view.locator('[data-testid="welcome-held"]');
    await held.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await held.innerText(), /Not sent: set up a model first/);

    // Set an API key: the welcome view goes away at once (the key is never sent anywhere here).
    await view.locator('[data-testid="welcome-set-key"]').click();
    const title = await typeIntoInputBox(session.page, 'sk-test-not-a-real-key');
    assert.match(title, /API key for https:\/\/api\.openai\.com\/v1/);
    await welcomeHidden(view);

    // Remove it again (empty input): the welcome view is back.
    await session.runCommand('tandem.setApiKey');
    await typeIntoInputBox(session.page, '');
    await welcome.waitFor({ state: 'visible', timeout: 15_000 });

    // Choose the local server's model: user settings point at it, and a run works.
    await view.locator(`[data-testid="welcome-local-model"][data-model="${localModel}"]`).click();
    await welcomeHidden(view);
    // VS Code writes the two settings one after the other: read once both are there.
    const written = await settingsWhen((settings) => settings['tandem.functionCallModel.model'] === localModel && settings['tandem.functionCallModel.baseUrl'] === server!.baseUrl);
    assert.equal(written['tandem.functionCallModel.baseUrl'], server.baseUrl);
    assert.equal(written['tandem.functionCallModel.model'], localModel);

    await view.locator('[data-testid="send"]').click();
    const answer = view.locator('[data-testid="answer"]').last();
    await answer.waitFor({ state: 'visible', timeout: 30_000 });
    const deadline = Date.now() + 30_000;
    while (!(await answer.innerText()).includes(answerText) && Date.now() < deadline) await view.waitForTimeout(200);
    assert.match(await answer.innerText(), /Answered by the local test model\./);
    const chat = server.requests.filter((request) => request.path.endsWith('/chat/completions'));
    assert.equal(chat.length, 1);
    assert.equal(chat[0]!.model, localModel);
    assert.match(JSON.stringify(chat[0]!.messages), /Is anyone there\?/);
    assert.equal(chat[0]!.authorization, undefined, 'no key goes to a local server');
    // Chat mode with one model: the phase step names that model once and claims no tool phase.
    const chatPhase = view.locator('[data-testid="phase-switch"]').last();
    await chatPhase.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal((await chatPhase.innerText()).trim(), localModel);
    assert.match(await view.locator('[data-kind="notice"]', { has: chatPhase }).innerText(), /^Answering/);
    // Chat mode has no function-call phase: the time line names the answer only.
    await view.locator('[data-testid="usage-time"]', { hasText: /^Time: answer [\d.]+ m?s$/ }).waitFor({ timeout: 10_000 });

    // Agent mode, the same model answering directly: the phase step says the
    // tool phase ended (no switch of models), above the reply that is the answer.
    const toggle = view.locator('[data-testid="mode-toggle"]');
    await toggle.click();
    await view.locator('[data-testid="mode-toggle"][data-mode="agent"]').waitFor({ timeout: 10_000 });
    // The mode notice speaks of one model, as one is set.
    await view.locator('[data-kind="notice"]', { hasText: 'Agent mode: the model may use tools before it answers.' }).waitFor({ timeout: 10_000 });
    // Slow chunks: until this run's first model call ends, the usage box says so (not "No run yet.").
    server.push({ model: localModel, content: directText, chunkDelayMs: 300 });
    await view.locator('[data-testid="prompt"]').fill('And in agent mode?');
    await view.locator('[data-testid="send"]').click();
    await view.locator('[data-testid="usage-cost"]', { hasText: 'This run: no model call has completed yet.' }).waitFor({ timeout: 5_000 });
    const direct = view.locator('[data-testid="answer"]', { hasText: directText });
    await direct.waitFor({ state: 'visible', timeout: 30_000 });
    const phaseStep = view.locator('[data-kind="notice"]:has([data-testid="phase-switch"])').nth(1);
    await phaseStep.waitFor({ state: 'visible', timeout: 10_000 });
    const phase = phaseStep.locator('[data-testid="phase-switch"]');
    assert.equal((await phase.innerText()).trim(), localModel);
    assert.match(await phaseStep.innerText(), /^Tool phase ended/);
    const above = await phase.evaluate((element, text) => {
      const answer = [...document.querySelectorAll('[data-testid="answer"]')].find((node) => node.textContent?.includes(text));
      return answer ? Boolean(element.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING) : undefined;
    }, directText);
    assert.equal(above, true, 'the phase step is above the answer it ended');
    // It answered in the function-call phase: no "answer 0 ms" in the time line.
    await view.locator('[data-testid="usage-time"]', { hasText: /^Time: function-call phase [\d.]+ m?s$/ }).waitFor({ timeout: 10_000 });
    await session.screenshot('welcome-direct-answer');
  } catch (error) {
    await session.screenshot('welcome-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test("Select Models lists the endpoint's models and says VS Code offers none", { timeout: 60_000 }, async () => {
  assert.ok(session && server);
  try {
    await session.runCommand('tandem.selectModels');
    const widget = session.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 });
    const text = await widget.innerText();
    assert.match(text, new RegExp(localModel));
    assert.match(text, /No VS Code language models/);
    // It opens on the model in use, so Enter keeps it.
    const focused = widget.locator('.quick-input-list .monaco-list-row.focused');
    await focused.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await focused.innerText(), new RegExp(`${localModel}[\\s\\S]*current`));
    await session.screenshot('select-models-no-vscode-models');
    await session.page.keyboard.press('Escape');
  } catch (error) {
    await session.screenshot('select-models-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

/** The quick input's title once it holds `expected` (one widget serves each step in turn). */
async function quickInputTitled(page: Page, expected: RegExp): Promise<void> {
  const title = page.locator('.quick-input-widget .quick-input-title');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (expected.test(await title.innerText().catch(() => ''))) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`no quick input titled ${expected}; last: ${await title.innerText().catch(() => '(none)')}`);
}

test('Use an Endpoint: a base URL, a key and a listed model; the run goes there, with the key, and nowhere else', { timeout: 90_000 }, async () => {
  assert.ok(session && server);
  const hosted = await startScriptedModelServer({ models: ['hosted-a', 'hosted-b'], turns: [{ model: 'hosted-b', content: 'Answered by the hosted endpoint.' }] });
  try {
    const page = session.page;
    const input = page.locator('.quick-input-widget input');
    await session.runCommand('tandem.useEndpoint');
    await quickInputTitled(page, /1 of 3\): base URL/);
    // A name before "@" would send the key to the host after it: refused, saying where it would go.
    await input.fill(`https://api.openai.com@${hosted.baseUrl.replace(/^http:\/\//, '')}`);
    const refusal = page.locator('.quick-input-widget .quick-input-message');
    await waitForText(refusal, /A name or password before "@" is not part of a base URL: requests \(and the key\) would go to 127\.0\.0\.1:\d+/);
    await input.press('Enter');
    await quickInputTitled(page, /1 of 3\): base URL/);
    // Typed without its scheme, as docs often write it: read as http on this machine.
    await input.fill(hosted.baseUrl.replace(/^http:\/\//, ''));
    await input.press('Enter');
    await quickInputTitled(page, new RegExp(`2 of 3\\): API key for ${hosted.baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill('sk-hosted-test-key');
    await input.press('Enter');
    await quickInputTitled(page, /3 of 3\): model/);
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    const listed = await page.locator('.quick-input-widget .quick-input-list').innerText();
    assert.match(listed, /hosted-a[\s\S]*hosted-b/, 'the endpoint\'s own models');
    assert.doesNotMatch(listed, /VS Code language models/, 'only the endpoint\'s models are offered');
    await input.fill('hosted-b');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'hosted-b' }).first().waitFor({ state: 'visible' });
    await input.press('Enter');
    const written = await settingsWhen((settings) => settings['tandem.functionCallModel.baseUrl'] === hosted.baseUrl && settings['tandem.functionCallModel.model'] === 'hosted-b');
    assert.equal(written['tandem.functionCallModel.baseUrl'], hosted.baseUrl);
    assert.equal(written['tandem.functionCallModel.model'], 'hosted-b');
    assert.ok(!JSON.stringify(written).includes('sk-hosted-test-key'), 'the key is not in settings.json');

    const view = await session.webview();
    const localRequests = server.requests.length;
    await view.locator('[data-testid="prompt"]').fill('Who answers now?');
    await view.locator('[data-testid="send"]').click();
    await view.locator('[data-testid="answer"]', { hasText: 'Answered by the hosted endpoint.' }).waitFor({ state: 'visible', timeout: 30_000 });
    const chat = hosted.requests.filter((request) => request.path.endsWith('/chat/completions'));
    assert.equal(chat.length, 1);
    assert.equal(chat[0]!.model, 'hosted-b');
    assert.equal(chat[0]!.authorization, 'Bearer sk-hosted-test-key');
    assert.equal(server.requests.length, localRequests, 'the local server was not asked');
    assert.ok(server.requests.every((request) => request.authorization === undefined), 'the key went nowhere else');
    // The writes in between (the new model's name, the old server) warned of nothing.
    assert.equal(await page.locator('.notification-toast', { hasText: 'does not list' }).count(), 0, 'no warning about a model the old server does not list');
    await session.screenshot('welcome-use-endpoint');
  } catch (error) {
    await session.screenshot('use-endpoint-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  } finally {
    await hosted.close();
  }
});

async function waitForText(locator: Locator, expected: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    last = await locator.innerText().catch(() => '');
    if (expected.test(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`expected ${expected} in the quick input's message, saw: ${last}`);
}
