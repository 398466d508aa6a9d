// An MCP server's question answered from the panel's elicitation card in a
// real VS Code (code-server + headless Chromium), with the real everything
// server asking during a tool call and the scripted model server: the form
// shows the schema's fields with their defaults, refuses what does not fit,
// waits past maxExecutionSeconds without the run stopping (its clock is
// paused), and the answer (with the defaults) reaches the server and the
// model; Decline reaches the server as a decline; a URL question shows its
// address and Open opens it in the browser.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { answerDialogs } from './dialogs';
import { ANSWER_MODEL as answerModel, closeVsCode, FC_MODEL as fc, openVsCode } from './e2eFixture';
import type { VsCodeSession } from './harness';
import { failureReporter, send, waitFor, waitIdle } from './viewSteps';

const limitSeconds = 10;
const everythingServer = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: ScriptedModelServer;
let session: VsCodeSession;
let workspace: string;

before(async () => {
  ({ server, session, workspace } = await openVsCode({
    name: 'elicitation',
    settings: {
      'tandem.agent.maxExecutionSeconds': limitSeconds,
      'tandem.tools.autoApprove': 'all',
      'tandem.mcp.servers': { everything: { type: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'] } },
    },
  }));
});

after(() => closeVsCode({ server, session, workspace }));

const guarded = failureReporter('elicitation', () => session);

async function pendingCard(view: Frame): Promise<Locator> {
  const card = view.locator('[data-testid="elicitation"][data-status="pending"]').last();
  await card.waitFor({ state: 'visible', timeout: 60_000 });
  assert.equal(await card.getAttribute('data-server'), 'everything');
  return card;
}

/** The tool result the model got back in the request after the call `callId`. */
function toolResultSent(callId: string): string {
  for (const request of server.requests) {
    const message = (request.messages as { role: string; tool_call_id?: string; content?: unknown }[]).find(
      (each) => each.role === 'tool' && each.tool_call_id === callId,
    );
    if (message) return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  }
  return '';
}

const field = (card: Locator, name: string) => card.locator(`[data-field="${name}"]`);

test('a form question: defaults prefilled, checked, answered after the time limit, the answer reaches the server', { timeout: 150_000 }, () =>
  guarded('form', async () => {
    server.push(
      { model: fc, toolCalls: [{ id: 'e1', name: 'everything__trigger-elicitation-request', arguments: {} }] },
      { model: fc, content: 'Got the details.' },
      { model: answerModel, content: 'Thanks, Ada.' },
    );
    const view = await session.webview();
    await send(view, 'Ask me for my details.');
    const card = await pendingCard(view);
    assert.equal(await card.getAttribute('data-mode'), 'form');
    assert.equal(await card.locator('[data-testid="elicitation-message"]').innerText(), 'Please provide inputs for the following fields:');
    assert.equal(await view.locator('body').getAttribute('data-waiting'), 'elicitation');
    // Defaults from the schema are prefilled, in the control its type calls for.
    assert.equal(await field(card, 'firstLine').locator('input').inputValue(), 'It was a dark and stormy night.');
    assert.equal(await field(card, 'integer').locator('input').inputValue(), '42');
    assert.equal(await field(card, 'untitledSingleSelectEnum').locator('select').inputValue(), 'Monica');
    assert.equal(await field(card, 'titledSingleSelectEnum').locator('select option:checked').innerText(), 'Superman');
    assert.equal(await field(card, 'check').locator('input[type="checkbox"]').isChecked(), false);
    assert.equal(await field(card, 'untitledMultipleSelectEnum').locator('input[value="Guitar"]').isChecked(), true);
    await session.screenshot('elicitation-form-card');

    // Submit with the required name missing and a bad email: refused, with the reasons next to the fields.
    await field(card, 'email').locator('input').fill('not-an-email');
    await field(card, 'integer').locator('input').fill('500');
    await card.locator('[data-testid="approve"]').click();
    assert.equal(await field(card, 'name').locator('[data-testid="elicitation-error"]').innerText(), 'Required.');
    assert.match(await field(card, 'email').locator('[data-testid="elicitation-error"]').innerText(), /email/);
    assert.match(await field(card, 'integer').locator('[data-testid="elicitation-error"]').innerText(), /at most 100/);
    assert.equal(await card.getAttribute('data-status'), 'pending');

    // Waiting longer than maxExecutionSeconds: the clock is paused, the run goes on after the answer.
    await new Promise((resolve) => setTimeout(resolve, (limitSeconds + 1) * 1000));
    await field(card, 'name').locator('input').fill('Ada Lovelace');
    await field(card, 'email').locator('input').fill('ada@example.com');
    await field(card, 'integer').locator('input').fill('7');
    await field(card, 'check').locator('input').check();
    await field(card, 'untitledMultipleSelectEnum').locator('input[value="Piano"]').check();
    await card.locator('[data-testid="approve"]').click();
    const answered = view.locator('[data-testid="elicitation"]').last();
    await waitFor(async () => (await answered.getAttribute('data-status')) === 'accept', 'the card to show the answer');
    assert.equal(await answered.locator('[data-testid="elicitation-status"]').innerText(), 'Answered');
    await waitIdle(view);

    const result = toolResultSent('e1');
    assert.match(result, /Name: Ada Lovelace/);
    assert.match(result, /Email: ada@example\.com/);
    assert.match(result, /Favorite Integer: 7/);
    assert.match(result, /Agreed to terms: true/);
    assert.match(result, /"firstLine": "It was a dark and stormy night\."/, 'a prefilled default is sent');
    assert.match(result, /"Guitar",\s*"Piano"/);
    const notices = await view.locator('[data-testid="notice"]').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['code']));
    assert.ok(!notices.includes('timeLimit'), `no time-limit stop: ${notices.join(', ')}`);
    assert.equal(await view.locator('[data-testid="answer"]').last().innerText(), 'Thanks, Ada.');
    assert.equal(await view.locator('body').getAttribute('data-waiting'), 'none');
  }),
);

