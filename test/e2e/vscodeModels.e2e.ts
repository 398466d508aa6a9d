// Issue 10, provider `vscode`: Tandem on VS Code's language models. code-server
// has none (no Copilot), so a tiny test extension (test/fixtures/fake-lm-extension)
// registers a scripted one through VS Code 1.100's proposed chatProvider API.
// Checked: the tools go in the request, the model's LanguageModelToolCallPart
// runs the workspace tool, its result comes back as a LanguageModelToolResultPart,
// the reply streams into the panel, usage is estimated (countTokens), and
// Select Models lists the model beside the endpoint's; the temperature and max
// tokens settings reach the model as modelOptions; the model's too-long-input
// error ("Message exceeds token limit.", as Copilot Chat throws it) is a
// context overflow; reasoning written before a `</think>` shows as the Thought;
// Stop in the middle of a reply counts the call as partial; a call with no
// tool name goes back as a mistake, and two calls under one id both run, each
// result under an id of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { repositoryRoot } from './harnessProcess';
import { launchVsCode, type VsCodeSession } from './harness';
import { send, waitFor, waitIdle } from './viewSteps';

const fakeExtension = path.join(repositoryRoot, 'test', 'fixtures', 'fake-lm-extension');
let session: VsCodeSession | undefined;
let scratch: string;
let requestLog: string;

interface LoggedLmRequest {
  readonly tools: string[];
  readonly modelOptions: Record<string, unknown> | null;
  readonly messages: { role: string; parts: { kind: string; text?: string; name?: string; callId?: string }[] }[];
}

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-vscode-lm-'));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'launch-notes.md'), '# Launch\n');
  requestLog = path.join(scratch, 'lm-requests.jsonl');
  session = await launchVsCode({
    workspace,
    extensions: [fakeExtension],
    codeServerArgs: ['--enable-proposed-api', 'tandem-test.fake-lm'],
    env: { FAKE_LM_LOG: requestLog, TANDEM_LOCAL_SERVERS: 'None=http://127.0.0.1:9/v1' },
    settings: {
      'tandem.functionCallModel.provider': 'vscode',
      'tandem.functionCallModel.model': 'fake-lm-1',
      'tandem.functionCallModel.temperature': 0.25,
      'tandem.functionCallModel.maxTokens': 777,
      'tandem.agent.mode': 'agent',
    },
  });
});

