// Tandem: Show MCP Servers in a real VS Code (code-server + headless
// Chromium) with the real everything server and the scripted model server:
// a tool the server calls read-only still asks while the server is not
// trusted; after "Trust its read-only hints" it runs unasked under
// autoApprove "readOnly"; a tool switched off in "Choose the tools…" is no
// longer sent to the model, and both switches survive a window reload. A
// tool's image is shown under its result. A queued slash command cancelled at
// its arguments comes back after the draft, with its chips.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';
import { failureReporter, pickContextItem, send, waitFor, waitIdle, waitRestored } from './viewSteps';

const fc = 'fc-model';
const answerModel = 'answer-model';
const everythingServer = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;
let scratch: string;
let settings: Record<string, unknown>;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-servers-'));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcp-servers-user-'));
  server = await startScriptedModelServer({ models: [fc, answerModel] });
  settings = {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': fc,
      'tandem.answerModel.model': answerModel,
      'tandem.agent.mode': 'agent',
      'tandem.tools.autoApprove': 'readOnly',
      'tandem.mcp.servers': { everything: { type: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'] } },
  };
  // A user-data dir of our own, so a restart of VS Code keeps the workspace state.
  session = await launchVsCode({ workspace, settings, userDataDir: path.join(scratch, 'user-data') });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

const rows = (page: Page) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

/** Opens Tandem: Show MCP Servers and the actions of the everything server. */
async function openServerActions(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true }).catch(() => undefined);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill('>Tandem: Show MCP Servers');
  await rows(page).filter({ hasText: 'Tandem: Show MCP Servers' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await input.press('Enter');
  await rows(page).filter({ hasText: 'connected' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await rows(page).filter({ hasText: 'everything' }).first().click();
  await rows(page).filter({ hasText: 'Show the log' }).first().waitFor({ state: 'visible', timeout: 10_000 });
}

async function chooseAction(page: Page, label: string): Promise<void> {
  await rows(page).filter({ hasText: label }).first().click();
}

/** The tools the model was offered in the last request. */
function offeredTools(): string[] {
  const last = server.requests.filter((request) => request.model === fc).at(-1);
  return (last?.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

const guarded = failureReporter('mcp-servers', () => session);

test('readOnlyHint counts only for a trusted server; a tool switched off is not offered; both persist', { timeout: 180_000 }, () =>
  guarded('switches', async () => {
    const view = await session.webview();
    // 1. Not trusted: echo (read-only by the server's word) asks.
    server.push(
      { model: fc, toolCalls: [{ id: 'a1', name: 'everything__echo', arguments: { message: 'first' } }] },
      { model: fc, content: 'Echoed.' },
      { model: answerModel, content: 'It echoed.' },
    );
    await send(view, 'Echo something.');
    const card = view.locator('[data-testid="approval"][data-tool="everything__echo"]');
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    await card.locator('[data-testid="approve"]').click();
    await waitIdle(view);
    assert.ok(offeredTools().includes('everything__get-sum'));

    // 2. Trust the server's read-only hints, and switch get-sum off.
    await openServerActions(session.page);
    await chooseAction(session.page, 'Trust its read-only hints');
    // The choice is applied once the quick pick has closed; the actions list is built when it opens.
    await waitFor(async () => {
      await openServerActions(session.page);
      if ((await rows(session.page).filter({ hasText: 'Stop trusting its read-only hints' }).count()) === 1) return true;
      await session.page.keyboard.press('Escape');
      return false;
    }, 'the server to show as trusted', 20_000);
    await chooseAction(session.page, 'Choose the tools offered to the model');
    const input = session.page.locator('.quick-input-widget input');
    await input.fill('get-sum');
    const sum = rows(session.page).filter({ hasText: 'get-sum' }).first();
    await sum.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await sum.getAttribute('aria-checked'), 'true', 'every tool starts on');
    assert.match((await sum.getAttribute('aria-label')) ?? '', /read-only/, 'the trusted hint is shown');
    await sum.locator('.monaco-checkbox').click();
    await waitFor(async () => (await sum.getAttribute('aria-checked')) === 'false', 'get-sum to be unticked', 10_000);
    await input.press('Enter');
    await session.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await session.screenshot('mcp-servers-after-switches');

    // 3. At once, and after a reload: echo runs unasked, get-sum is not offered.
    server.push(
      { model: fc, toolCalls: [{ id: 'a3', name: 'everything__echo', arguments: { message: 'live' } }] },
      { model: fc, content: 'Echoed live.' },
      { model: answerModel, content: 'It echoed live.' },
    );
    await send(view, 'Echo live.');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')) === 'It echoed live.', 'the answer');
    await waitIdle(view);
    assert.ok(!offeredTools().includes('everything__get-sum'), 'a tool switched off is not offered');
    assert.ok(offeredTools().includes('everything__echo'));
    assert.equal(await view.locator('[data-testid="approval"]').count(), 1, 'echo ran without a card');
    // A window reload (which flushes VS Code's storage): the switches come back from the workspace state.
    // The panel does not always come back after a reload here; a second reload brings it.
    const questions = await view.locator('[data-testid="user-message"]').count();
    await session.reload();
    const reloaded = await session.webview().catch(async () => {
      await session.reload();
      return session.webview();
    });
    await waitRestored(reloaded, questions);
    server.push(
      { model: fc, toolCalls: [{ id: 'a2', name: 'everything__echo', arguments: { message: 'second' } }] },
      { model: fc, content: 'Echoed again.' },
      { model: answerModel, content: 'It echoed again.' },
    );
    await send(reloaded, 'Echo once more.');
    await waitFor(async () => (await reloaded.locator('[data-testid="answer"]').last().innerText().catch(() => '')) === 'It echoed again.', 'the answer');
    await waitIdle(reloaded);
    const tools = offeredTools();
    assert.ok(tools.includes('everything__echo'), tools.join(', '));
    assert.ok(!tools.includes('everything__get-sum'), 'a tool switched off is not offered');
    assert.equal(await reloaded.locator('[data-testid="approval"][data-status="pending"]').count(), 0);
    const echoResult = server.requests
      .flatMap((request) => request.messages as { role: string; tool_call_id?: string; content?: unknown }[])
      .find((message) => message.role === 'tool' && message.tool_call_id === 'a2');
    assert.match(String(echoResult?.content ?? ''), /Echo: second/, 'echo ran without a card');
  }),
);

test("a server's prompt is a slash command: offered after '/', picked with the keyboard, arguments inline or asked for, its text is sent", { timeout: 90_000 }, () =>
  guarded('prompts', async () => {
    // Runs after the first test: the servers are up.
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    await prompt.fill('/every');
    const offered = view.locator('[data-testid="slash-command"][data-command="everything.args-prompt"]');
    await offered.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await offered.innerText(), /city=… state=…/);
    await session.screenshot('mcp-servers-slash-commands');
    // The keyboard reaches the list: Down moves to the prompt, Enter completes it (and sends nothing).
    const names = await view.locator('[data-testid="slash-command"]').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['command']));
    const index = names.indexOf('everything.args-prompt');
    for (let step = 0; step < index; step++) await prompt.press('ArrowDown');
    assert.equal(await offered.getAttribute('aria-selected'), 'true', `Down moved to the prompt (${names.join(', ')})`);
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), '/everything.args-prompt ');
    await view.locator('[data-testid="slash-commands"]').waitFor({ state: 'hidden', timeout: 5_000 });
    await prompt.pressSequentially('city=Paris');
    models();
    await prompt.press('Enter');
    // The optional argument not given inline is asked for in VS Code's input box; left empty.
    const input = session.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await session.page.locator('.quick-input-widget').innerText(), /state \(optional\)/);
    await input.press('Enter');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')) === 'Sunny in Paris.', 'the answer');
    await waitIdle(view);
    assert.equal(await view.locator('[data-testid="user-message"] .user-text').last().innerText(), "What's weather in Paris?");
    const sent = server.requests.at(-2)?.messages.at(-1) as { role: string; content: unknown } | undefined;
    assert.equal(sent?.role, 'user');
    // As typed, after Tandem's record of the run before it (which used a tool).
    assert.match(String(sent?.content), /^\[Tandem's record, not typed by the user\] [^\n]*\n\nWhat's weather in Paris\?$/);
  }),
);

