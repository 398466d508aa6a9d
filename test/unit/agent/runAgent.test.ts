// The loop end to end through the real openai SDK over real HTTP against the
// scripted model server: chaining, every stop reason, the policies, both
// response modes, dual and single model, and usage equal to the server's counts.
import { loadCounter } from '../../../src/models/tokenCounter';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import type { Tool } from '../../../src/tools/tool';
import { SessionCache } from '../../../src/agent/sessionCache';
import type { AgentEvent, RunUsage } from '../../../src/protocol/agentEvents';
import { historyMessages } from '../../../src/protocol/conversationHistory';
import { customValues, fastRetry, messageText, notices, reasoningText, runScripted, scriptedServers, settingsFor, TableTool, throwingTool, toolStatuses } from './agentTestSupport';

const serve = scriptedServers();

const capitals = () =>
  new TableTool('lookup', {
    france: 'The capital of France is Paris; see capitals.md line 3.',
    paris: 'Paris has 2.1 million inhabitants according to population.csv.',
    germany: 'The capital of Germany is Berlin; see capitals.md line 7.',
  });

const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content });
/** What the first run of a process loads (the SDK, the tokenizer): not what a test of the time limit times. */
const warmUp = () => Promise.all([loadCounter('o200k_base'), import('openai')]);
const call = (key: string, id?: string) => ({ ...(id && { id }), name: 'lookup', arguments: { key } });

