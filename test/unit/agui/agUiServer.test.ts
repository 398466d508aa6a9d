// The AG-UI endpoint with @ag-ui/client's HttpAgent as the real client:
// text and workspace-tool runs, state, usage, errors, history per thread,
// the binary framing, and 100 concurrent runs on loopback.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decode } from '@ag-ui/proto';
import { AGUI_MEDIA_TYPE } from '@ag-ui/encoder';
import type { BaseEvent } from '@ag-ui/core';
import { collect, finishedOf, runInput, sseEvents, startEndpoint, typesOf, verify } from './agUiTestSupport';

it('streams a text run: real token deltas, state echoed, usage per model with cached input', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: [{ model: 'answer-model', content: 'Hello there, Ada.', usage: { prompt_tokens: 40, completion_tokens: 5, cached_tokens: 32 } }],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Say hello.' }], state: { page: 'home' } });
  const { events, result, newMessages } = await collect(agent);

  assert.deepEqual(result, { stopReason: 'chatMode', answer: 'Hello there, Ada.' });
  const deltas = events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map((event) => (event as any).delta);
  assert.ok(deltas.length >= 3, `streamed in pieces: ${JSON.stringify(deltas)}`);
  assert.equal(deltas.join(''), 'Hello there, Ada.');
  const snapshot = events.find((event) => event.type === 'STATE_SNAPSHOT') as any;
  assert.deepEqual(snapshot?.snapshot, { page: 'home' });
  assert.deepEqual(agent.state, { page: 'home' });
  const finished = finishedOf(events);
  assert.deepEqual(finished.outcome, { type: 'success' });
  assert.deepEqual(finished.usage, [{ model: 'answer-model', inputTokens: 40, outputTokens: 5, totalTokens: 45, cachedInputTokens: 32 }]);
  assert.ok(newMessages.some((message) => message.role === 'assistant' && message.content === 'Hello there, Ada.'));
});

it('runs the workspace tools and lists both models in the usage', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-1', name: 'read_file', arguments: { path: 'notes.md' } }], usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { model: 'fc-model', content: 'The notes answer it.', usage: { prompt_tokens: 150, completion_tokens: 6, cached_tokens: 100 } },
      { model: 'answer-model', content: 'The release is on **Tuesday** (notes.md:3).', usage: { prompt_tokens: 200, completion_tokens: 12 } },
    ],
  });
  const { events, result, newMessages } = await collect(endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'When is the release?' }] }));
  assert.deepEqual(result, { stopReason: 'noToolCall', answer: 'The release is on **Tuesday** (notes.md:3).' });
  assert.match(String(newMessages.find((message) => message.role === 'tool')?.content), /Tuesday; the owner is Ada/);
  assert.deepEqual(finishedOf(events).usage, [
    { model: 'fc-model', inputTokens: 250, outputTokens: 16, totalTokens: 266, cachedInputTokens: 100 },
    { model: 'answer-model', inputTokens: 200, outputTokens: 12, totalTokens: 212, cachedInputTokens: 0 },
  ]);
  assert.deepEqual(endpoint.model.requests.map((request) => request.model), ['fc-model', 'fc-model', 'answer-model']);
});

it('ends a failing run with RUN_ERROR and a code, never a broken stream', async () => {
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, turns: [{ model: 'answer-model', fault: { kind: 'status', status: 400 } }] });
  const events: BaseEvent[] = [];
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Hi' }] });
  let failed: unknown;
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event), onRunFailed: ({ error }) => void (failed = error) }).catch((error: unknown) => (failed ??= error));
  await verify(events);
  const last = events.at(-1) as Record<string, any>;
  assert.equal(last.type, 'RUN_ERROR', JSON.stringify(typesOf(events)));
  assert.equal(last.code, 'MODEL_API_ERROR');
  assert.match(last.message, /400/);
  assert.equal(typesOf(events)[0], 'RUN_STARTED');
  void failed;
});

it('keeps the history of a thread for clients that send only their new message', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: [
      { model: 'answer-model', content: 'The capital is Paris.' },
      { model: 'answer-model', content: 'About two million people.' },
    ],
  });
  const first = await sseEvents(await endpoint.post(runInput({ threadId: 'geo', runId: 'r1', messages: [{ id: 'q1', role: 'user', content: 'Capital of France?' }] })));
  assert.equal(first.at(-1)?.type, 'RUN_FINISHED');
  const second = await sseEvents(await endpoint.post(runInput({ threadId: 'geo', runId: 'r2', messages: [{ id: 'q2', role: 'user', content: 'How many live there?' }] })));
  assert.equal(second.at(-1)?.result?.answer, 'About two million people.');
  const sent = endpoint.model.requests[1]!.messages.map((message: any) => `${message.role}: ${message.content}`);
  assert.deepEqual(sent.slice(1), ['user: Capital of France?', 'assistant: The capital is Paris.', 'user: How many live there?']);
});

