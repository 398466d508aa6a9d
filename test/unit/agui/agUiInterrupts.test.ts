// Interrupts over AG-UI with HttpAgent as the client: a frontend tool call
// ends the run with an interrupt and the run carrying `resume` continues the
// same loop; approvals do the same (resolved = approve, cancelled = reject);
// several calls of one reply are all handled.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { it } from 'node:test';
import type { Interrupt, Tool as AgUiTool } from '@ag-ui/core';
import type { Tool } from '../../../src/tools/tool';
import { collect, finishedOf, runInput, sseEvents, startEndpoint, typesOf } from './agUiTestSupport';

const pickDate: AgUiTool = {
  name: 'pick_date',
  description: 'Asks the user to pick a date in the page.',
  parameters: { type: 'object', properties: { purpose: { type: 'string' } }, required: ['purpose'] },
};
const showMap: AgUiTool = { name: 'show_map', description: 'Shows a map of a city in the page.', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

function interruptsOf(finished: Record<string, any>): Interrupt[] {
  assert.equal(finished.outcome?.type, 'interrupt', JSON.stringify(finished));
  return finished.outcome.interrupts as Interrupt[];
}

it('a frontend tool call ends the run with an interrupt; the resume carries its result and the loop goes on', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-date', name: 'pick_date', arguments: { purpose: 'release' } }], usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { model: 'fc-model', content: 'The user picked a date.', usage: { prompt_tokens: 80, completion_tokens: 4 } },
      { model: 'answer-model', content: 'The release is on 2026-12-01.', usage: { prompt_tokens: 90, completion_tokens: 9 } },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Plan the release date.' }] });
  const first = await collect(agent, { tools: [pickDate] });
  const finished = finishedOf(first.events);
  const [interrupt] = interruptsOf(finished);
  assert.equal(interrupt?.reason, 'tool_call');
  assert.equal(interrupt?.toolCallId, 'call-date');
  assert.ok(interrupt?.expiresAt && Date.parse(interrupt.expiresAt) > Date.now());
  assert.ok(typesOf(first.events).includes('TOOL_CALL_END'));
  assert.ok(!typesOf(first.events).includes('TOOL_CALL_RESULT'), 'the frontend runs the tool');
  assert.deepEqual(finished.usage, [{ model: 'fc-model', inputTokens: 50, outputTokens: 5, totalTokens: 55, cachedInputTokens: 0 }]);
  assert.equal(agent.pendingInterrupts.length, 1);
  assert.equal(endpoint.model.requests.length, 1, 'the loop waits for the client');
  // AG-UI's rule at the boundary: the messages and the state come before the interrupt.
  assert.deepEqual(typesOf(first.events).slice(-3), ['MESSAGES_SNAPSHOT', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
  const snapshot = first.events.at(-3) as any;
  assert.deepEqual(
    snapshot.messages.map((message: any) => [message.id, message.role]),
    [
      ['u1', 'user'],
      ['call-date', 'assistant'],
    ],
  );
  assert.equal(snapshot.messages[1].toolCalls[0].function.arguments, '{"purpose":"release"}');
  assert.deepEqual(
    agent.messages.filter((message) => message.role !== 'reasoning').map((message) => message.id),
    ['u1', 'call-date'],
    'the client keeps its conversation',
  );

  const second = await collect(agent, { tools: [pickDate], resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { date: '2026-12-01' } }] });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'The release is on 2026-12-01.' });
  const result = second.events.find((event) => event.type === 'TOOL_CALL_RESULT') as any;
  assert.equal(result.toolCallId, 'call-date');
  assert.equal(result.content, '{"date":"2026-12-01"}');
  const toolMessage = endpoint.model.requests[1]!.messages.find((message: any) => message.role === 'tool');
  assert.deepEqual([toolMessage.tool_call_id, toolMessage.content], ['call-date', '{"date":"2026-12-01"}']);
  // The resumed run reports only its own calls.
  assert.deepEqual(finishedOf(second.events).usage, [
    { model: 'fc-model', inputTokens: 80, outputTokens: 4, totalTokens: 84, cachedInputTokens: 0 },
    { model: 'answer-model', inputTokens: 90, outputTokens: 9, totalTokens: 99, cachedInputTokens: 0 },
  ]);
  // So do Tandem's own usage events: a client adding each run's last one up counts every call once.
  const lastUsage = (events: readonly any[]) => events.filter((event) => event.type === 'CUSTOM' && event.name === 'tandem.usage').at(-1)?.value;
  assert.deepEqual([lastUsage(first.events).functionCall.calls, lastUsage(first.events).functionCall.promptTokens], [1, 50]);
  const resumed = lastUsage(second.events);
  assert.deepEqual([resumed.functionCall.calls, resumed.functionCall.promptTokens, resumed.answer.calls, resumed.answer.promptTokens], [1, 80, 1, 90]);
  assert.equal(agent.pendingInterrupts.length, 0);
});

