// The run's life beyond the happy path: an MCP call cancelled when the client
// leaves, a second run on a busy thread, a failing setup, interrupts that
// expire, and the bounded thread store.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { FAULT_SERVER, stdioServer } from '../mcp/mcpTestSupport';
import type { BaseEvent } from '@ag-ui/core';
import { runInput, sseEvents, startEndpoint, TOKEN, verify } from './agUiTestSupport';

let hub: McpHub;
before(async () => {
  hub = new McpHub();
  await hub.update([stdioServer('fault', [FAULT_SERVER])]);
});
after(() => hub.dispose());

async function waitFor(check: () => boolean, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function readUntil(response: Response, marker: string): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  while (!received.includes(marker)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    received += decoder.decode(chunk.value, { stream: true });
  }
  return received;
}

it('a client that leaves during an MCP call cancels the call on the MCP server', async () => {
  const endpoint = await startEndpoint({ policy: 'all', extraTools: () => hub.tools(), turns: [{ model: 'fc-model', toolCalls: [{ id: 'call-hang', name: 'fault__hang', arguments: {} }] }] });
  const controller = new AbortController();
  const response = await fetch(endpoint.url, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(runInput()),
  });
  assert.match(await readUntil(response, '"TOOL_CALL_END"'), /"toolCallName":"fault__hang"/);
  await waitFor(() => hub.statuses()[0]?.stderrTail.includes('hang: started') ?? false, 5_000, 'the MCP call started');
  controller.abort();
  await waitFor(() => hub.statuses()[0]?.stderrTail.includes('hang: cancelled by client') ?? false, 5_000, 'the MCP server saw the cancellation');
  assert.equal(endpoint.model.requests.length, 1, 'the loop did not go on');
});

it("a client that leaves mid-answer: the thread keeps what was streamed, marked as cut off, for the next run's models", async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: [
      { model: 'answer-model', content: Array.from({ length: 40 }, (_, index) => `word${index}`).join(' '), chunkDelayMs: 40 },
      { model: 'answer-model', content: 'It was cut off.' },
    ],
  });
  const controller = new AbortController();
  const response = await fetch(endpoint.url, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(runInput({ threadId: 'cut', runId: 'r1' })),
  });
  await readUntil(response, 'word3');
  controller.abort();
  let next: Awaited<ReturnType<typeof sseEvents>> = [];
  await waitFor(() => endpoint.model.requests.length === 1, 5_000, 'the first request');
  // The thread frees once the cancelled run has ended; then only the new message is sent.
  for (let attempt = 0; attempt < 50; attempt++) {
    next = await sseEvents(await endpoint.post(runInput({ threadId: 'cut', runId: 'r2', messages: [{ id: 'u2', role: 'user', content: 'What happened?' }] })));
    if (next.at(-1)?.code !== 'THREAD_BUSY') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(next.at(-1)?.type, 'RUN_FINISHED');
  const assistant = (endpoint.model.requests[1]?.messages as { role: string; content: string }[]).filter((message) => message.role === 'assistant');
  assert.equal(assistant.length, 1);
  assert.match(assistant[0]!.content, /^word0 word1 word2 word3[\s\S]*\n\n\[Tandem: this answer was cut off here; its run was cancelled before it finished\.\]$/);
  assert.doesNotMatch(assistant[0]!.content, /word39/);
});

it('refuses a second run on a thread whose run is streaming, with RUN_ERROR THREAD_BUSY', async () => {
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, turns: [{ model: 'answer-model', content: 'slow '.repeat(30), chunkDelayMs: 10 }] });
  const first = endpoint.post(runInput({ threadId: 'busy', runId: 'r1' }));
  await waitFor(() => endpoint.model.requests.length === 1, 5_000, 'the first run reached the model');
  const second = await sseEvents(await endpoint.post(runInput({ threadId: 'busy', runId: 'r2' })));
  assert.deepEqual([second[0]?.type, second.at(-1)?.type, second.at(-1)?.code], ['RUN_STARTED', 'RUN_ERROR', 'THREAD_BUSY']);
  assert.equal((await sseEvents(await first)).at(-1)?.type, 'RUN_FINISHED');
});

it('a setup that fails (say, settings that cannot be used) ends the run with RUN_ERROR CONFIGURATION_ERROR', async () => {
  const endpoint = await startEndpoint({
    runner: {
      prepare: async () => {
        throw new Error('tandem.functionCallModel.baseUrl is not reachable');
      },
    },
  });
  const last = (await sseEvents(await endpoint.post(runInput()))).at(-1);
  assert.deepEqual([last?.type, last?.message, last?.code], ['RUN_ERROR', 'tandem.functionCallModel.baseUrl is not reachable', 'CONFIGURATION_ERROR']);
});