after(async () => {
  await session?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function loggedRequests(): LoggedLmRequest[] {
  if (!fs.existsSync(requestLog)) return [];
  return fs.readFileSync(requestLog, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as LoggedLmRequest);
}

test("provider vscode runs a tool through VS Code's language model API and answers", { timeout: 120_000 }, async () => {
  assert.ok(session);
  try {
    const view = await session.webview();
    await view.locator('[data-testid="prompt"]').fill('What is in this folder?');
    await view.locator('[data-testid="send"]').click();
    // The model answers in the tool phase (no tool call): that text is the answer.
    const answer = view.locator('[data-testid="answer"]:visible').last();
    await answer.waitFor({ state: 'visible', timeout: 45_000 });
    const deadline = Date.now() + 30_000;
    while (!(await answer.innerText()).includes('launch-notes.md') && Date.now() < deadline) await view.waitForTimeout(200);
    assert.match(await answer.innerText(), /FAKE-LM answer\. The tool said: .*launch-notes\.md/);
    assert.equal(await view.locator('[data-testid="welcome"]').isVisible(), false);

    const toolCalls = await view.locator('[data-testid="step"][data-kind="tool-call"]').allInnerTexts();
    assert.equal(toolCalls.length, 1);
    assert.match(toolCalls[0]!, /list_dir/);

    const requests = loggedRequests();
    assert.ok(requests.length >= 2, `expected at least two requests, saw ${requests.length}`);
    assert.ok(requests[0]!.tools.includes('list_dir') && requests[0]!.tools.includes('read_file'), `tools offered: ${requests[0]!.tools.join(', ')}`);
    for (const request of requests) assert.deepEqual(request.modelOptions, { temperature: 0.25, max_tokens: 777 }, 'the sampling settings arrive as modelOptions');
    const second = requests[1]!;
    const parts = second.messages.flatMap((message) => message.parts.map((part) => ({ role: message.role, ...part })));
    assert.ok(parts.some((part) => part.role === 'assistant' && part.kind === 'toolCall' && part.name === 'list_dir' && part.callId === 'fake-call-1'), 'the tool call went back as a LanguageModelToolCallPart');
    assert.ok(parts.some((part) => part.role === 'user' && part.kind === 'toolResult' && part.callId === 'fake-call-1' && /launch-notes\.md/.test(part.text ?? '')), 'the tool result went back as a LanguageModelToolResultPart');

    // No usage from the API: counted with countTokens and marked as estimated.
    const usage = await view.locator('[data-testid="usage"]').innerText();
    assert.match(usage, /fake-lm-1/);
    assert.match(usage, /~\d+/);
    await session.screenshot('vscode-lm-run');
  } catch (error) {
    await session.screenshot('vscode-lm-failure').catch(() => undefined);
    const frame = await session.webview().catch(() => undefined);
    console.error('panel steps:', await frame?.evaluate(() => [...document.querySelectorAll('[data-testid="step"]')].map((node) => node.outerHTML.slice(0, 600)).join('\n')));
    console.error(session.logs());
    console.error(JSON.stringify(loggedRequests().map((request) => ({ tools: request.tools.length, messages: request.messages.map((message) => `${message.role}: ${message.parts.map((part) => `${part.kind}${part.name ? ` ${part.name}` : ''} ${(part.text ?? '').slice(0, 60)}`).join(' | ')}`) }))));
    throw error;
  }
});

test('a VS Code model that closes a <think> its prompt opened: the reasoning shows as its Thought, the answer without it', { timeout: 120_000 }, async () => {
  assert.ok(session);
  const view = await session.webview();
  await send(view, 'FAKE-LM-THINK: say something.');
  await waitIdle(view);
  const answer = view.locator('[data-testid="answer"]:visible').last();
  assert.equal((await answer.innerText()).trim(), 'FAKE-LM thought first.');
  const visibleAnswers = (await view.locator('[data-testid="answer"]:visible').allInnerTexts()).join('\n');
  assert.doesNotMatch(visibleAnswers, /The user wants|<\/th/, 'no visible answer holds the reasoning or the tag');
  const thought = view.locator('[data-kind="thinking"]:visible').last();
  await thought.locator('summary').click();
  await thought.locator('.thinking-text').waitFor({ state: 'visible' });
  assert.match((await thought.innerText()).replace(/\s+/g, ' '), /The user wants a thought first\./);
  await session.screenshot('vscode-lm-think-closing-tag');
});

test("Select Models lists VS Code's language models beside the endpoint's", { timeout: 60_000 }, async () => {
  assert.ok(session);
  try {
    await session.runCommand('tandem.selectModels');
    const widget = session.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 20_000 });
    const text = await widget.innerText();
    assert.match(text, /Fake LM/);
    assert.doesNotMatch(text, /No VS Code language models/);
    await session.page.keyboard.press('Escape');
  } catch (error) {
    await session.screenshot('vscode-lm-picker-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test("the model's too-long-input error is a context overflow, not a plain failure", { timeout: 90_000 }, async () => {
  assert.ok(session);
  try {
    // A new chat: nothing older to condense, so the overflow ends the run with its own error at once.
    await session.runCommand('tandem.newChat');
    const view = await session.webview();
    await view.locator('[data-testid="prompt"]').fill('FAKE-LM-OVERFLOW: explain everything');
    await view.locator('[data-testid="send"]').click();
    const error = view.locator('[data-testid="step"][data-kind="error"]').last();
    await error.waitFor({ state: 'visible', timeout: 45_000 });
    const text = await error.innerText();
    assert.match(text, /does not fit the context window of "fake-lm-1"/);
    assert.match(text, /Message exceeds token limit/);
    assert.match(await error.locator('[data-testid="error-suggestion"]').innerText(), /New Chat|shorter message/);
  } catch (error) {
    await session.screenshot('vscode-lm-overflow-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('Stop in the middle of a VS Code model\'s reply counts the call as partial, its tokens estimated', { timeout: 90_000 }, async () => {
  assert.ok(session);
  try {
    await session.runCommand('tandem.newChat');
    const view = await session.webview();
    await view.locator('[data-testid="prompt"]').fill('FAKE-LM-SLOW: take your time');
    await view.locator('[data-testid="send"]').click();
    await view.getByText('FAKE-LM slow reply', { exact: false }).first().waitFor({ state: 'visible', timeout: 45_000 });
    await view.locator('[data-testid="stop"]').click();
    await waitIdle(view);
    const row = view.locator('[data-testid="usage-function-call"]');
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    const text = await row.innerText();
    assert.match(text, /0 \+ 1 partial/, text);
    assert.match(text, /~\d+/, 'its counts are estimates');
  } catch (error) {
    await session.screenshot('vscode-lm-stop-failure').catch(() => undefined);
    console.error(session.logs());
    throw error;
  }
});

test('a VS Code model\'s call with no tool name is a mistake it is told of; two calls under one id both run, each result under its own id', { timeout: 90_000 }, async () => {
  assert.ok(session);
  try {
    await session.runCommand('tandem.newChat');
    const before = loggedRequests().length;
    const view = await session.webview();
    // The new chat reaches the panel after the command returns: `send` counts the questions shown, so it waits for that.
    await waitFor(async () => (await view.locator('[data-testid="user-message"]').count()) === 0, 'the new chat in the panel', 10_000);
    await send(view, 'FAKE-LM-MISCALL: look around.');
    await waitIdle(view);
    assert.match(await view.locator('[data-testid="answer"]:visible').last().innerText(), /FAKE-LM got 2 results\./);
    const requests = loggedRequests().slice(before);
    const parts = (request: LoggedLmRequest | undefined) => (request?.messages ?? []).flatMap((message) => message.parts.map((part) => ({ role: message.role, ...part })));
    assert.ok(parts(requests[1]).some((part) => part.role === 'user' && /no tool name/.test(part.text ?? '')), 'the model was told its call had no tool name');
    const last = parts(requests.at(-1));
    assert.deepEqual(last.filter((part) => part.kind === 'toolCall').map((part) => `${part.callId} ${part.name}`), ['fake-dup read_file', 'fake-dup_2 list_dir']);
    const results = last.filter((part) => part.kind === 'toolResult');
    assert.deepEqual(results.map((part) => part.callId), ['fake-dup', 'fake-dup_2']);
    assert.match(results[0]!.text ?? '', /# Launch/, 'the read went back under the first id');
    assert.match(results[1]!.text ?? '', /launch-notes\.md/, 'the listing under the second');
    assert.equal(await view.locator('[data-testid="step"][data-kind="tool-call"]:visible').count(), 2);
  } catch (error) {
    await session.screenshot('vscode-lm-miscall-failure').catch(() => undefined);
    console.error(session.logs());
    console.error(JSON.stringify(loggedRequests().slice(-3).map((request) => request.messages.map((message) => `${message.role}: ${message.parts.map((part) => `${part.kind} ${part.callId ?? ''} ${part.name ?? ''} ${(part.text ?? '').slice(0, 80)}`).join(' | ')}`))));
    throw error;
  }
});