it('two tool calls in one reply: both frontend calls interrupt together, both results reach the model', async () => {
  const endpoint = await startEndpoint({
    settings: { minResultLength: 0 },
    turns: [
      {
        model: 'fc-model',
        toolCalls: [
          { id: 'call-a', name: 'pick_date', arguments: { purpose: 'trip' } },
          { id: 'call-b', name: 'show_map', arguments: { city: 'Lyon' } },
        ],
      },
      { model: 'fc-model', content: 'Both done.' },
      { model: 'answer-model', content: 'Lyon on Friday.' },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Plan a trip.' }] });
  const first = await collect(agent, { tools: [pickDate, showMap] });
  const interrupts = interruptsOf(finishedOf(first.events));
  assert.deepEqual(interrupts.map((interrupt) => interrupt.toolCallId).sort(), ['call-a', 'call-b']);

  // A partial resume is refused with RUN_ERROR; nothing is lost.
  const partial = await sseEvents(await endpoint.post(runInput({ threadId: agent.threadId, runId: 'partial', resume: [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: 'x' }] })));
  assert.deepEqual([partial.at(-1)?.type, partial.at(-1)?.code], ['RUN_ERROR', 'RESUME_INCOMPLETE']);

  const answers = Object.fromEntries(interrupts.map((interrupt) => [interrupt.toolCallId, interrupt.id]));
  const second = await collect(agent, {
    tools: [pickDate, showMap],
    resume: [
      { interruptId: answers['call-a']!, status: 'resolved', payload: 'Friday' },
      { interruptId: answers['call-b']!, status: 'resolved', payload: { shown: true } },
    ],
  });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'Lyon on Friday.' });
  const toolMessages = endpoint.model.requests[1]!.messages.filter((message: any) => message.role === 'tool').map((message: any) => [message.tool_call_id, message.content]);
  assert.deepEqual(toolMessages, [
    ['call-a', 'Friday'],
    ['call-b', '{"shown":true}'],
  ]);
});

it('a read and a frontend call in one reply: the read runs, the frontend call interrupts', async () => {
  const endpoint = await startEndpoint({
    turns: [
      {
        model: 'fc-model',
        toolCalls: [
          { id: 'call-read', name: 'read_file', arguments: { path: 'notes.md' } },
          { id: 'call-date', name: 'pick_date', arguments: { purpose: 'release' } },
        ],
      },
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'Ada ships on the picked date.' },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Who ships when?' }] });
  const first = await collect(agent, { tools: [pickDate] });
  const results = first.events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event: any) => event.toolCallId);
  assert.deepEqual(results, ['call-read']);
  const snapshot = first.events.find((event) => event.type === 'MESSAGES_SNAPSHOT') as any;
  assert.deepEqual(
    snapshot.messages.map((message: any) => message.toolCallId ?? message.id),
    ['u1', 'call-read', 'call-read', 'call-date'],
    'each result right after its call, as the client holds them',
  );
  const [interrupt] = interruptsOf(finishedOf(first.events));
  const second = await collect(agent, { tools: [pickDate], resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: 'Monday' }] });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'Ada ships on the picked date.' });
  const contents = endpoint.model.requests[1]!.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.content);
  assert.match(contents[0], /Tuesday; the owner is Ada/);
  assert.equal(contents[1], 'Monday');
});