it('what the setup says (MCP servers starting or failing) reaches the client as tandem.notice events before the run goes on', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    turns: [{ model: 'answer-model', content: 'Answered without it.' }],
    prepareNotices: [
      ['mcpStarting', 'Waiting for MCP server "slow" to start; the run begins once each has connected or failed.', 'info'],
      ['mcpFailed', 'An MCP server did not start. "slow": it timed out. This run goes on without its tools; the next run tries again.', 'warning'],
    ],
  });
  const events = await sseEvents(await endpoint.post(runInput()));
  await verify(events as BaseEvent[]);
  const notices = events.filter((event) => event.type === 'CUSTOM' && event.name === 'tandem.notice').map((event) => [event.value.code, event.value.level]);
  assert.deepEqual(notices, [['mcpStarting', 'info'], ['mcpFailed', 'warning']]);
  const firstNotice = events.findIndex((event) => event.type === 'CUSTOM' && event.name === 'tandem.notice');
  assert.ok(firstNotice > 0 && firstNotice < events.findIndex((event) => event.type === 'TEXT_MESSAGE_START'), events.map((event) => event.type).join(', '));
  assert.equal(events.at(-1)?.type, 'RUN_FINISHED');
});

it('an interrupt nobody answers expires: the loop ends and a late resume is refused', async () => {
  const pickDate = { name: 'pick_date', description: 'Pick a date.', parameters: { type: 'object', properties: {} } };
  const endpoint = await startEndpoint({
    runner: { interruptTtlMs: 200 },
    turns: [{ model: 'fc-model', toolCalls: [{ id: 'call-date', name: 'pick_date', arguments: {} }] }],
  });
  const text = await (await endpoint.post(runInput({ threadId: 'late', tools: [pickDate] }))).text();
  const interruptId = /"interrupts":\[\{"id":"([^"]+)"/.exec(text)?.[1];
  assert.ok(interruptId, text);
  await new Promise((resolve) => setTimeout(resolve, 400));
  const late = await sseEvents(await endpoint.post(runInput({ threadId: 'late', runId: 'r2', tools: [pickDate], resume: [{ interruptId, status: 'resolved', payload: 'x' }] })));
  assert.equal(late.at(-1)?.code, 'UNKNOWN_INTERRUPT');
  assert.equal(endpoint.model.requests.length, 1);
});

it('keeps a bounded number of threads: the least recently used one is forgotten', async () => {
  const endpoint = await startEndpoint({
    settings: { mode: 'chat' },
    runner: { maxThreads: 2 },
    turns: ['one', 'two', 'three', 'again'].map((word) => ({ model: 'answer-model', content: `Answer ${word}.` })),
  });
  for (const [thread, question] of [['a', 'Q1'], ['b', 'Q2'], ['c', 'Q3']] as const) {
    await sseEvents(await endpoint.post(runInput({ threadId: thread, runId: `run-${thread}`, messages: [{ id: `${thread}-1`, role: 'user', content: question }] })));
  }
  await sseEvents(await endpoint.post(runInput({ threadId: 'a', runId: 'run-a2', messages: [{ id: 'a-2', role: 'user', content: 'Q4' }] })));
  const sent = endpoint.model.requests[3]!.messages.filter((message: any) => message.role !== 'system').map((message: any) => message.content);
  assert.deepEqual(sent, ['Q4'], 'thread a was evicted, so only the new message is known');
});

it('a client that leaves while its run is prepared frees the thread at once, not when the preparation ends', async () => {
  // The preparation (MCP servers starting, say) takes 4 s here.
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, prepareDelayMs: 4_000, turns: [{ model: 'answer-model', content: 'The second run answers.' }] });
  const controller = new AbortController();
  const left = fetch(endpoint.url, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(runInput({ threadId: 'leaving', runId: 'r1' })),
  }).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 200));
  controller.abort();
  await left;
  const leftAt = Date.now();
  // The endpoint notices the closed connection within moments: until then a new run may still meet THREAD_BUSY.
  let ending: Record<string, any> | undefined;
  for (;;) {
    const started = Date.now();
    const events = await sseEvents(await endpoint.post(runInput({ threadId: 'leaving', runId: `r2-${started}` })));
    ending = events.at(-1);
    if (ending?.code !== 'THREAD_BUSY' || Date.now() - leftAt > 3_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.notEqual(ending?.code, 'THREAD_BUSY', 'the thread was still busy 3 s after its client left');
  assert.equal(ending?.result?.answer, 'The second run answers.');
  assert.equal(endpoint.model.requests.length, 1, 'the run whose client left asked no model');
});

it('two runs posted together on one thread: one runs, the other gets THREAD_BUSY (even while the first still prepares)', async () => {
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, prepareDelayMs: 100, turns: [{ model: 'answer-model', content: 'Only once.' }] });
  const [first, second] = await Promise.all([
    endpoint.post(runInput({ threadId: 'race', runId: 'r1' })).then(sseEvents),
    endpoint.post(runInput({ threadId: 'race', runId: 'r2' })).then(sseEvents),
  ]);
  const endings = [first.at(-1), second.at(-1)].map((event) => (event?.type === 'RUN_ERROR' ? event.code : event?.result?.answer)).sort();
  assert.deepEqual(endings, ['Only once.', 'THREAD_BUSY']);
});