function models(): void {
  server.push({ model: fc, content: 'Weather.' }, { model: answerModel, content: 'Sunny in Paris.' });
}

test('a slash command queued while a run goes and cancelled at its arguments comes back after the draft, with its chips', { timeout: 120_000 }, () =>
  guarded('queued-prompt-cancelled', async () => {
    const view = await session.webview();
    const prompt = view.locator('[data-testid="prompt"]');
    server.push({ model: fc, firstByteDelayMs: 6_000, content: 'No tools needed.' }, { model: answerModel, content: 'First done.' });
    await send(view, 'Take a moment.');
    await waitFor(async () => (await view.locator('body').getAttribute('data-running')) === 'true', 'the run to show as going', 10_000);
    await pickContextItem(view, '@Problems', 'problems');
    // Completed past the list (a space), so Enter queues it rather than picking from the list.
    await prompt.fill('/everything.args-prompt ');
    await prompt.press('Enter');
    await view.locator('[data-testid="queued-message"]').waitFor({ state: 'visible', timeout: 10_000 });
    await prompt.fill('my own draft');
    // The run ends with an answer: the follow-up goes, and VS Code asks for its required argument; Escape cancels.
    const input = session.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await session.page.locator('.quick-input-widget').innerText(), /city/);
    await input.press('Escape');
    await waitFor(async () => (await prompt.inputValue()) === 'my own draft\n\n/everything.args-prompt', 'the command back after the draft', 10_000);
    await view.locator('[data-testid="context-chip"][data-path="problems"]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await view.locator('[data-testid="queued-message"]').count(), 0);
    assert.equal(await view.locator('[data-testid="user-message"] .user-text').last().innerText(), 'Take a moment.', 'nothing more was sent');
    await prompt.fill('');
    await view.locator('[data-testid="context-chip"][data-path="problems"] button').click();
  }),
);