it('serves the binary framing of @ag-ui/encoder when Accept names it', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: [
      { model: 'answer-model', content: 'Binary hello.' },
      { model: 'answer-model', content: 'Plain hello.' },
    ],
  });
  const response = await endpoint.post(runInput(), { accept: AGUI_MEDIA_TYPE });
  assert.equal(response.headers.get('content-type'), AGUI_MEDIA_TYPE);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const types: string[] = [];
  let text = '';
  for (let offset = 0; offset < bytes.length; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0, false);
    const event = decode(bytes.subarray(offset + 4, offset + 4 + length)) as any;
    types.push(event.type);
    if (event.type === 'TEXT_MESSAGE_CONTENT') text += event.delta;
    offset += 4 + length;
  }
  assert.equal(types[0], 'RUN_STARTED');
  assert.equal(types.at(-1), 'RUN_FINISHED');
  assert.equal(text, 'Binary hello.');
  const plain = await endpoint.post(runInput({ threadId: 't2' }), { accept: '*/*' });
  assert.equal(plain.headers.get('content-type'), 'text/event-stream');
  assert.equal((await sseEvents(plain)).at(-1)?.result?.answer, 'Plain hello.');
});

it('keeps a quiet stream open with SSE comments that the real client skips; the binary framing gets none', async () => {
  const slow = { model: 'answer-model', content: 'Worth the wait.', firstByteDelayMs: 400 };
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, keepAliveMs: 60, turns: [slow, slow, slow] });
  const raw = await (await endpoint.post(runInput())).text();
  const comments = raw.split('\n\n').filter((frame) => frame.startsWith(': keep-alive'));
  assert.ok(comments.length >= 3, `comments while the model is silent for 400 ms: ${comments.length}\n${raw.slice(0, 400)}`);
  assert.ok(raw.indexOf(': keep-alive') > raw.indexOf('RUN_STARTED'), 'the comments come while the run waits, after it started');

  const { events, result } = await collect(endpoint.agent({ threadId: 'kept', messages: [{ id: 'u1', role: 'user', content: 'Hi' }] }));
  await verify(events);
  assert.deepEqual(result, { stopReason: 'chatMode', answer: 'Worth the wait.' });

  const binary = await endpoint.post(runInput({ threadId: 'binary' }), { accept: AGUI_MEDIA_TYPE });
  const bytes = new Uint8Array(await binary.arrayBuffer());
  let frames = 0;
  for (let offset = 0; offset < bytes.length; frames++) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0, false);
    decode(bytes.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  assert.ok(frames >= 4, `whole frames only: ${frames}`);
});

it('runs 100 concurrent runs on loopback, each with its own answer', async () => {
  const count = 100;
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: Array.from({ length: count }, () => ({ model: 'answer-model', content: 'Answer to {{lastUser}}' })),
  });
  const runs = Array.from({ length: count }, async (_, index) => {
    const agent = endpoint.agent({ messages: [{ id: `u${index}`, role: 'user', content: `question ${index}` }] });
    const { events, result } = await collect(agent, { runId: `run-${index}` });
    assert.equal(typesOf(events).at(-1), 'RUN_FINISHED');
    return (result as { answer: string }).answer;
  });
  const answers = await Promise.all(runs);
  answers.forEach((answer, index) => assert.equal(answer, `Answer to question ${index}`));
});

it('passes the input context and the client instructions to the models', async () => {
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, turns: [{ model: 'answer-model', content: 'Noted.' }] });
  const response = await endpoint.post(
    runInput({
      messages: [
        { id: 's1', role: 'system', content: 'Answer in French.' },
        { id: 'u1', role: 'user', content: 'Hello?' },
      ],
      context: [{ description: 'current page', value: '/settings' }],
    }),
  );
  assert.equal((await sseEvents(response)).at(-1)?.result?.answer, 'Noted.');
  // One user turn on the wire: the context, the instructions, then the message.
  const sent = endpoint.model.requests[0]!.messages.slice(1).map((message: any) => message.content);
  assert.deepEqual(sent, ['Context from the client application:\n- current page: /settings\n\nInstructions from the client application:\nAnswer in French.\n\nHello?']);
});

it('a server that shuts down ends each open stream with RUN_ERROR SERVER_SHUTDOWN and stops its run', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: [{ model: 'answer-model', content: 'A long answer, word after word, that the shutdown will cut. '.repeat(20), chunkDelayMs: 100 }],
  });
  const response = await endpoint.post(runInput({ threadId: 'shutdown', runId: 'r1' }));
  const events = sseEvents(response);
  await until(() => endpoint.model.requests.length === 1 && endpoint.model.requests[0]!.chunkSentAt.length > 2, 'the answer to stream');
  endpoint.server.endOpenRuns('The AG-UI server is shutting down; the run was stopped.');
  const received = await events;
  assert.deepEqual([received.at(-1)?.type, received.at(-1)?.code, received.at(-1)?.message], ['RUN_ERROR', 'SERVER_SHUTDOWN', 'The AG-UI server is shutting down; the run was stopped.']);
  assert.ok(received.some((event) => event.type === 'TEXT_MESSAGE_CONTENT'), 'it was cut mid-answer');
  await until(() => endpoint.model.requests[0]!.outcome === 'client-closed', 'the model request to be aborted');
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}