it('an edit that needs approval interrupts; resolved approves and the file is written', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-write', name: 'write_file', arguments: { path: 'plan.md', content: '# Plan\nShip on Tuesday.\n' } }] },
      { model: 'fc-model', content: 'Written.' },
      { model: 'answer-model', content: 'I wrote plan.md.' },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Write the plan.' }] });
  const first = await collect(agent);
  const [interrupt] = interruptsOf(finishedOf(first.events));
  assert.equal(interrupt?.reason, 'tool_call');
  assert.equal(interrupt?.toolCallId, 'call-write');
  assert.deepEqual(interrupt?.responseSchema?.['required'], ['approved']);
  assert.equal((interrupt?.metadata as any)?.tandem?.after, '# Plan\nShip on Tuesday.\n');
  assert.equal(existsSync(path.join(endpoint.kit.root, 'plan.md')), false, 'nothing written before the approval');

  // The run's own tandem.approval event (pending) precedes the interrupt, with the same approval id.
  const pending = first.events.find((event: any) => event.type === 'CUSTOM' && event.name === 'tandem.approval') as any;
  assert.deepEqual([pending?.value.status, pending?.value.toolCallId, pending?.value.tool], ['pending', 'call-write', 'write_file']);
  assert.equal((interrupt?.metadata as any)?.tandem?.approvalId, pending.value.id);

  const second = await collect(agent, { resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }] });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'I wrote plan.md.' });
  assert.equal(readFileSync(path.join(endpoint.kit.root, 'plan.md'), 'utf8'), '# Plan\nShip on Tuesday.\n');
  const decided = second.events.find((event: any) => event.type === 'CUSTOM' && event.name === 'tandem.approval') as any;
  assert.deepEqual([decided?.value.id, decided?.value.status], [pending.value.id, 'approved']);
  const status = second.events.find((event: any) => event.type === 'CUSTOM' && event.name === 'tandem.toolStatus') as any;
  assert.equal(status.value.status, 'done');
});

it('a cancelled approval rejects: the file is not written and the model is told', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-delete', name: 'delete_file', arguments: { path: 'notes.md' } }] },
      { model: 'fc-model', content: 'The user said no.' },
      { model: 'answer-model', content: 'I left notes.md alone.' },
    ],
    policy: 'all', // a delete asks whatever the policy says
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Delete the notes.' }] });
  const first = await collect(agent);
  const [interrupt] = interruptsOf(finishedOf(first.events));
  assert.equal(interrupt?.toolCallId, 'call-delete');
  const second = await collect(agent, { resume: [{ interruptId: interrupt!.id, status: 'cancelled' }] });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'I left notes.md alone.' });
  assert.ok(existsSync(path.join(endpoint.kit.root, 'notes.md')));
  const toolMessage = endpoint.model.requests[1]!.messages.find((message: any) => message.role === 'tool');
  assert.match(toolMessage.content, /reject/i);
});

it('a resume that brings a new user message is refused with a reason, not run without it; the thread still takes a plain resume', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-delete', name: 'delete_file', arguments: { path: 'notes.md' } }] },
      { model: 'fc-model', content: 'The user said no.' },
      { model: 'answer-model', content: 'I left notes.md alone.' },
    ],
    policy: 'all',
  });
  const input = runInput({ threadId: 'mixed', runId: 'r1', messages: [{ id: 'u1', role: 'user', content: 'Delete the notes.' }] });
  const [interrupt] = interruptsOf((await sseEvents(await endpoint.post(input))).at(-1) ?? {});
  assert.ok(interrupt);
  const withQuestion = { ...input, runId: 'r2', messages: [...input.messages, { id: 'u2', role: 'user' as const, content: 'Never mind. What is 2+2?' }], resume: [{ interruptId: interrupt.id, status: 'cancelled' as const }] };
  const refused = (await sseEvents(await endpoint.post(withQuestion))).at(-1);
  assert.equal(refused?.type, 'RUN_ERROR');
  assert.equal(refused?.code, 'MESSAGE_WHILE_INTERRUPTED');
  assert.match(refused?.message, /new user message \(u2\)/);
  assert.equal(endpoint.model.requests.length, 1, 'the model was not asked again');
  const resumed = (await sseEvents(await endpoint.post({ ...input, runId: 'r3', resume: [{ interruptId: interrupt.id, status: 'cancelled' }] }))).at(-1);
  assert.equal(resumed?.result?.answer, 'I left notes.md alone.');
  assert.ok(existsSync(path.join(endpoint.kit.root, 'notes.md')));
});

it('twenty calls in one reply, ten frontend calls and ten reads that ask: one interrupt holds all twenty (more than the eight at work at once)', async () => {
  const frontend = Array.from({ length: 10 }, (_, index) => ({ id: `call-map-${index}`, name: 'show_map', arguments: { city: `City ${index}` } }));
  const reads = Array.from({ length: 10 }, (_, index) => ({ id: `call-list-${index}`, name: 'list_dir', arguments: { path: '.', depth: index + 1 } }));
  const endpoint = await startEndpoint({
    policy: 'none',
    settings: { minResultLength: 0 },
    turns: [
      { model: 'fc-model', toolCalls: [...frontend, ...reads] },
      { model: 'fc-model', content: 'All done.' },
      { model: 'answer-model', content: 'Ten maps, ten listings.' },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Maps and listings.' }] });
  const first = await collect(agent, { tools: [showMap] });
  const interrupts = interruptsOf(finishedOf(first.events));
  const expected = [...frontend, ...reads].map((call) => call.id);
  assert.deepEqual(interrupts.map((interrupt) => interrupt.toolCallId).sort(), [...expected].sort());
  const second = await collect(agent, {
    tools: [showMap],
    resume: interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved' as const, payload: interrupt.toolCallId!.startsWith('call-map') ? 'shown' : { approved: true } })),
  });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'Ten maps, ten listings.' });
  const answered = endpoint.model.requests[1]!.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.tool_call_id);
  assert.deepEqual(answered, expected, 'every call has its result, in order');
});