test('a resource attached from Show MCP Servers is a context chip; its text goes with the next message', { timeout: 90_000 }, () =>
  guarded('resources', async () => {
    const view = await session.webview();
    await openServerActions(session.page);
    await chooseAction(session.page, 'Attach a resource to the next message');
    const input = session.page.locator('.quick-input-widget input');
    await input.fill('features.md');
    await rows(session.page).filter({ hasText: 'demo://resource/static/document/features.md' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await input.press('Enter');
    const chip = view.locator('[data-testid="context-chip"][data-path="demo://resource/static/document/features.md"]');
    await chip.waitFor({ state: 'visible', timeout: 10_000 });
    await session.screenshot('mcp-servers-resource-chip');
    server.push({ model: fc, content: 'Read it.' }, { model: answerModel, content: 'The features are listed.' });
    await send(view, 'What does this document list?');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')) === 'The features are listed.', 'the answer');
    await waitIdle(view);
    const features = fs.readFileSync(path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/docs/features.md'), 'utf8');
    const sent = String((server.requests.at(-2)?.messages.at(-1) as { content?: unknown } | undefined)?.content ?? '');
    assert.match(sent, /^What does this document list\?\n\nAttached resource demo:\/\/resource\/static\/document\/features\.md/);
    assert.ok(sent.includes(features.split('\n')[0] ?? '\u0000'), 'the resource text reaches the model');
    assert.equal(await view.locator('[data-testid="context-chip"]').count(), 0, 'the chip is used up by the message');
  }),
);

test("an MCP tool's image is shown under its result, decoded by the webview, and opens at full size", { timeout: 90_000 }, () =>
  guarded('image', async () => {
    const view = await session.webview();
    server.push(
      { model: fc, toolCalls: [{ id: 'img1', name: 'everything__get-tiny-image', arguments: {} }] },
      { model: fc, content: 'I have seen it.' },
      { model: answerModel, content: 'A small logo.' },
    );
    await send(view, 'Show me the tiny image.');
    // get-tiny-image says nothing about being read-only: it may ask first.
    const card = view.locator('[data-testid="approval"][data-tool="everything__get-tiny-image"][data-status="pending"]');
    const picture = view.locator('[data-testid="result-image"]').last();
    await waitFor(async () => {
      if (await card.isVisible().catch(() => false)) await card.locator('[data-testid="approve"]').click();
      return picture.isVisible().catch(() => false);
    }, 'the image under the result');
    await waitFor(async () => (await view.locator('[data-testid="answer"]').last().innerText().catch(() => '')) === 'A small logo.', 'the answer');
    await waitIdle(view);
    // Decoded: the panel's Content-Security-Policy lets a data: image through, and the bytes are a real PNG.
    const size = await picture.evaluate((node) => ({ width: (node as HTMLImageElement).naturalWidth, shown: (node as HTMLImageElement).getBoundingClientRect().width }));
    assert.ok(size.width > 0, 'the image decoded');
    assert.ok(size.shown > 0, 'the image takes room in the panel');
    assert.match(await picture.getAttribute('alt') ?? '', /^Image 1 of 1 from everything__get-tiny-image$/);
    await picture.click();
    assert.equal(await picture.getAttribute('aria-pressed'), 'true');
    await session.screenshot('mcp-servers-tool-image');
    const sentImage = server.requests
      .flatMap((request) => request.messages as { role: string; content?: unknown }[])
      .some((message) => Array.isArray(message.content) && JSON.stringify(message.content).includes('data:image/png;base64,'));
    assert.ok(sentImage, 'the model was sent the image too');
    // Never stored: the conversation's file has the result's description, not the image.
    const conversationFiles = () => (fs.readdirSync(scratch, { recursive: true }) as string[]).filter((file) => file.endsWith('.jsonl')).map((file) => fs.readFileSync(path.join(scratch, file), 'utf8'));
    await waitFor(() => conversationFiles().some((text) => text.includes('A small logo.')), 'the conversation to be saved', 20_000);
    const saved = conversationFiles().find((text) => text.includes('A small logo.')) ?? '';
    assert.match(saved, /image 1 of this result/);
    assert.ok(!saved.includes('iVBORw0KGgo') && !saved.includes('tandem.toolImages'), 'no image data in the conversation file');
  }),
);
