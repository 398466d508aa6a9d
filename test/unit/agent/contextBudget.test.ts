// The context budget through the real SDK against the scripted server: a
// request the server says is too long (in each server's own words) is
// condensed by the answer model and sent once more; a second refusal ends
// the run with an honest error; a request near the window is condensed
// before it is sent; the rules and the current task stay verbatim.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/models/chatModel';
import type { CondensedPayload } from '../../../src/protocol/agentEvents';
import { historyMessages } from '../../../src/protocol/conversationHistory';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import type { ContextServer } from '../../fixtures/scriptedModelServer';
import { customValues, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';
import { applyEvents } from '../../../webview/viewModel';
import { createConversationView } from '../../../webview/steps';
import { conversationRow } from '../../../src/protocol/usageFormat';

const serve = scriptedServers();

const LONG_ANSWER = `The build uses esbuild. ${'Details about the bundles and their entry points. '.repeat(160)}`;
const TASK = 'Now, which file holds the loop?';

/** Two earlier turns (one long answer), then the current task. */
function conversation(): ChatMessage[] {
  return [
    { role: 'user', content: 'How is it built?' },
    { role: 'assistant', content: LONG_ANSWER },
    { role: 'user', content: 'And tested?' },
    { role: 'assistant', content: 'With node:test.' },
    { role: 'user', content: TASK },
  ];
}

const SUMMARY = 'The user asked how the project is built (esbuild bundles) and tested (node:test).';

function systemText(request: { messages: { role: string; content: unknown }[] }): string {
  return request.messages.filter((message) => message.role === 'system').map((message) => String(message.content)).join('\n');
}

const servers: ContextServer[] = ['openai', 'vllm', 'vllm-legacy', 'llamacpp', 'ollama', 'lmstudio'];

describe('context budget', () => {
  for (const contextServer of servers) {
    it(`a context-length error from ${contextServer} condenses the older turns and retries once`, async () => {
      const model = await serve([
        { model: 'fc-model', content: 'I know enough.', maxPromptTokens: 1500, contextServer },
        { model: 'answer-model', content: SUMMARY },
        { model: 'answer-model', content: 'The loop is in src/agent/toolPhase.ts.' },
      ]);
      const run = await runScripted(settingsFor(model), { messages: conversation(), tools: [new TableTool('lookup', {})] });
      assert.equal(run.error, undefined, JSON.stringify(run.error));
      assert.equal(run.result?.answer, 'The loop is in src/agent/toolPhase.ts.');

      const [condensed, ...more] = customValues<CondensedPayload>(run.events, 'tandem.condensed');
      assert.equal(more.length, 0);
      assert.equal(condensed?.reason, 'overflow');
      assert.equal(condensed?.summary, SUMMARY);
      assert.equal(condensed?.messages, 4);
      assert.equal(condensed?.historyMessages, 4);
      assert.equal(condensed?.model, 'answer-model');
      assert.ok(condensed!.tokensAfter < condensed!.tokensBefore, `${condensed?.tokensBefore} → ${condensed?.tokensAfter}`);

      const fc = model.requests.filter((request) => request.model === 'fc-model');
      assert.deepEqual(fc.map((request) => request.outcome), ['fault', 'completed'], 'one refusal, one retry: not the generic retry policy');
      assert.equal(customValues(run.events, 'tandem.retry').length, 0);
      const retried = fc[1]!;
      assert.equal(retried.messages[0].role, 'system', 'the rules and the summary are one system message');
      assert.equal(retried.messages.filter((message: { role: string }) => message.role === 'system').length, 1);
      assert.match(systemText(retried), /tool-using half of Tandem/, 'the rules stay');
      assert.match(systemText(retried), new RegExp(SUMMARY.slice(0, 30)));
      assert.deepEqual(retried.messages.slice(1), [{ role: 'user', content: TASK }], 'the task stays verbatim, the older turns are gone');

      const [summaryRequest, answerRequest] = model.requests.filter((request) => request.model === 'answer-model');
      assert.match(JSON.stringify(summaryRequest?.messages), /Details about the bundles/, 'the answer model condensed the older turns');
      assert.doesNotMatch(JSON.stringify(answerRequest?.messages), /Details about the bundles/, 'the answer phase uses the summary too');
      assert.match(JSON.stringify(answerRequest?.messages), /esbuild bundles/);
    });
  }

  it('a second refusal after condensing ends the run with an honest error', async () => {
    const model = await serve([
      { model: 'fc-model', fault: { kind: 'contextLength', server: 'llamacpp', window: 2048 } },
      { model: 'answer-model', content: SUMMARY },
      { model: 'fc-model', fault: { kind: 'contextLength', server: 'llamacpp', window: 2048 } },
    ]);
    const run = await runScripted(settingsFor(model), { messages: conversation() });
    assert.equal(run.error?.code, 'CONTEXT_OVERFLOW');
    assert.match(String(run.error?.message), /does not fit the context window of "fc-model".*even after condensing/);
    assert.match(String(run.error?.message), /exceeds the available context size/, 'the server’s words are kept');
    assert.match(String((run.error?.metadata as { suggestion?: string }).suggestion), /New Chat.*tandem\.functionCallModel\.contextWindow/);
    assert.equal(customValues(run.events, 'tandem.condensed').length, 1);
    assert.equal(model.requests.length, 3, 'no more requests than that');
  });

  it('nothing older to condense: the refusal is reported at once, honestly', async () => {
    const model = await serve([{ model: 'answer-model', fault: { kind: 'contextLength', server: 'ollama' } }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat', messages: [{ role: 'user', content: 'A long first message.' }] });
    assert.equal(run.error?.code, 'CONTEXT_OVERFLOW');
    assert.match(String(run.error?.message), /nothing older is left to condense.*the input length exceeds the context length/);
    assert.equal(model.requests.length, 1);
  });

  it('a latest message larger than the window: nothing is condensed (the history stays), and the error says what is too big', async () => {
    const big = `The attached log:\n${'error: connection refused at line 42 of the proxy config\n'.repeat(300)}`;
    const model = await serve([{ model: 'fc-model', content: 'Never sent.', maxPromptTokens: 2048, contextServer: 'llamacpp' }]);
    const settings = settingsFor(model);
    const small = { ...settings.functionCallModel, contextWindow: 2048, maxTokens: 256 };
    // One model for both phases: the window to raise is the function-call model's.
    const run = await runScripted(
      { ...settings, functionCallModel: small, answerModel: small, singleModel: true },
      { mode: 'chat', singleModel: true, messages: [{ role: 'user', content: 'How is it built?' }, { role: 'assistant', content: 'With esbuild.' }, { role: 'user', content: big }] },
    );
    assert.equal(run.error?.code, 'CONTEXT_OVERFLOW', JSON.stringify(run.error));
    assert.match(String(run.error?.message), /what no condensing shortens is ~\d+ tokens \(the latest message ~\d+, the instructions and rules ~\d+\), over the ~1792 the window leaves for a request/);
    assert.match(String((run.error?.metadata as { suggestion?: string }).suggestion), /tandem\.functionCallModel\.contextWindow/);
    assert.deepEqual(customValues(run.events, 'tandem.condensed'), [], 'the earlier turns were not traded for a summary');
    assert.equal(model.requests.length, 1, 'no summary request: one refused request, nothing more');
  });

  it('a summary no shorter than the turns it would replace is not used: the turns stay verbatim', async () => {
    const task = `Check this text: ${'word '.repeat(1_450)}`;
    const longSummary = `The user said hello. ${'And nothing else of note happened in the turns before. '.repeat(40)}`;
    const model = await serve([
      { model: 'answer-model', content: longSummary },
      { model: 'answer-model', content: 'Checked.' },
    ]);
    const settings = settingsFor(model);
    const run = await runScripted(
      { ...settings, answerModel: { ...settings.answerModel, contextWindow: 2000, maxTokens: 256 } },
      { mode: 'chat', messages: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi.' }, { role: 'user', content: task }] },
    );
    assert.equal(run.error, undefined, JSON.stringify(run.error));
    assert.equal(run.result?.answer, 'Checked.');
    assert.deepEqual(customValues(run.events, 'tandem.condensed'), []);
    const answer = model.requests.at(-1)!;
    assert.deepEqual(answer.messages.slice(1).map((message: { content: string }) => message.content.slice(0, 16)), ['Hello', 'Hi.', task.slice(0, 16)]);
  });

  it('a request near the window is condensed before it is sent (counts labelled as estimates for a non-OpenAI model)', async () => {
    const model = await serve([
      { model: 'answer-model', content: SUMMARY },
      { model: 'fc-model', content: 'I know enough.', maxPromptTokens: 1500 },
      { model: 'answer-model', content: 'In src/agent/toolPhase.ts.' },
    ]);
    const settings = settingsFor(model);
    const run = await runScripted(
      { ...settings, functionCallModel: { ...settings.functionCallModel, contextWindow: 2000, maxTokens: 256 } },
      { messages: conversation(), tools: [new TableTool('lookup', {})] },
    );
    assert.equal(run.error, undefined, JSON.stringify(run.error));
    const [condensed] = customValues<CondensedPayload>(run.events, 'tandem.condensed');
    assert.equal(condensed?.reason, 'nearWindow');
    assert.equal(condensed?.role, 'function-call');
    assert.equal(condensed?.estimated, true, 'fc-model is not an OpenAI model: its counts are estimates');
    assert.ok(condensed!.tokensBefore > 0.85 * (2000 - 256), `before: ${condensed?.tokensBefore}`);
    assert.ok(condensed!.tokensAfter < condensed!.tokensBefore);
    const fc = model.requests.filter((request) => request.model === 'fc-model');
    assert.deepEqual(fc.map((request) => request.outcome), ['completed'], 'the first request already fit');

    // Later turns: the summary stands in for the condensed turns.
    const stored: AgentEvent[] = [
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'How is it built?' } },
      { type: 'RUN_FINISHED', result: { answer: LONG_ANSWER } },
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'And tested?' } },
      { type: 'RUN_FINISHED', result: { answer: 'With node:test.' } },
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: TASK } },
      ...run.events,
    ] as AgentEvent[];
    const history = historyMessages(stored);
    assert.equal(history.length, 3);
    assert.equal(history[0]?.role, 'system');
    assert.match(String(history[0]?.content), /Summary of the earlier conversation/);
    assert.deepEqual(history.slice(1), [
      { role: 'user', content: TASK },
      { role: 'assistant', content: 'In src/agent/toolPhase.ts.' },
    ]);
  });

  it('mid-run, older tool exchanges are condensed and the two most recent stay verbatim', async () => {
    const result = (key: string) => `${key}: ${Array.from({ length: 700 }, (_, index) => `${key}${index}`).join(' ')}`;
    const table = { a: result('alpha'), b: result('beta'), c: result('gamma') };
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }] },
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'b' } }] },
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'c' } }] },
      { model: 'answer-model', content: 'lookup a returned alpha values.' },
      { model: 'fc-model', content: 'I know enough.' },
      { model: 'answer-model', content: 'Done.' },
    ]);
    const settings = settingsFor(model);
    const run = await runScripted(
      { ...settings, functionCallModel: { ...settings.functionCallModel, contextWindow: 5000, maxTokens: 256 }, minResultLength: 0 },
      { messages: [{ role: 'user', content: TASK }], tools: [new TableTool('lookup', table)] },
    );
    assert.equal(run.error, undefined, JSON.stringify(run.error));
    const condensed = customValues<CondensedPayload>(run.events, 'tandem.condensed');
    assert.equal(condensed.length, 1, JSON.stringify(condensed.map((value) => [value.tokensBefore, value.tokensAfter])));
    assert.equal(condensed[0]?.messages, 2, 'the oldest exchange: the call and its result');
    assert.equal(condensed[0]?.historyMessages, 0, 'no earlier turns: later history is untouched');
    const last = model.requests.filter((request) => request.model === 'fc-model').at(-1)!;
    const text = JSON.stringify(last.messages);
    assert.doesNotMatch(text, /alpha12 /, 'the oldest result is condensed');
    assert.match(text, /lookup a returned alpha values/);
    assert.match(text, /beta12 /);
    assert.match(text, /gamma12 /);
    assert.equal(last.messages[1].content, TASK, 'the task stays verbatim, right after the rules');
    const answer = model.requests.filter((request) => request.model === 'answer-model').at(-1)!;
    assert.match(JSON.stringify(answer.messages), /alpha12 /, 'the answer model still gets every finding');
  });

  it('findings share a small answer window: each is shortened (head and tail kept), all of them reach the answer model', async () => {
    const result = (key: string) => `${key.toUpperCase()}-HEAD ${'filler text '.repeat(500)}${key.toUpperCase()}-TAIL`;
    const table = { a: result('a'), b: result('b'), c: result('c') };
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }, { name: 'lookup', arguments: { key: 'b' } }, { name: 'lookup', arguments: { key: 'c' } }] },
      { model: 'fc-model', content: 'I know enough.' },
      { model: 'answer-model', content: 'Done.', maxPromptTokens: 3_000 },
    ]);
    const settings = settingsFor(model);
    const run = await runScripted(
      { ...settings, answerModel: { ...settings.answerModel, contextWindow: 4_000, maxTokens: 256 } },
      { messages: [{ role: 'user', content: TASK }], tools: [new TableTool('lookup', table)] },
    );
    assert.equal(run.error, undefined, JSON.stringify(run.error));
    const answer = model.requests.filter((request) => request.model === 'answer-model');
    assert.deepEqual(answer.map((request) => request.outcome), ['completed'], 'the answer request fit at once');
    const text = JSON.stringify(answer[0]?.messages);
    for (const key of ['A', 'B', 'C']) {
      assert.match(text, new RegExp(`${key}-HEAD`));
      assert.match(text, new RegExp(`${key}-TAIL`));
    }
    assert.match(text, /characters left out/);
  });

  it('a small request is not condensed and the tokenizer is not needed', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Hi.' }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat', messages: [{ role: 'user', content: 'Hello' }] });
    assert.equal(run.error, undefined);
    assert.equal(customValues(run.events, 'tandem.condensed').length, 0);
  });
});