describe('agent loop', () => {
  it('chains three rounds of tool calls, then the answer model streams the answer', async () => {
    const model = await serve([
      fc({ reasoning: 'I need the capital first.', toolCalls: [call('france')] }),
      fc({ content: 'Now the population of Paris.', toolCalls: [call('paris')] }),
      fc({ toolCalls: [call('germany')] }),
      fc({ content: 'I have all three facts.' }),
      answer('Paris is the capital of France (2.1 million people); Berlin is the capital of Germany.'),
    ]);
    const tool = capitals();
    const run = await runScripted(settingsFor(model), { tools: [tool] });

    assert.equal(run.result?.stopReason, 'noToolCall');
    assert.equal(tool.runs, 3);
    assert.deepEqual(messageText(run.events, 'answer'), ['Paris is the capital of France (2.1 million people); Berlin is the capital of Germany.']);
    assert.equal(run.result?.answer, 'Paris is the capital of France (2.1 million people); Berlin is the capital of Germany.');
    // Each round's results reached the model in the next request.
    const [, second, third] = model.requests;
    assert.ok(second?.messages.some((message: any) => message.role === 'tool' && /Paris;/.test(message.content)));
    assert.ok(third?.messages.some((message: any) => message.role === 'tool' && /2\.1 million/.test(message.content)));
    // The function-call model served the tool phase with the tools, the answer model the answer without them.
    assert.deepEqual(model.requests.map((request) => request.model), ['fc-model', 'fc-model', 'fc-model', 'fc-model', 'answer-model']);
    assert.ok(model.requests.slice(0, 4).every((request) => request.tools?.length === 1));
    assert.equal(model.requests[4]?.tools, undefined);
    assert.match(model.requests[4]?.messages[0].content, /capitals\.md line 7/);
    // Thinking is streamed as reasoning, tagged with the model that thought it.
    assert.match(reasoningText(run.events), /I need the capital first\.Now the population of Paris\./);
    const phase = customValues<{ phase: string; model: string; stopReason?: string; functionCallModel: string; answerModel: string }>(run.events, 'tandem.phase');
    assert.deepEqual(phase.map((value) => [value.phase, value.model]), [['tools', 'fc-model'], ['answer', 'answer-model']]);
    assert.equal(phase[1]?.stopReason, 'noToolCall');
    const answerStart = run.events.find((event) => event.type === EventType.TEXT_MESSAGE_START);
    assert.deepEqual((answerStart?.metadata as any)?.role, 'answer');
  });

  it('reports usage per model equal to what the server sent, and prices it', async () => {
    const model = await serve([
      fc({ toolCalls: [call('france')], usage: { prompt_tokens: 120, completion_tokens: 15, cached_tokens: 100 } }),
      fc({ content: 'Enough.', usage: { prompt_tokens: 180, completion_tokens: 5 } }),
      { model: 'answer-model', content: 'Paris.', usage: { prompt_tokens: 300, completion_tokens: 40 } },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [capitals()] });
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1);
    assert.ok(usage);
    const sent = (name: string) => model.requests.filter((request) => request.model === name).map((request) => request.sentUsage!);
    const sum = (name: string, field: 'prompt_tokens' | 'completion_tokens') => sent(name).reduce((total, entry) => total + (entry[field] ?? 0), 0);
    assert.equal(usage.functionCall.promptTokens, sum('fc-model', 'prompt_tokens'));
    assert.equal(usage.functionCall.completionTokens, sum('fc-model', 'completion_tokens'));
    assert.equal(usage.functionCall.cachedTokens, 100);
    assert.equal(usage.functionCall.calls, 2);
    assert.equal(usage.answer.promptTokens, 300);
    assert.equal(usage.answer.completionTokens, 40);
    assert.equal(usage.answer.calls, 1);
    assert.equal(usage.functionCall.estimated, false);
    // fc: (200 fresh + 100 cached at the input rate) * 1 + 20 * 2; answer: 300 * 10 + 40 * 20 (per million).
    assert.ok(Math.abs((usage.functionCall.costUsd ?? NaN) - (300 * 1 + 20 * 2) / 1e6) < 1e-12);
    assert.ok(Math.abs((usage.answer.costUsd ?? NaN) - (300 * 10 + 40 * 20) / 1e6) < 1e-12);
    assert.ok(usage.toolPhaseMs >= 0 && usage.answerPhaseMs >= 0);
    const finished = run.events.find((event) => event.type === EventType.RUN_FINISHED);
    assert.deepEqual(
      (finished?.usage as any[]).map((entry) => [entry.model, entry.inputTokens, entry.outputTokens]),
      [['fc-model', 300, 20], ['answer-model', 300, 40]],
    );
  });

  it('labels usage as estimated when the server sends none', async () => {
    const model = await serve([fc({ content: 'No tools needed.', usage: false }), { model: 'answer-model', content: 'Hello.', usage: false }]);
    const run = await runScripted(settingsFor(model));
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.equal(usage.functionCall.estimated, true);
    assert.equal(usage.answer.estimated, true);
    assert.ok((usage.answer.promptTokens ?? 0) > 0);
  });

  it('uses one model for both phases when no answer model is configured', async () => {
    const model = await serve([{ toolCalls: [call('france')] }, { content: 'Paris.' }]);
    const settings = settingsFor(model);
    const single = { ...settings, answerModel: settings.functionCallModel, singleModel: true };
    const run = await runScripted(single, { tools: [capitals()], singleModel: true });
    assert.deepEqual(model.requests.map((request) => request.model), ['fc-model', 'fc-model'], 'its reply without a tool call is the answer: no third request');
    assert.deepEqual(messageText(run.events, 'answer'), ['Paris.']);
    const phases = customValues<{ phase: string; model: string }>(run.events, 'tandem.phase');
    assert.deepEqual(phases.map((value) => value.model), ['fc-model', 'fc-model']);
  });

  it('stops at the iteration limit and still answers, with a notice', async () => {
    const model = await serve([fc({ toolCalls: [call('france')] }), fc({ toolCalls: [call('germany')] }), answer('Partial answer.')]);
    const run = await runScripted(settingsFor(model, { maxIterations: 2 }), { tools: [capitals()] });
    assert.equal(run.result?.stopReason, 'maxIterations');
    assert.equal(model.requests.filter((request) => request.model === 'fc-model').length, 2);
    assert.ok(notices(run.events).some((notice) => notice.code === 'maxIterations' && /2 iterations/.test(notice.message)));
    assert.deepEqual(messageText(run.events, 'answer'), ['Partial answer.']);
    assert.match(model.requests.at(-1)?.messages[0].content, /limit of 2 iterations/);
  });

  it('stops at the time limit and answers from what was gathered', async () => {
    const model = await serve([
      fc({ toolCalls: [call('france')] }),
      fc({ content: 'thinking very slowly about what to do next', chunkDelayMs: 150 }),
      answer('Paris, as far as I got.'),
    ]);
    const started = Date.now();
    const run = await runScripted(settingsFor(model, { maxExecutionSeconds: 0.4 }), { tools: [capitals()] });
    assert.equal(run.result?.stopReason, 'timeLimit');
    assert.ok(Date.now() - started < 3000);
    assert.ok(notices(run.events).some((notice) => notice.code === 'timeLimit'));
    assert.deepEqual(messageText(run.events, 'answer'), ['Paris, as far as I got.']);
    assert.match(model.requests.at(-1)?.messages[0].content, /Paris;/, 'the first result reached the answer model');
  });

  it('one model for both phases: an answer streaming when the time limit passes is let finish, not cut and asked for again', async () => {
    await warmUp();
    const words = Array.from({ length: 12 }, (_, index) => `word${index}`).join(' ');
    const model = await serve([{ toolCalls: [call('france')] }, { content: words, chunkDelayMs: 60 }]);
    const settings = settingsFor(model, { maxExecutionSeconds: 0.4 });
    const single = { ...settings, answerModel: settings.functionCallModel, singleModel: true };
    const run = await runScripted(single, { tools: [capitals()], singleModel: true });
    assert.equal(run.result?.stopReason, 'noToolCall');
    assert.equal(model.requests.length, 2, 'no second request for the answer');
    assert.deepEqual(messageText(run.events, 'answer'), [words]);
    assert.deepEqual(notices(run.events).filter((notice) => notice.code === 'timeLimit'), []);
  });

  it('one model for both phases: a reply that turns to a tool call after the time limit is cut there, and the answer comes from what was gathered', async () => {
    await warmUp();
    const model = await serve([
      { toolCalls: [call('france')] },
      { content: 'Let me look up one more country before I answer.', chunkDelayMs: 60, toolCalls: [call('germany')] },
      { content: 'Paris, as far as I got.' },
    ]);
    const settings = settingsFor(model, { maxExecutionSeconds: 0.4 });
    const single = { ...settings, answerModel: settings.functionCallModel, singleModel: true };
    const tool = capitals();
    const run = await runScripted(single, { tools: [tool], singleModel: true });
    assert.equal(run.result?.stopReason, 'timeLimit');
    assert.equal(tool.runs, 1, 'the call asked for after the limit did not run');
    assert.ok(notices(run.events).some((notice) => notice.code === 'timeLimit'));
    assert.deepEqual(messageText(run.events, 'answer'), ['Paris, as far as I got.']);
  });

  it('warns on a repeated call and stops the loop on the third', async () => {
    const model = await serve([
      fc({ toolCalls: [call('france')] }),
      fc({ toolCalls: [call('france')] }),
      fc({ toolCalls: [call('france')] }),
      answer('Paris.'),
    ]);
    const tool = capitals();
    const run = await runScripted(settingsFor(model), { tools: [tool] });
    assert.equal(run.result?.stopReason, 'loopDetected');
    const codes = notices(run.events).map((notice) => notice.code);
    assert.deepEqual(codes, ['loopWarning', 'loopDetected']);
    // The second call was served from the session cache, and the warning reached the model.
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['done', 'cached']);
    assert.equal(tool.runs, 1);
    assert.ok(model.requests[2]?.messages.some((message: any) => message.role === 'tool' && /already called lookup/.test(message.content)));
  });

  it('ends on sufficient results when a custom evaluator says so', async () => {
    const model = await serve([fc({ toolCalls: [call('france')] }), answer('Paris.')]);
    const run = await runScripted(settingsFor(model), {
      tools: [capitals()],
      evaluator: (round) => (round.some((entry) => /Paris/.test(entry.result.text)) ? { verdict: 'sufficient', reason: 'The capital was found.' } : { verdict: 'continue' }),
    });
    assert.equal(run.result?.stopReason, 'sufficient');
    const switchTo = customValues<{ phase: string; reason?: string }>(run.events, 'tandem.phase').at(-1);
    assert.equal(switchTo?.reason, 'The capital was found.');
    assert.equal(model.requests.length, 2);
  });

  it('a reply without a call after the user rejected one does not claim the model has what it needs', async () => {
    const model = await serve([fc({ toolCalls: [{ name: 'write_note', arguments: { text: 'x' } }] }), fc({ content: 'Understood, I will not write it.' }), answer('Nothing was written.')]);
    let ran = false;
    const writeNote: Tool = {
      name: 'write_note',
      description: 'Writes a note.',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      source: { kind: 'workspace' },
      readOnly: false,
      run: async () => ((ran = true), { text: 'written' }),
    };
    const run = await runScripted(settingsFor(model), { tools: [writeNote], approve: () => false });
    assert.equal(ran, false);
    assert.equal(run.result?.stopReason, 'noToolCall');
    const switchTo = customValues<{ phase: string; reason?: string }>(run.events, 'tandem.phase').at(-1);
    assert.equal(switchTo?.reason, 'The function-call model stopped calling tools after a call was not approved: answering from what was gathered.');
  });

  it('tells the model when a result is too short to be useful', async () => {
    const model = await serve([fc({ toolCalls: [call('nowhere')] }), fc({ content: 'Nothing found.' }), answer('I could not find it.')]);
    await runScripted(settingsFor(model, { minResultLength: 40 }), { tools: [capitals()] });
    const toolMessage = model.requests[1]?.messages.find((message: any) => message.role === 'tool');
    assert.match(toolMessage.content, /lookup returned little or nothing \(under 40 characters\)\. Consider a different call \(other arguments, or another tool\)/);
  });

  it('a short "done" from a tool that changes something is not called too little', async () => {
    // A write tool's whole answer can be short ("Deleted a.txt."): no note that it returned nothing.
    const model = await serve([fc({ toolCalls: [{ id: 'w1', name: 'mark', arguments: { key: 'a' } }] }), fc({ content: 'Done.' }), answer('Marked.')]);
    await runScripted(settingsFor(model, { minResultLength: 40, autoApprove: 'all' }), { tools: [new TableTool('mark', { a: 'Marked a.' }, false)] });
    const toolMessage = model.requests[1]?.messages.find((message: any) => message.role === 'tool');
    assert.equal(toolMessage.content, 'Marked a.');
  });

  describe('nonToolReply', () => {
    it('answer: a reply without a tool call hands over to the answer model', async () => {
      const model = await serve([fc({ content: 'I know this without tools.' }), answer('It is 4.')]);
      const run = await runScripted(settingsFor(model, { nonToolReply: 'answer' }), { tools: [capitals()] });
      assert.equal(run.result?.stopReason, 'noToolCall');
      assert.deepEqual(messageText(run.events, 'answer'), ['It is 4.']);
      assert.match(model.requests[1]?.messages[0].content, /I know this without tools/);
    });

    it('remind: nudges the model, which then calls a tool and finishes', async () => {
      const model = await serve([
        fc({ content: 'Hmm.' }),
        fc({ toolCalls: [call('france')] }),
        fc({ toolCalls: [{ name: 'finish', arguments: { reason: 'The capital is known.' } }] }),
        answer('Paris.'),
      ]);
      const run = await runScripted(settingsFor(model, { nonToolReply: 'remind' }), { tools: [capitals()] });
      assert.equal(run.result?.stopReason, 'finished');
      assert.ok(notices(run.events).some((notice) => notice.code === 'reminder'));
      assert.ok(model.requests[1]?.messages.some((message: any) => message.role === 'user' && /did not call a tool/.test(message.content)));
      assert.ok(model.requests[0]?.tools?.some((tool: any) => tool.function.name === 'finish'));
    });

    it('remind: three replies without a tool call stop the loop with a notice', async () => {
      const model = await serve([fc({ content: 'One.' }), fc({ content: 'Two.' }), fc({ content: 'Three.' }), answer('Answer anyway.')]);
      const run = await runScripted(settingsFor(model, { nonToolReply: 'remind' }), { tools: [capitals()] });
      assert.equal(run.result?.stopReason, 'mistakes');
      assert.ok(notices(run.events).some((notice) => notice.code === 'mistakes' && /3 times/.test(notice.message)));
      assert.deepEqual(messageText(run.events, 'answer'), ['Answer anyway.']);
    });

    it('user: the reply is shown and the run waits for the user, without the answer model', async () => {
      const model = await serve([fc({ content: 'Which table do you mean?' })]);
      const run = await runScripted(settingsFor(model, { nonToolReply: 'user' }), { tools: [capitals()] });
      assert.equal(run.result?.stopReason, 'awaitingUser');
      assert.deepEqual(messageText(run.events, 'answer'), ['Which table do you mean?']);
      assert.ok(model.requests.every((request) => request.model === 'fc-model'));
      assert.ok(notices(run.events).some((notice) => notice.code === 'awaitingUser'));
    });
  });

  describe('response modes', () => {
    const turns = () => [fc({ content: "I'll look that up.", toolCalls: [call('france')] }), fc({ content: 'Found it.' }), answer('Paris.')];

    it('integrated: interim text is thinking, one final answer', async () => {
      const model = await serve(turns());
      const run = await runScripted(settingsFor(model, { responseMode: 'integrated' }), { tools: [capitals()] });
      assert.deepEqual(messageText(run.events, 'interim'), []);
      assert.deepEqual(messageText(run.events, 'toolResult'), []);
      assert.match(reasoningText(run.events), /I'll look that up\./);
      assert.deepEqual(messageText(run.events, 'answer'), ['Paris.']);
    });

    it('integrated: reasoning and the text after it share the Thought with a paragraph break between them', async () => {
      const model = await serve([fc({ content: '<think>Got it, done.</think>Enough.' }), answer('Done.')]);
      const run = await runScripted(settingsFor(model, { responseMode: 'integrated' }), { tools: [capitals()] });
      assert.equal(reasoningText(run.events), 'Got it, done.\n\nEnough.');
    });

    it('streaming: interim text and each tool result are messages of their own', async () => {
      const model = await serve(turns());
      const run = await runScripted(settingsFor(model, { responseMode: 'streaming' }), { tools: [capitals()] });
      assert.deepEqual(messageText(run.events, 'interim'), ["I'll look that up.", 'Found it.']);
      const results = messageText(run.events, 'toolResult');
      assert.equal(results.length, 1);
      assert.match(results[0]!, /^\[lookup executed successfully\]\n\nThe capital of France is Paris/);
      // Order: interim text, then the tool result message, then the answer.
      const order = customValues<{ kind: string }>(run.events, 'tandem.messageKind').map((value) => value.kind);
      assert.deepEqual(order, ['interim', 'toolResult', 'interim', 'answer']);
    });
  });

  describe('JSON envelope for models without function calling', () => {
    const envelope = (key: string) => JSON.stringify({ response: `Looking up ${key}.`, mcp: { tool: 'tables', method: 'lookup', params: { key } } });

    for (const [name, content] of [
      ['on its own', envelope('france')],
      ['in a code fence', `\`\`\`json\n${envelope('france')}\n\`\`\``],
      ['after prose', `Let me check the table first.\n${envelope('france')}`],
    ] as const) {
      it(`runs a call written ${name}`, async () => {
        const model = await serve([fc({ content }), fc({ content: '{"response": "I have it."}' }), answer('Paris.')]);
        const tool = capitals();
        const run = await runScripted(settingsFor(model), { tools: [tool] });
        assert.equal(tool.runs, 1);
        assert.equal(run.result?.stopReason, 'noToolCall');
        const next = model.requests[1]?.messages.at(-1);
        assert.equal(next.role, 'user');
        assert.match(next.content, /^Tool result for lookup:\nThe capital of France is Paris/);
        assert.match(reasoningText(run.events), /Looking up france\./);
        assert.doesNotMatch(reasoningText(run.events), /"mcp"/, 'the raw JSON is not shown as thinking');
      });
    }

    it('returns a broken envelope to the model as an error', async () => {
      const model = await serve([fc({ content: '{"response": "x", "mcp": {"tool": "lookup", "params": {key: france}}}' }), fc({ content: envelope('france') }), fc({ content: 'Done.' }), answer('Paris.')]);
      const tool = capitals();
      const run = await runScripted(settingsFor(model), { tools: [tool] });
      assert.ok(notices(run.events).some((notice) => notice.code === 'malformedToolCall'));
      assert.match(model.requests[1]?.messages.at(-1).content, /could not be read: the tool-call JSON is not valid/);
      assert.equal(tool.runs, 1, 'the corrected call ran');
    });
  });

  it('turns tool faults into results: bad JSON, unknown tool, a throwing tool', async () => {
    const model = await serve([
      fc({ toolCalls: [{ id: 'a', name: 'lookup', arguments: '{"key": ' }, { id: 'b', name: 'nonexistent', arguments: {} }, { id: 'c', name: 'explode', arguments: {} }] }),
      fc({ content: 'Everything failed.' }),
      answer('Sorry.'),
    ]);
    const run = await runScripted(settingsFor(model), { tools: [capitals(), throwingTool] });
    assert.equal(run.error, undefined);
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status).sort(), ['failed', 'failed', 'failed']);
    const toolMessages: string[] = model.requests[1]?.messages.filter((message: any) => message.role === "tool").map((message: any) => message.content) ?? [];
    assert.match(toolMessages[0]!, /not valid JSON/);
    assert.match(toolMessages[1]!, /no tool named "nonexistent"/);
    assert.match(toolMessages[2]!, /explode failed: disk on fire/);
    // Stopping right after failures is no sign the model has what it needs: the switch says what happened.
    const phase = customValues<{ phase: string; reason?: string }>(run.events, 'tandem.phase').find((value) => value.phase === 'answer');
    assert.equal(phase?.reason, 'The function-call model stopped calling tools after a call failed: answering from what was gathered.');
  });

  it('asks before a tool that changes something; a rejection is the result', async () => {
    const model = await serve([fc({ toolCalls: [{ name: 'store', arguments: { key: 'x' } }] }), fc({ content: 'Rejected.' }), answer('Nothing stored.')]);
    const store = new TableTool('store', { x: 'stored x somewhere important' }, false);
    const asked: unknown[] = [];
    const run = await runScripted(settingsFor(model), { tools: [store], approve: (request) => (asked.push(request), false) });
    assert.equal(store.runs, 0);
    assert.equal(asked.length, 1);
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['rejected']);
    assert.match(model.requests[1]?.messages.find((message: any) => message.role === 'tool').content, /rejected/);
  });

  it('never serves a later run from an earlier run\'s cache: the user may have changed the file between turns', async () => {
    const model = await serve([fc({ toolCalls: [call('france')] }), fc({ content: 'ok' }), answer('Paris.'), fc({ toolCalls: [call('france')] }), fc({ content: 'ok' }), answer('Still Paris.')]);
    const tool = capitals();
    const cache = new SessionCache();
    await runScripted(settingsFor(model), { tools: [tool], cache });
    const second = await runScripted(settingsFor(model), { tools: [tool], cache });
    assert.equal(tool.runs, 2);
    assert.deepEqual(toolStatuses(second.events).map((status) => status.status), ['done']);
  });

  it('chat mode streams from the answer model without tools', async () => {
    const model = await serve([{ model: 'answer-model', reasoning: 'Simple greeting.', content: 'Hello there!' }]);
    const run = await runScripted(settingsFor(model, { mode: 'chat' }), { tools: [capitals()] });
    assert.equal(run.result?.stopReason, 'chatMode');
    assert.deepEqual(model.requests.map((request) => [request.model, request.tools]), [['answer-model', undefined]]);
    assert.deepEqual(messageText(run.events, 'answer'), ['Hello there!']);
  });

  it('retries a failed call and goes on', async () => {
    const model = await serve([fc({ fault: { kind: 'status', status: 500 } }), fc({ content: 'ok' }), answer('Fine.')]);
    const run = await runScripted(settingsFor(model));
    assert.equal(customValues(run.events, 'tandem.retry').length, 1);
    assert.deepEqual(messageText(run.events, 'answer'), ['Fine.']);
  });

  it('ends with RUN_ERROR and a suggestion when retries are spent', async () => {
    const limited = { kind: 'status', status: 429, retryAfterSeconds: 0 } as const;
    const model = await serve([fc({ fault: limited }), fc({ fault: limited }), fc({ fault: limited }), fc({ fault: limited })]);
    const run = await runScripted(settingsFor(model));
    assert.ok(run.error, 'the run ended with RUN_ERROR');
    assert.equal(run.error.code, 'MODEL_API_ERROR');
    assert.match(String((run.error.metadata as any)?.suggestion), /\S/);
    assert.equal(model.requests.length, 4, 'the first attempt and three retries');
  });

  it('a rate limit that asks for a wait longer than the time left ends the tool phase at once, and says why', async () => {
    const model = await serve([fc({ fault: { kind: 'status', status: 429, retryAfterSeconds: 25 } }), answer('From what I have.')]);
    const started = Date.now();
    const run = await runScripted(settingsFor(model, { maxExecutionSeconds: 10 }), { retry: { ...fastRetry, maxRetryAfterMs: 60_000 } });
    assert.ok(Date.now() - started < 5_000, `it took ${Date.now() - started} ms`);
    assert.equal(run.result?.stopReason, 'timeLimit');
    const notice = notices(run.events).find((each) => each.code === 'timeLimit');
    assert.match(String(notice?.message), /^Stopped at once rather than wait past the time limit of 10 s \(tandem\.agent\.maxExecutionSeconds\): the server asked to wait 25 s before trying again \(.*429.*\), longer than the (9|10) s left; answering from what was gathered\.$/);
    assert.deepEqual(messageText(run.events, 'answer'), ['From what I have.']);
  });

  it('Stop mid-answer keeps what was shown: the next question is asked with that partial answer, and the record says it was cut off', async () => {
    const model = await serve([{ model: 'answer-model', content: 'alpha beta gamma delta epsilon zeta eta theta iota kappa', chunkDelayMs: 60 }]);
    const controller = new AbortController();
    let shown = '';
    const run = await runScripted(settingsFor(model, { mode: 'chat' }), {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type !== EventType.TEXT_MESSAGE_CONTENT) return;
        shown += String(event['delta']);
        if (shown.includes('gamma')) controller.abort();
      },
    });
    assert.equal(run.result?.stopReason, 'cancelled');
    assert.ok(shown.length > 0 && !shown.includes('kappa'));
    assert.equal(run.result?.answer, shown, 'the answer is what the panel showed');
    const history = historyMessages([
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Tell me a long story' } } as AgentEvent,
      ...run.events,
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'What happened?' } } as AgentEvent,
    ]);
    assert.deepEqual(history.map((message) => message.role), ['user', 'assistant', 'user']);
    assert.equal(history[1]?.content, shown);
    assert.match(String(history[2]?.content), /the user stopped it while it answered: the answer above is cut off there\./);
  });

  it('Stop ends the run at once, mid-stream, as cancelled', async () => {
    const model = await serve([fc({ content: 'one two three four five six seven eight nine ten eleven twelve', chunkDelayMs: 100 })]);
    const controller = new AbortController();
    const started = Date.now();
    const run = await runScripted(settingsFor(model), {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === EventType.REASONING_MESSAGE_CONTENT) controller.abort();
      },
    });
    assert.ok(Date.now() - started < 1000);
    assert.equal(run.result?.stopReason, 'cancelled');
    const finished = run.events.at(-1);
    assert.equal(finished?.type, EventType.RUN_FINISHED);
    assert.deepEqual(finished?.outcome, { type: 'cancelled' });
    assert.ok(notices(run.events).some((notice) => notice.code === 'cancelled'));
    await model.idle();
    assert.equal(model.requests[0]?.outcome, 'client-closed');
  });
});
