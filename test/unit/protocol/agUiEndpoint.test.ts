// A real AG-UI client (@ag-ui/client's HttpAgent) runs Tandem over HTTP + SSE:
// the loop with the workspace tools against the scripted model.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, it } from 'node:test';
import { HttpAgent } from '@ag-ui/client';
import { createPolicyApprovalGate } from '../../../src/agent/policyApprovalGate';
import { runAgent } from '../../../src/agent/runAgent';
import { SessionCache } from '../../../src/agent/sessionCache';
import { createChatModel } from '../../../src/models/openAiChatModel';
import { createAgUiEndpoint } from '../../../src/protocol/agUiEndpoint';
import { conversationOf } from '../../../src/protocol/agUiRunInput';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { settingsFor } from '../agent/agentTestSupport';
import { makeKit, type Kit } from '../tools/workspaceTestKit';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function serve(model: ScriptedModelServer, kit: Kit): Promise<string> {
  const settings = settingsFor(model);
  const cache = new SessionCache();
  const endpoint = createAgUiEndpoint((input, signal) =>
    runAgent(
      { threadId: input.threadId, runId: input.runId, messages: conversationOf(input) },
      {
        functionCallModel: createChatModel(settings.functionCallModel),
        answerModel: createChatModel(settings.answerModel),
        tools: kit.tools,
        approval: createPolicyApprovalGate('readOnly', async () => false),
        settings,
        cache,
      },
      signal,
    ),
  );
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));
  return `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`;
}

function workspace(): Kit {
  const kit = makeKit();
  cleanup.push(() => kit.dispose());
  writeFileSync(path.join(kit.root, 'notes.md'), '# Notes\n\nThe release is on Tuesday; the owner is Ada.\n');
  return kit;
}

it('serves a run to an AG-UI HttpAgent: tool call, result and streamed answer', async () => {
  const model = await startScriptedModelServer({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-1', name: 'read_file', arguments: { path: 'notes.md' } }] },
      { model: 'fc-model', content: 'The notes answer it.' },
      { model: 'answer-model', content: 'The release is on **Tuesday** (notes.md:3).' },
    ],
  });
  cleanup.push(() => model.close());
  const url = await serve(model, workspace());

  const agent = new HttpAgent({ url, initialMessages: [{ id: 'u1', role: 'user', content: 'When is the release?' }] });
  const seen: string[] = [];
  const { result, newMessages } = await agent.runAgent({ runId: 'r1' }, { onEvent: ({ event }) => void seen.push(event.type) });

  assert.deepEqual(result, { stopReason: 'noToolCall', answer: 'The release is on **Tuesday** (notes.md:3).' });
  const assistantTexts = newMessages.filter((message) => message.role === 'assistant').map((message) => message.content).filter(Boolean);
  assert.ok(assistantTexts.includes('The release is on **Tuesday** (notes.md:3).'), JSON.stringify(newMessages));
  const toolResult = newMessages.find((message) => message.role === 'tool');
  assert.match(String(toolResult?.content), /Tuesday; the owner is Ada/);
  assert.ok(newMessages.some((message) => message.role === 'assistant' && message.toolCalls?.[0]?.function.name === 'read_file'));
  assert.equal(seen[0], 'RUN_STARTED');
  assert.equal(seen.at(-1), 'RUN_FINISHED');
  assert.deepEqual(model.requests.map((request) => request.model), ['fc-model', 'fc-model', 'answer-model']);
  assert.equal(model.requests[0]?.messages.at(-1).content, 'When is the release?');
});

it('refuses a body that is not a RunAgentInput, naming the fault', async () => {
  const model = await startScriptedModelServer({ turns: [] });
  cleanup.push(() => model.close());
  const url = await serve(model, workspace());
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: 'nope' }) });
  assert.equal(response.status, 400);
  assert.match(((await response.json()) as { error: string }).error, /Not a RunAgentInput: .*threadId/);
  assert.equal((await fetch(url)).status, 405);
  assert.equal(model.requests.length, 0);
});

it('stops the run when the client goes away', async () => {
  const model = await startScriptedModelServer({ turns: [{ model: 'fc-model', content: 'word '.repeat(200), chunkDelayMs: 20 }] });
  cleanup.push(() => model.close());
  const url = await serve(model, workspace());
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ threadId: 't', runId: 'r', state: {}, messages: [{ id: 'u', role: 'user', content: 'Talk.' }], tools: [], context: [], forwardedProps: {} }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  // Abort once the model is streaming its thinking into the run.
  while (!received.includes('REASONING_MESSAGE_CONTENT')) {
    const chunk = await reader.read();
    assert.equal(chunk.done, false, 'the stream went on until the client left');
    received += decoder.decode(chunk.value, { stream: true });
  }
  assert.match(received, /^data: \{"type":"RUN_STARTED"/);
  controller.abort();
  await model.idle();
  assert.equal(model.requests[0]?.outcome, 'client-closed', 'the model stream was closed too');
});