it('under autoApprove none a read asks too: the interrupt is bound to its call; approved:false rejects', async () => {
  const endpoint = await startEndpoint({
    policy: 'none',
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-list', name: 'list_dir', arguments: { path: '.' } }] },
      { model: 'fc-model', content: 'No listing.' },
      { model: 'answer-model', content: 'I could not look.' },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'What is here?' }] });
  const [interrupt] = interruptsOf(finishedOf((await collect(agent)).events));
  assert.equal(interrupt?.toolCallId, 'call-list');
  const second = await collect(agent, { resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: false } }] });
  const status = second.events.find((event: any) => event.type === 'CUSTOM' && event.name === 'tandem.toolStatus') as any;
  assert.equal(status.value.status, 'rejected');
});

it('a thread with pending interrupts refuses input without resume (RUN_ERROR), and a tool message answers a frontend call', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-date', name: 'pick_date', arguments: { purpose: 'x' } }] },
      { model: 'fc-model', content: 'Got it.' },
      { model: 'answer-model', content: 'Thursday it is.' },
    ],
  });
  const input = runInput({ threadId: 'hitl', runId: 'r1', tools: [pickDate] });
  assert.equal((await sseEvents(await endpoint.post(input))).at(-1)?.outcome?.type, 'interrupt');
  const blocked = (await sseEvents(await endpoint.post({ ...input, runId: 'r2' }))).at(-1);
  assert.deepEqual([blocked?.type, blocked?.code], ['RUN_ERROR', 'INTERRUPT_PENDING']);
  const unknown = (await sseEvents(await endpoint.post({ ...input, runId: 'r3', resume: [{ interruptId: 'int-nope', status: 'resolved' }] }))).at(-1);
  assert.equal(unknown?.code, 'UNKNOWN_INTERRUPT');
  const answered = (await sseEvents(await endpoint.post({ ...input, runId: 'r4', messages: [...input.messages, { id: 't1', role: 'tool', toolCallId: 'call-date', content: 'Thursday' }] }))).at(-1);
  assert.equal(answered?.result?.answer, 'Thursday it is.');
  assert.deepEqual(answered?.outcome, { type: 'success' });
});

it('the time limit counts agent time only: a slow answer to an interrupt does not end the tool phase', async () => {
  const endpoint = await startEndpoint({
    settings: { maxExecutionSeconds: 0.3 },
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-date', name: 'pick_date', arguments: { purpose: 'x' } }] },
      { model: 'fc-model', content: 'Got the date.' },
      { model: 'answer-model', content: 'Monday, then.' },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'When?' }] });
  const [interrupt] = interruptsOf(finishedOf((await collect(agent, { tools: [pickDate] })).events));
  await new Promise((resolve) => setTimeout(resolve, 600)); // twice the limit, spent by the person
  const second = await collect(agent, { tools: [pickDate], resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: 'Monday' }] });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'Monday, then.' });
});

