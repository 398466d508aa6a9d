// The loop in real conditions, through the real openai SDK against the
// scripted server: a huge tool result is capped before it reaches the model,
// a reply cut at the token limit is not taken as "done", the run budget stops
// the tool phase, and a repeated read after a write is not a loop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { RESULT_CAP_CHARS } from '../../../src/agent/resultCap';
import type { Tool, ToolResult } from '../../../src/tools/tool';
import { notices, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

/** A tool that takes `ms` to finish; `honoursStop` false models a write that completes regardless. */
function slowTool(name: string, ms: number, text: string, options: { readOnly: boolean; honoursStop: boolean }): Tool & { finished: boolean } {
  const tool = {
    name,
    description: `Takes ${ms} ms.`,
    parameters: { type: 'object', properties: {} },
    readOnly: options.readOnly,
    source: { kind: 'workspace' } as const,
    finished: false,
    async run(_args: unknown, context: { signal: AbortSignal }): Promise<ToolResult> {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        if (options.honoursStop) context.signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('aborted')); }, { once: true });
      });
      tool.finished = true;
      return { text };
    },
  };
  return tool;
}

const serve = scriptedServers();
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content });
const lookup = (key: string) => ({ name: 'lookup', arguments: { key } });

describe('loop conditions', () => {
  it('caps a 5 MB tool result, keeping head and tail, in the tool phase and for the answer model', async () => {
    const huge = `HEAD-MARK ${'x'.repeat(5_000_000)} TAIL-MARK`;
    const model = await serve([fc({ toolCalls: [lookup('big')] }), fc({ content: 'Enough.' }), answer('It is big.')]);
    const run = await runScripted(settingsFor(model), { tools: [new TableTool('lookup', { big: huge })] });
    assert.equal(run.result?.stopReason, 'noToolCall');
    const toolMessage = model.requests[1]?.messages.find((message: any) => message.role === 'tool');
    assert.ok(toolMessage.content.length < RESULT_CAP_CHARS + 200, `tool message of ${toolMessage.content.length} characters`);
    assert.match(toolMessage.content, /^HEAD-MARK/);
    assert.match(toolMessage.content, /TAIL-MARK$/);
    assert.match(toolMessage.content, /\d+ characters left out here; only the start and the end of this text are shown/);
    assert.doesNotMatch(toolMessage.content, /read_file/, 'a lookup result is not a file');
    const answerRequest = JSON.stringify(model.requests[2]?.messages);
    assert.ok(answerRequest.length < RESULT_CAP_CHARS * 2, 'the answer model gets the capped text too');
    assert.match(answerRequest, /TAIL-MARK/);
  });

  it('a tool-phase reply cut at the token limit is a counted mistake, and the model is asked to reply shorter', async () => {
    const model = await serve([
      fc({ content: 'I will now explain at great length why', finishReason: 'length' }),
      fc({ toolCalls: [lookup('a')] }),
      fc({ content: 'Done.' }),
      answer('A is alpha.'),
    ]);
    const run = await runScripted(settingsFor(model), { tools: [new TableTool('lookup', { a: 'A stands for alpha in this table of letters.' })] });
    assert.equal(run.result?.stopReason, 'noToolCall');
    assert.ok(notices(run.events).some((notice) => notice.code === 'truncated' && /cut off at the token limit/.test(notice.message)));
    const retry = model.requests[1]?.messages.at(-1);
    assert.equal(retry.role, 'user');
    assert.match(retry.content, /cut off at the token limit.*shorter/s);
    assert.equal(run.result?.answer, 'A is alpha.');
  });

  it('three cut replies in a row stop the tool phase as mistakes', async () => {
    const cut = fc({ content: 'and so on and so', finishReason: 'length' });
    const model = await serve([cut, cut, cut, answer('Answered from nothing.')]);
    const run = await runScripted(settingsFor(model), { tools: [new TableTool('lookup', {})] });
    assert.equal(run.result?.stopReason, 'mistakes');
    assert.equal(model.requests.length, 4);
  });

  it('the token budget stops the tool phase and the answer model answers from what was gathered', async () => {
    const usage = { prompt_tokens: 400, completion_tokens: 200 };
    const model = await serve([
      fc({ toolCalls: [lookup('a')], usage }),
      fc({ toolCalls: [lookup('b')], usage }),
      fc({ toolCalls: [lookup('c')], usage }),
      answer('From A and B.'),
    ]);
    const table = { a: 'A stands for alpha in this table.', b: 'B stands for bravo in this table.', c: 'C stands for charlie in this table.' };
    const tool = new TableTool('lookup', table);
    const run = await runScripted(settingsFor(model, { maxTokensPerRun: 1000 }), { tools: [tool] });
    assert.equal(run.result?.stopReason, 'budget');
    assert.equal(tool.runs, 2);
    assert.ok(notices(run.events).some((notice) => notice.code === 'budget' && /1000 tokens/.test(notice.message)));
    assert.equal(model.requests.at(-1)?.model, 'answer-model');
    assert.match(JSON.stringify(model.requests.at(-1)?.messages), /bravo/);
  });

  it('a cost cap that cannot apply (a model without a price) is said at the start of the run, not silently ignored', async () => {
    const model = await serve([fc({ content: 'Enough.' }), answer('Done.')]);
    const run = await runScripted(settingsFor(model, { maxCostPerRun: 0.5, pricing: { 'fc-model': { input: 1, output: 2 } } }));
    assert.deepEqual(
      notices(run.events).filter((notice) => notice.code === 'settings').map((notice) => notice.message),
      ['tandem.agent.maxCostPerRun ($0.5) cannot stop this run: no price is known for "answer-model". Add it to tandem.pricing, or cap tokens with tandem.agent.maxTokensPerRun.'],
    );
    await model.close();
    const priced = await serve([fc({ content: 'Enough.' }), answer('Done.')]);
    const both = { 'fc-model': { input: 1, output: 2 }, 'answer-model': { input: 1, output: 2 } };
    const quiet = await runScripted(settingsFor(priced, { maxCostPerRun: 0.5, pricing: both }));
    assert.deepEqual(notices(quiet.events).filter((notice) => notice.code === 'settings'), []);
  });

  it('read, write, read of one file is not a loop; three identical reads are', async () => {
    const read = { name: 'lookup', arguments: { key: 'f' } };
    const write = { name: 'save', arguments: { key: 'f' } };
    const model = await serve([
      fc({ toolCalls: [read] }),
      fc({ toolCalls: [write] }),
      fc({ toolCalls: [read] }),
      fc({ toolCalls: [write] }),
      fc({ toolCalls: [read] }),
      fc({ content: 'Edited twice.' }),
      answer('Done.'),
    ]);
    const reads = new TableTool('lookup', { f: 'the file holds some text of enough length' });
    const writes = new TableTool('save', { f: 'saved the file with the new content' }, false);
    const run = await runScripted(settingsFor(model, { maxIterations: 7, autoApprove: 'all' }), { tools: [reads, writes] });
    assert.equal(run.result?.stopReason, 'noToolCall');
    assert.equal(reads.runs + writes.runs, 5);
    assert.ok(!notices(run.events).some((notice) => /loop/i.test(notice.code)));
    await model.close(); // the helper closes only the last server it started

    const again = await serve([fc({ toolCalls: [read] }), fc({ toolCalls: [read] }), fc({ toolCalls: [read] }), answer('Stopped.')]);
    const looped = await runScripted(settingsFor(again), { tools: [new TableTool('lookup', { f: 'the file holds some text of enough length' })] });
    assert.equal(looped.result?.stopReason, 'loopDetected');
    assert.ok(notices(looped.events).some((notice) => notice.code === 'loopWarning' && /nothing written in between/.test(notice.message)));
  });

  it('the same call three times in one reply runs once, counts once, and each copy gets an answer', async () => {
    const read = { name: 'lookup', arguments: { key: 'f' } };
    const write = { name: 'save', arguments: { key: 'f' } };
    const model = await serve([
      fc({ toolCalls: [read, { name: 'lookup', arguments: { key: 'f' } }, read] }),
      fc({ toolCalls: [write, write] }),
      fc({ content: 'Read once, saved once.' }),
      answer('Done.'),
    ]);
    const reads = new TableTool('lookup', { f: 'the file holds some text of enough length' });
    const writes = new TableTool('save', { f: 'saved the file with the new content' }, false);
    const run = await runScripted(settingsFor(model, { autoApprove: 'all' }), { tools: [reads, writes] });
    assert.equal(run.result?.stopReason, 'noToolCall');
    assert.deepEqual([reads.runs, writes.runs], [1, 1]);
    assert.deepEqual(notices(run.events).filter((notice) => /loop/i.test(notice.code)), []);
    const toolMessages = model.requests[1]!.messages.filter((message: { role: string }) => message.role === 'tool');
    assert.equal(toolMessages.length, 3, 'every tool call of the reply has its tool message');
    assert.equal(toolMessages[0].content, 'the file holds some text of enough length');
    const firstId = model.requests[1]!.messages.find((message: { role: string }) => message.role === 'assistant').tool_calls[0].id;
    for (const copy of toolMessages.slice(1)) assert.equal(copy.content, `This is the same call as ${firstId} earlier in this reply, so it was not made again: see that call's result.`);
  });

  it('at the time limit, calls that finished in the round in flight reach the answer model; the slow one is left out', async () => {
    const fast = slowTool('fast_read', 10, 'FAST-RESULT: the quick read finished in time.', { readOnly: true, honoursStop: true });
    const slow = slowTool('slow_read', 10_000, 'never', { readOnly: true, honoursStop: true });
    const model = await serve([fc({ toolCalls: [{ name: 'fast_read', arguments: {} }, { name: 'slow_read', arguments: {} }] }), answer('Partial answer.')]);
    const started = Date.now();
    const run = await runScripted(settingsFor(model, { maxExecutionSeconds: 1 }), { tools: [fast, slow] });
    assert.ok(Date.now() - started < 5000, 'the slow tool did not hold the run');
    assert.equal(run.result?.stopReason, 'timeLimit');
    assert.equal(slow.finished, false);
    const answerRequest = JSON.stringify(model.requests.at(-1)?.messages);
    assert.equal(model.requests.at(-1)?.model, 'answer-model');
    assert.match(answerRequest, /FAST-RESULT/);
    assert.doesNotMatch(answerRequest, /never/);
  });

  it('a read that ignores the stop signal does not hold the run past the time limit', async () => {
    const deaf = slowTool('deaf_read', 10_000, 'never', { readOnly: true, honoursStop: false });
    const model = await serve([fc({ toolCalls: [{ name: 'deaf_read', arguments: {} }] }), answer('What I know so far.')]);
    const started = Date.now();
    const run = await runScripted(settingsFor(model, { maxExecutionSeconds: 1 }), { tools: [deaf] });
    assert.ok(Date.now() - started < 5000, `the run took ${Date.now() - started} ms`);
    assert.equal(run.result?.stopReason, 'timeLimit');
    assert.equal(run.result?.answer, 'What I know so far.');
  });

  it('Stop while a change is under way ends the run once it lands, without asking the model again', async () => {
    const write = slowTool('slow_write', 800, 'WROTE notes.md (3 lines).', { readOnly: false, honoursStop: false });
    const model = await serve([fc({ toolCalls: [{ name: 'slow_write', arguments: {} }] }), fc({ content: 'More?' }), answer('Should not be asked.')]);
    const stop = new AbortController();
    const run = await runScripted(settingsFor(model, { autoApprove: 'all', maxIterations: 1 }), {
      tools: [write],
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === 'TOOL_CALL_END') setTimeout(() => stop.abort(), 100);
      },
    });
    assert.equal(write.finished, true);
    // The write is reported; nothing runs after it: no other request, no iteration-limit notice, no answer phase.
    assert.ok(run.events.some((event) => event.type === 'TOOL_CALL_RESULT' && String(event['content']).includes('WROTE notes.md')));
    assert.equal(model.requests.length, 1, 'no request after Stop');
    assert.deepEqual(notices(run.events).filter((notice) => /limit/i.test(notice.message)), []);
    assert.equal(run.result?.stopReason, 'cancelled');
  });

  it('a write that completes after the time limit is still reported to the answer model', async () => {
    const write = slowTool('slow_write', 1500, 'WROTE notes.md (3 lines).', { readOnly: false, honoursStop: false });
    const model = await serve([fc({ toolCalls: [{ name: 'slow_write', arguments: {} }] }), answer('Wrote it.')]);
    const run = await runScripted(settingsFor(model, { maxExecutionSeconds: 1, autoApprove: 'all' }), { tools: [write] });
    assert.equal(run.result?.stopReason, 'timeLimit');
    assert.equal(write.finished, true);
    assert.match(JSON.stringify(model.requests.at(-1)?.messages), /WROTE notes\.md/);
  });
});
