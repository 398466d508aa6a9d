// Issue 2, "Checked by": a question asked in the panel inside code-server,
// against a scripted model that calls a tool twice, ends with an answer
// streamed by the answer model, and the model names in the server's log match
// the phases (tool phase: function-call model; answer: answer model).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../fixtures/scriptedModelServer';
import { launchVsCode, type VsCodeSession } from './harness';

const functionCallModel = 'fc-model';
const answerModel = 'answer-model';
const answerText = 'The workspace holds notes.md and src. The notes say the launch is on Friday at noon.';
const notesText = '# Launch notes\n\nThe launch is on Friday at noon, in the small meeting room.\n';

let server: ScriptedModelServer | undefined;
let session: VsCodeSession | undefined;
let workspace: string;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-agent-run-'));
  fs.writeFileSync(path.join(workspace, 'notes.md'), notesText);
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src', 'app.ts'), 'export const launchDay = "Friday";\n');
  server = await startScriptedModelServer({
    turns: [
      { model: functionCallModel, reasoning: 'I should look at the files first.', toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
      { model: functionCallModel, toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
      // Only served if the loop asks the function-call model a third time.
      { model: functionCallModel, content: 'I have what I need to answer.' },
      { model: answerModel, content: answerText },
    ],
  });
  session = await launchVsCode({
    workspace,
    settings: {
      'tandem.functionCallModel.baseUrl': server.baseUrl,
      'tandem.functionCallModel.model': functionCallModel,
      'tandem.answerModel.model': answerModel,
      'tandem.agent.mode': 'agent',
      'tandem.agent.responseMode': 'integrated',
    },
  });
});

after(async () => {
  await session?.close();
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

test('a question runs two tools with the function-call model and the answer model streams the answer', { timeout: 180_000 }, async () => {
  assert.ok(session && server);
  try {
    const view = await session.webview();
    await view.locator('[data-testid="prompt"]').fill('When is the launch, according to my notes?');
    await view.locator('[data-testid="send"]').click();

    const answer = view.locator('[data-testid="answer"]').last();
    await answer.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => normalise(await answer.innerText()).includes(answerText), 60_000, 'the full answer text');
    await session.screenshot('agent-run-answer');

    // The panel shows both tool calls, attributed to the function-call model.
    const toolCalls = view.locator('[data-testid="step"][data-kind="tool-call"]');
    assert.equal(await toolCalls.count(), 2);
    const toolCallText = (await toolCalls.allInnerTexts()).join('\n');
    assert.match(toolCallText, /list_dir/);
    assert.match(toolCallText, /read_file/);
    for (const role of await toolCalls.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['model']))) {
      assert.equal(role, 'function-call');
    }
    const answerStep = view.locator('[data-testid="step"][data-kind="answer"]').last();
    assert.equal(await answerStep.getAttribute('data-model'), 'answer');

    // The server's log: which model served which phase.
    const requests = server.requests.filter((request) => request.path.endsWith('/chat/completions'));
    const toolPhase = requests.filter((request) => (request.tools?.length ?? 0) > 0);
    assert.ok(toolPhase.length >= 2, `expected at least two tool-phase requests, saw ${toolPhase.length}`);
    assert.deepEqual([...new Set(toolPhase.map((request) => request.model))], [functionCallModel]);
    const answerRequests = requests.filter((request) => request.model === answerModel);
    assert.equal(answerRequests.length, 1, 'the answer model answers exactly once');
    const answerRequest = answerRequests[0]!;
    assert.equal(answerRequest.stream, true, 'the answer is streamed');
    assert.equal(requests.at(-1), answerRequest, 'the answer request comes last');
    assert.ok(requests.every((request) => request.outcome === 'completed'), 'every request completed');

    // The tools really ran in the workspace: their results reached the models.
    const secondToolRequest = toolPhase[1]!;
    assert.match(JSON.stringify(secondToolRequest.messages), /notes\.md/, 'list_dir result missing from the context');
    assert.match(JSON.stringify(answerRequest.messages), /launch is on Friday at noon/, 'read_file result missing from the answer context');
  } catch (error) {
    await session.screenshot('agent-run-failure').catch(() => undefined);
    console.error(session.logs());
    console.error(JSON.stringify(server.requests.map(({ model, path: route, outcome, stream }) => ({ model, route, outcome, stream }))));
    throw error;
  }
});

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function waitFor(check: () => Promise<boolean>, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out after ${limitMs / 1000} s waiting for ${what}`);
}