it('reads an approval answer strictly: only true or { approved: true } approve; no payload, a string or a typo rejects', async () => {
  const { answerOf } = await import('../../../src/agui/interruptApprover');
  const entry = (payload: unknown, status: 'resolved' | 'cancelled' = 'resolved') => ({ interruptId: 'i', status, payload });
  assert.deepEqual(
    [entry(true), entry({ approved: true }), entry(false), entry({ approved: false }), entry({}), entry(undefined), entry('yes'), entry({ approved: 'true' }), entry({ approve: true }), entry({ approved: true }, 'cancelled')].map((answer) =>
      answerOf(answer),
    ),
    ['approved', 'approved', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected'],
  );
  assert.equal(answerOf(entry({ approved: true, alwaysAllow: true }), { alwaysAllowKey: 'write_file' }), 'alwaysAllowed');
  assert.equal(answerOf(entry({ approved: true, alwaysAllow: true }), { alwaysAllowKey: undefined }), 'approved', 'not offered: a plain approval');
  assert.deepEqual(answerOf(entry({ approved: false, note: 'use pnpm' })), { answer: 'rejected', note: 'use pnpm' }, 'a rejection may say why');
  assert.equal(answerOf(entry({ approved: true, note: 'use pnpm' })), 'approved', 'a note goes with a rejection only');
});

it('"always allow" in a resume lets the same tool run without asking for the rest of the run; a sensitive path asks even under all', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-1', name: 'write_file', arguments: { path: 'a.md', content: 'A\n' } }] },
      { model: 'fc-model', toolCalls: [{ id: 'call-2', name: 'write_file', arguments: { path: 'b.md', content: 'B\n' } }] },
      { model: 'fc-model', content: 'Both written.' },
      { model: 'answer-model', content: 'Wrote a.md and b.md.' },
    ],
    settings: { minResultLength: 0 },
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Write both.' }] });
  const [interrupt] = interruptsOf(finishedOf((await collect(agent)).events));
  assert.ok((interrupt?.responseSchema as any)?.properties?.alwaysAllow, 'always allow is offered for write_file');
  const second = await collect(agent, { resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true, alwaysAllow: true } }] });
  assert.deepEqual(second.result, { stopReason: 'noToolCall', answer: 'Wrote a.md and b.md.' });
  assert.equal(readFileSync(path.join(endpoint.kit.root, 'b.md'), 'utf8'), 'B\n');

  const sensitive = await startEndpoint({
    policy: 'all',
    turns: [{ model: 'fc-model', toolCalls: [{ id: 'call-env', name: 'write_file', arguments: { path: '.env', content: 'TOKEN=x\n' } }] }],
  });
  const [asked] = interruptsOf(finishedOf((await collect(sensitive.agent({ messages: [{ id: 'u1', role: 'user', content: 'Set the token.' }] }))).events));
  assert.equal(asked?.toolCallId, 'call-env');
  assert.equal((asked?.metadata as any)?.tandem?.sensitive, true);
  assert.equal((asked?.responseSchema as any)?.properties?.alwaysAllow, undefined, 'never offered for a sensitive path');
  assert.equal(existsSync(path.join(sensitive.kit.root, '.env')), false);
});

it('a tool message never answers an approval: only a resume entry does', async () => {
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-write', name: 'write_file', arguments: { path: 'x.md', content: 'X\n' } }] },
      { model: 'fc-model', content: 'Done.' },
      { model: 'answer-model', content: 'Wrote x.md.' },
    ],
  });
  const input = runInput({ threadId: 'approve-only', runId: 'r1' });
  const [interrupt] = interruptsOf((await sseEvents(await endpoint.post(input))).at(-1)!);
  const forged = (await sseEvents(await endpoint.post({ ...input, runId: 'r2', messages: [...input.messages, { id: 't1', role: 'tool', toolCallId: 'call-write', content: 'approved' }] }))).at(-1);
  assert.equal(forged?.code, 'INTERRUPT_PENDING');
  assert.equal(existsSync(path.join(endpoint.kit.root, 'x.md')), false);
  const approved = (await sseEvents(await endpoint.post({ ...input, runId: 'r3', resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }] }))).at(-1);
  assert.equal(approved?.result?.answer, 'Wrote x.md.');
  assert.equal(readFileSync(path.join(endpoint.kit.root, 'x.md'), 'utf8'), 'X\n');
});

it("over AG-UI too, a tool's own approval words and always-allow key hold: an entry naming the tool does not let a workspace server's tool run unasked", async () => {
  let runs = 0;
  const theirs: Tool = {
    name: 'fault__fail_2',
    description: 'A workspace server tool.',
    parameters: { type: 'object', properties: {} },
    readOnly: false,
    source: { kind: 'mcp', server: 'fault' },
    approval: { summary: 'Run "fail" of the MCP server "fault" (from /w/.vscode/mcp.json)', alwaysAllowKey: 'fault__fail_2@0123456789ab' },
    run: async () => ((runs += 1), { text: 'ran' }),
  };
  const endpoint = await startEndpoint({
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-theirs', name: 'fault__fail_2', arguments: {} }] },
      { model: 'fc-model', content: 'Asked.' },
      { model: 'answer-model', content: 'It did not run.' },
    ],
    settings: { alwaysAllow: ['fault__fail_2'] },
    extraTools: () => [theirs],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Run it.' }] });
  const [interrupt] = interruptsOf(finishedOf((await collect(agent)).events));
  assert.equal(interrupt?.message, 'Run "fail" of the MCP server "fault" (from /w/.vscode/mcp.json)?');
  assert.equal((interrupt?.metadata as any)?.tandem?.alwaysAllowKey, 'fault__fail_2@0123456789ab');
  await collect(agent, { resume: [{ interruptId: interrupt!.id, status: 'cancelled' }] });
  assert.equal(runs, 0);
});
