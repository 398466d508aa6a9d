// Replies a model should not send, end to end through the real openai SDK over
// real HTTP: every tool call still runs once with a result of its own (calls
// all at index 0, as Ollama streams them; two calls under one id), a call with
// no tool name goes back to the model as a mistake, a stream event that is not
// a chunk object is malformed data (not a lost connection), and a long last
// reply of the function-call model is capped in the answer model's prompt; a
// reply asking for a hundred calls gets its first 32 made, a few at a time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { FINDING_LIMIT } from '../../../src/agent/prompts';
import { MAX_CALLS_PER_REPLY } from '../../../src/agent/callLimit';
import { MAX_CONCURRENT_CALLS } from '../../../src/agent/toolExecutor';
import type { Tool, ToolResult } from '../../../src/tools/tool';
import { fastRetry, notices, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const table = () => new TableTool('lookup', { alpha: 'ALPHA-RESULT: the first.', beta: 'BETA-RESULT: the second.' });
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content });
const lookup = (key: string, id?: string) => ({ ...(id && { id }), name: 'lookup', arguments: { key } });

/** The tool messages of the request after the round, as [tool_call_id, content]. */
function toolMessages(request: { messages: { role: string; tool_call_id?: string; content?: unknown }[] } | undefined): [string | undefined, string][] {
  return (request?.messages ?? []).filter((message) => message.role === 'tool').map((message) => [message.tool_call_id, String(message.content)]);
}

/** A lookup that takes a while, counting how many of its runs are at work at once. */
class SlowLookup implements Tool {
  readonly name = 'lookup';
  readonly description = 'Looks a key up.';
  readonly parameters = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] };
  readonly readOnly = true;
  readonly source = { kind: 'workspace' } as const;
  readonly made: string[] = [];
  most = 0;
  private running = 0;
  async run(args: unknown): Promise<ToolResult> {
    const key = String((args as { key: string }).key);
    this.running += 1;
    this.most = Math.max(this.most, this.running);
    this.made.push(key);
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.running -= 1;
    return { text: `value of ${key}, long enough to count` };
  }
}

