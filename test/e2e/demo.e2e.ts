// Issue 10, the demo: `npm run vscode -- --demo` starts the demo model
// (scripts/demoModel.ts) and points the demo profile at it. This drives the
// same pieces launch-vscode.mjs uses — the demo workspace, the demo model,
// its settings — and checks that a newcomer sees a whole run with no key:
// two tool calls by the function-call model, the answer model's streamed
// answer saying it is the demo model, one usage row per model; and that a
// second question works as well (the script serves any number).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { DEMO_ANSWER_MODEL, DEMO_FUNCTION_CALL_MODEL, demoSettings, startDemoModel, writeDemoWorkspace } from '../../scripts/demoModel';
import { launchVsCode, type VsCodeSession } from './harness';

let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;
let scratch: string;

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-demo-'));
  const workspace = path.join(scratch, 'demo-workspace');
  writeDemoWorkspace(workspace);
  server = await startDemoModel();
  session = await launchVsCode({ workspace, settings: demoSettings(server.baseUrl) });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function askAndWait(view: Frame, question: string, answers: number): Promise<string> {
  await view.locator('[data-testid="prompt"]').fill(question);
  await view.locator('[data-testid="send"]').click();
  const answer = view.locator('[data-testid="answer"]');
  const deadline = Date.now() + 45_000;
  for (;;) {
    const count = await answer.count();
    const text = count >= answers ? await answer.nth(answers - 1).innerText() : '';
    if (text.includes('(Tandem: Select Models picks the model).') && (await view.locator('body[data-running="false"]').count()) === 1) return text;
    if (Date.now() > deadline) throw new Error(`no complete demo answer #${answers} within 45 s (last: ${text.slice(0, 200)})`);
    await view.waitForTimeout(250);
  }
}

test('the demo model runs a whole question end to end with no key', { timeout: 120_000 }, async () => {
  assert.ok(session && server);
  try {
    const view = await session.webview();
    const first = await askAndWait(view, 'What does src/greet.ts export?', 1);
    assert.match(first, /This is Tandem's demo model/);
    assert.match(first, /What does src\/greet\.ts export\?/);
    assert.equal(await view.locator('[data-testid="welcome"]').isVisible(), false);

    const toolCalls = await view.locator('[data-testid="step"][data-kind="tool-call"]').allInnerTexts();
    assert.equal(toolCalls.length, 2);
    assert.match(toolCalls[0]!, /list_dir/);
    assert.match(toolCalls[1]!, /read_file/);
    const usage = await view.locator('[data-testid="usage"]').innerText();
    assert.match(usage, new RegExp(DEMO_FUNCTION_CALL_MODEL));
    assert.match(usage, new RegExp(DEMO_ANSWER_MODEL));
    await session.screenshot('demo-run');

    // The tools really ran in the demo workspace: their results reached the answer model.
    const answerRequest = server.requests.filter((request) => request.model === DEMO_ANSWER_MODEL).at(-1);
    assert.ok(answerRequest);
    assert.match(JSON.stringify(answerRequest.messages), /A small project to try Tandem on/);
    assert.ok(server.requests.every((request) => request.outcome === 'completed'));

    // Another question: the script serves it too.
    const second = await askAndWait(view, 'And what is in notes.md?', 2);
    assert.match(second, /And what is in notes\.md\?/);
  } catch (error) {
    await session.screenshot('demo-failure').catch(() => undefined);
    console.error(session.logs());
    console.error(JSON.stringify(server.requests.map(({ model, outcome, tools, servedTurn }) => ({ model, outcome, tools: tools?.length, servedTurn }))));
    throw error;
  }
});