describe('Tandem: Condense Conversation', () => {
  it('condenses the earlier turns of a stored conversation; the latest turn stays', async () => {
    const { condenseConversation } = await import('../../../src/agent/conversationCondenser');
    const { createChatModel } = await import('../../../src/models/openAiChatModel');
    const model = await serve([{ model: 'answer-model', content: SUMMARY, usage: { prompt_tokens: 5000, completion_tokens: 30 } }]);
    const settings = settingsFor(model).answerModel;
    const history: ChatMessage[] = [...conversation(), { role: 'assistant', content: 'src/agent/toolPhase.ts' }];
    const condensed = await condenseConversation(history, settings, createChatModel(settings), new AbortController().signal, { 'answer-model': { input: 1, output: 2 } });
    assert.equal(condensed?.reason, 'manual');
    // Its call counts in the conversation's totals: what the server said it used, at the user's price.
    assert.equal(condensed?.usage?.answer.calls, 1);
    assert.equal(condensed?.usage?.answer.promptTokens, 5000);
    assert.equal(condensed?.usage?.answer.completionTokens, 30);
    assert.ok(Math.abs((condensed?.usage?.totalCostUsd ?? 0) - (5000 * 1 + 30 * 2) / 1e6) < 1e-12);
    const view = applyEvents(createConversationView(), [{ type: 'CUSTOM', name: 'tandem.condensed', value: condensed } as AgentEvent]);
    assert.equal(conversationRow([...view.usageByRun.values()]).numbers.tokensIn, 5000);
    assert.equal(condensed?.messages, 4);
    assert.equal(condensed?.historyMessages, 4);
    assert.ok(condensed!.tokensAfter < condensed!.tokensBefore);
    assert.match(JSON.stringify(model.requests[0]?.messages), /Details about the bundles/);
    assert.doesNotMatch(JSON.stringify(model.requests[0]?.messages), /src\/agent\/toolPhase/, 'the latest turn is not condensed');
    const later = historyMessages([
      ...history.map((message) =>
        message.role === 'user'
          ? ({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text: message.content } } as AgentEvent)
          : ({ type: 'RUN_FINISHED', result: { answer: message.content } } as AgentEvent),
      ),
      { type: 'CUSTOM', name: 'tandem.condensed', value: condensed } as AgentEvent,
    ]);
    assert.deepEqual(later.slice(1), [
      { role: 'user', content: TASK },
      { role: 'assistant', content: 'src/agent/toolPhase.ts' },
    ]);
    assert.equal(await condenseConversation(later.slice(1), settings, createChatModel(settings), new AbortController().signal), undefined, 'one turn: nothing to condense');
  });
});