test('Decline reaches the server as a decline', { timeout: 90_000 }, () =>
  guarded('decline', async () => {
    server.push(
      { model: fc, toolCalls: [{ id: 'e2', name: 'everything__trigger-elicitation-request', arguments: {} }] },
      { model: fc, content: 'They declined.' },
      { model: answerModel, content: 'No details then.' },
    );
    const view = await session.webview();
    await send(view, 'Ask me again.');
    const card = await pendingCard(view);
    await card.locator('[data-testid="reject"]').click();
    const answered = view.locator('[data-testid="elicitation"]').last();
    await waitFor(async () => (await answered.getAttribute('data-status')) === 'decline', 'the card to show the decline');
    await waitIdle(view);
    assert.match(toolResultSent('e2'), /declined/);
    assert.equal(await answered.locator('input, select').count(), 0, 'an answered card shows no form');
  }),
);

test('a URL question shows the address and Open opens it', { timeout: 90_000 }, () =>
  guarded('url', async () => {
    const address = 'https://sign-in.example.test/authorize?state=abc';
    server.push(
      { model: fc, toolCalls: [{ id: 'u1', name: 'everything__trigger-url-elicitation', arguments: { url: address, message: 'Sign in to continue.' } }] },
      { model: fc, content: 'Opened.' },
      { model: answerModel, content: 'You were sent to the page.' },
    );
    const view = await session.webview();
    await send(view, 'Send me to the sign-in page.');
    const card = await pendingCard(view);
    assert.equal(await card.getAttribute('data-mode'), 'url');
    assert.equal(await card.locator('[data-testid="elicitation-url"]').innerText(), address);
    assert.equal(await card.locator('[data-testid="approve"]').innerText(), 'Open');
    await session.screenshot('elicitation-url-card');
    // VS Code's own link protection asks before an external page opens; the user says Open there too.
    const dialogs = answerDialogs(session.page, () => 'Open');
    const requested: string[] = [];
    session.page.context().on('request', (request) => requested.push(request.url()));
    await card.locator('[data-testid="approve"]').click();
    // The page opens in a new browser tab (nothing loads: the address is not reachable, and need not be).
    const opened = () => requested.includes(address);
    try {
      await waitFor(async () => opened(), 'the browser to open the page', 30_000);
    } finally {
      await dialogs.stop();
    }
    assert.match(dialogs.seen[0]?.detail ?? '', /sign-in\.example\.test\/authorize\?state=abc/);
    const answered = view.locator('[data-testid="elicitation"]').last();
    await waitFor(async () => (await answered.getAttribute('data-status')) === 'accept', 'the card to show the answer');
    await waitIdle(view);
    assert.match(toolResultSent('u1'), /accept/);
  }),
);

test('sampling: the server\'s request to use the model is a card on its call even under autoApprove all; approved, the answer model replies to the server', { timeout: 90_000 }, () =>
  guarded('sampling', async () => {
    server.push(
      { model: fc, toolCalls: [{ id: 's1', name: 'everything__trigger-sampling-request', arguments: { prompt: 'Name a colour.', maxTokens: 20 } }] },
      { model: answerModel, content: 'Teal.' },
      { model: fc, content: 'The server got its reply.' },
      { model: answerModel, content: 'The server asked the model, which said teal.' },
    );
    const view = await session.webview();
    const before = server.requests.length;
    await send(view, 'Have the server ask the model for a colour.');
    const card = view.locator('[data-testid="approval"][data-status="pending"]').last();
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(
      await card.locator('[data-testid="approval-summary"]').innerText(),
      'MCP server "everything" asks to use your model answer-model (up to 20 tokens): "Resource trigger-sampling-request context: Name a colour."',
    );
    assert.match(await card.locator('[data-testid="approval-args"]').innerText(), /"systemPrompt": "You are a helpful test server\."/);
    assert.match(await card.locator('[data-testid="approve-always"]').innerText(), /everything/);
    assert.equal(server.requests.length, before + 1, 'no model asked for the server before the user says so');
    await session.screenshot('sampling-card');
    await card.locator('[data-testid="approve"]').click();
    await waitIdle(view);
    const sampled = server.requests[before + 1]!;
    assert.equal(sampled.model, answerModel);
    assert.ok(!JSON.stringify(sampled.messages).includes('Have the server ask'), 'nothing of the conversation goes to the server\'s request');
    assert.match(toolResultSent('s1'), /"text": "Teal\."/);
    assert.equal(await view.locator('[data-testid="answer"]').last().innerText(), 'The server asked the model, which said teal.');
  }),
);