describe('a misbehaving model', () => {
  it('calls streamed whole at index 0 (Ollama) each run, and each result goes back under its own id', async () => {
    const model = await serve([fc({ toolCalls: [lookup('alpha', 'call_a'), lookup('beta', 'call_b')], toolCallsAtIndexZero: true }), fc({ content: 'Both found.' }), answer('Alpha and beta.')]);
    const tool = table();
    const run = await runScripted(settingsFor(model), { tools: [tool] });
    assert.equal(run.error, undefined);
    assert.equal(tool.runs, 2);
    const assistant = model.requests[1]?.messages.find((message: { role: string; tool_calls?: unknown }) => message.role === 'assistant' && message.tool_calls);
    assert.deepEqual(
      assistant.tool_calls.map((call: { id: string; function: { arguments: string } }) => [call.id, call.function.arguments]),
      [['call_a', '{"key":"alpha"}'], ['call_b', '{"key":"beta"}']],
    );
    assert.deepEqual(toolMessages(model.requests[1]).map(([id, content]) => [id, content.slice(0, 12)]), [['call_a', 'ALPHA-RESULT'], ['call_b', 'BETA-RESULT:']]);
  });

  it('calls streamed whole at index 0 under one id each run too, the second under an id of its own', async () => {
    const model = await serve([fc({ toolCalls: [lookup('alpha', 'same'), lookup('beta', 'same')], toolCallsAtIndexZero: true }), fc({ content: 'Both found.' }), answer('Alpha and beta.')]);
    const tool = table();
    const run = await runScripted(settingsFor(model), { tools: [tool] });
    assert.equal(run.error, undefined);
    assert.equal(tool.runs, 2);
    assert.deepEqual(toolMessages(model.requests[1]).map(([id, content]) => [id, content.slice(0, 12)]), [['same', 'ALPHA-RESULT'], ['same_2', 'BETA-RESULT:']]);
  });

  it('two calls under one id keep both results: the second gets an id of its own, in the events and in the request', async () => {
    const model = await serve([fc({ toolCalls: [lookup('alpha', 'dup'), lookup('beta', 'dup')] }), fc({ content: 'Both found.' }), answer('Alpha and beta.')]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    assert.equal(run.error, undefined);
    assert.deepEqual(toolMessages(model.requests[1]).map(([id, content]) => [id, content.slice(0, 12)]), [['dup', 'ALPHA-RESULT'], ['dup_2', 'BETA-RESULT:']]);
    const started = run.events.flatMap((event) => (event.type === EventType.TOOL_CALL_START ? [event.toolCallId] : []));
    const results = run.events.flatMap((event) => (event.type === EventType.TOOL_CALL_RESULT ? [event.toolCallId] : []));
    assert.deepEqual(started, ['dup', 'dup_2']);
    assert.deepEqual(results.sort(), ['dup', 'dup_2']);
  });

  it('a tool call with no tool name is a mistake the model is told of, not an empty reply', async () => {
    const model = await serve([fc({ toolCalls: [{ name: '', arguments: { key: 'alpha' } }] }), fc({ toolCalls: [lookup('alpha')] }), fc({ content: 'Found.' }), answer('Alpha.')]);
    const tool = table();
    const run = await runScripted(settingsFor(model), { tools: [tool] });
    assert.equal(run.error, undefined);
    const mistake = notices(run.events).find((notice) => notice.code === 'malformedToolCall');
    assert.match(mistake?.message ?? '', /could not be read: the reply held a tool call with no tool name/);
    assert.match(String(model.requests[1]?.messages.at(-1).content), /^Error: your tool call could not be read: the reply held a tool call with no tool name/);
    assert.equal(tool.runs, 1, 'the named call that followed ran');
  });

  it('a stream event that is JSON but no chunk object is malformed data, retried as such', async () => {
    const model = await serve([fc({ content: 'Half', fault: { kind: 'malformed', afterChunks: 1, data: 'null' } }), fc({ content: 'Done.' }), answer('Fine.')]);
    const run = await runScripted(settingsFor(model), { tools: [table()], retry: fastRetry });
    assert.equal(run.error, undefined, 'the retry got a clean reply');
    assert.equal(model.requests.filter((request) => request.model === 'fc-model').length, 2);
  });

  it('an attempt after attempt of such events ends the run with that error', async () => {
    const allThrough = await serve([
      ...Array.from({ length: 6 }, () => fc({ content: 'Half', fault: { kind: 'malformed' as const, afterChunks: 1, data: '"text"' } })),
    ]);
    const failed = await runScripted(settingsFor(allThrough), { tools: [table()] });
    const message = String(failed.error?.['message'] ?? '');
    assert.match(message, /malformed stream data: an event held a string, not a chunk object/);
    assert.doesNotMatch(message, /connection lost/, 'not taken for a dropped connection');
  });

  it("a long last reply of the function-call model is capped in the answer model's prompt, as a finding is", async () => {
    const long = `START ${'The function-call model goes on and on. '.repeat(5_000)} END`;
    const model = await serve([fc({ content: long }), answer('Short.')]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    assert.equal(run.error, undefined);
    const system = String(model.requests[1]?.messages[0].content);
    const concluded = system.slice(system.indexOf('The tool-using model concluded: '));
    assert.ok(concluded.length < FINDING_LIMIT + 500, `capped: ${concluded.length} characters`);
    assert.match(concluded, /concluded: START/);
    assert.match(concluded, /characters left out here/);
    assert.match(concluded, /END$/);
  });

  it('a reply asking for 100 calls: the first 32 are made, at most 8 at a time; the model and the user are told of the rest', async () => {
    const asked = 100;
    const keys = Array.from({ length: asked }, (_, index) => `k${index}`);
    const model = await serve([fc({ toolCalls: keys.map((key, index) => lookup(key, `call_${index}`)) }), fc({ content: 'Enough.' }), answer('Done.')]);
    const slow = new SlowLookup();
    const run = await runScripted(settingsFor(model), { tools: [slow] });
    assert.equal(run.error, undefined);
    assert.deepEqual(slow.made.sort(), keys.slice(0, MAX_CALLS_PER_REPLY).sort(), 'the first 32 calls, each once');
    assert.equal(slow.most, MAX_CONCURRENT_CALLS, 'eight at a time');
    // The next request holds the calls made, each with its result, and no call without one.
    const next = model.requests[1];
    const assistant = next?.messages.find((message: { role: string; tool_calls?: unknown }) => message.role === 'assistant' && message.tool_calls);
    assert.equal(assistant.tool_calls.length, MAX_CALLS_PER_REPLY);
    const results = toolMessages(next);
    assert.deepEqual(results.map(([id]) => id), keys.slice(0, MAX_CALLS_PER_REPLY).map((_, index) => `call_${index}`));
    assert.match(results.at(-1)![1], /^value of k31, long enough to count\n\nNote: your reply asked for 100 tool calls; only the first 32 were made \(at most 32 a reply\), and the other 68 were not\./);
    assert.deepEqual(
      notices(run.events).filter((notice) => notice.code === 'callsCapped').map((notice) => notice.message),
      ['The function-call model asked for 100 tool calls in one reply: the first 32 were made, the other 68 were not (at most 32 a reply), and the model was told so.'],
    );
    const cards = run.events.filter((event) => event.type === EventType.TOOL_CALL_START).length;
    assert.equal(cards, MAX_CALLS_PER_REPLY, 'a card for each call made, none for the others');
  });

  it('twelve reads that each ask the user: all twelve cards are out at once (a call waiting on a person holds no slot), then eight at work at most', async () => {
    const keys = Array.from({ length: 12 }, (_, index) => `k${index}`);
    const model = await serve([fc({ toolCalls: keys.map((key, index) => lookup(key, `call_${index}`)) }), fc({ content: 'Enough.' }), answer('Done.')]);
    const slow = new SlowLookup();
    // The person answers only once every card is there (or says no after 5 s, which fails the test).
    let asked = 0;
    let allAsked: () => void = () => undefined;
    const everyCard = new Promise<boolean>((resolve) => {
      allAsked = () => resolve(true);
      setTimeout(() => resolve(false), 5_000).unref();
    });
    const approve = () => {
      asked += 1;
      if (asked === keys.length) allAsked();
      return everyCard;
    };
    const run = await runScripted(settingsFor(model, { autoApprove: 'none' }), { tools: [slow], approve });
    assert.equal(run.error, undefined);
    assert.equal(asked, keys.length);
    assert.deepEqual(toolMessages(model.requests[1]).map(([, content]) => content), keys.map((key) => `value of ${key}, long enough to count`), 'every call approved and run');
    assert.ok(slow.most <= MAX_CONCURRENT_CALLS, `${slow.most} at work at once`);
  });
});
