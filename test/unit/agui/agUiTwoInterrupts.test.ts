// One loop, two approvals in turn over AG-UI (HttpAgent as the client): the
// first edit interrupts the run, the resume approves it and the same loop goes
// on to the model's next call, which needs a second approval and interrupts
// again; the second resume approves that and the loop ends with its answer.
// Each AG-UI run reports the model calls made during it, never the earlier ones.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { it } from 'node:test';
import type { BaseEvent, Interrupt } from '@ag-ui/core';
import { collect, finishedOf, runInput, sseEvents, startEndpoint, typesOf } from './agUiTestSupport';

function interruptsOf(finished: Record<string, any>): Interrupt[] {
  assert.equal(finished.outcome?.type, 'interrupt', JSON.stringify(finished));
  return finished.outcome.interrupts as Interrupt[];
}

const customs = (events: readonly BaseEvent[], name: string) => events.filter((event: any) => event.type === 'CUSTOM' && event.name === name).map((event: any) => event.value);

it('two approvals in successive iterations: interrupted, resumed, interrupted again, resumed, answered; each run counts its own calls', async () => {
  const endpoint = await startEndpoint({
    settings: { minResultLength: 0 },
    turns: [
      { model: 'fc-model', toolCalls: [{ id: 'call-1', name: 'write_file', arguments: { path: 'a.md', content: 'A\n' } }], usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { model: 'fc-model', toolCalls: [{ id: 'call-2', name: 'write_file', arguments: { path: 'b.md', content: 'B\n' } }], usage: { prompt_tokens: 70, completion_tokens: 6 } },
      { model: 'fc-model', content: 'Both written.', usage: { prompt_tokens: 90, completion_tokens: 4 } },
      { model: 'answer-model', content: 'Wrote a.md and b.md.', usage: { prompt_tokens: 100, completion_tokens: 10 } },
    ],
  });
  const agent = endpoint.agent({ messages: [{ id: 'u1', role: 'user', content: 'Write a.md, then b.md.' }] });
  const file = (name: string) => path.join(endpoint.kit.root, name);

  // Run 1: the first edit asks.
  const first = await collect(agent);
  const [firstInterrupt, ...moreFirst] = interruptsOf(finishedOf(first.events));
  assert.deepEqual(moreFirst, [], 'one call, one interrupt');
  assert.equal(firstInterrupt?.toolCallId, 'call-1');
  assert.equal((firstInterrupt?.metadata as any)?.tandem?.path, file('a.md'));
  assert.equal(typesOf(first.events)[0], 'RUN_STARTED');
  assert.deepEqual(typesOf(first.events).slice(-3), ['MESSAGES_SNAPSHOT', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
  assert.deepEqual(customs(first.events, 'tandem.approval').map((approval) => [approval.toolCallId, approval.status]), [['call-1', 'pending']]);
  assert.ok(!typesOf(first.events).includes('TOOL_CALL_RESULT'));
  assert.equal(existsSync(file('a.md')), false, 'nothing written before the approval');
  assert.equal(endpoint.model.requests.length, 1);
  assert.deepEqual(finishedOf(first.events).usage, [{ model: 'fc-model', inputTokens: 50, outputTokens: 5, totalTokens: 55, cachedInputTokens: 0 }]);

  // Run 2: the first edit is approved and written; the loop's next call asks again.
  const second = await collect(agent, { resume: [{ interruptId: firstInterrupt!.id, status: 'resolved', payload: { approved: true } }] });
  const [secondInterrupt, ...moreSecond] = interruptsOf(finishedOf(second.events));
  assert.deepEqual(moreSecond, []);
  assert.equal(secondInterrupt?.toolCallId, 'call-2');
  assert.notEqual(secondInterrupt?.id, firstInterrupt!.id, 'a new interrupt, not the answered one again');
  assert.equal((secondInterrupt?.metadata as any)?.tandem?.path, file('b.md'));
  assert.equal(readFileSync(file('a.md'), 'utf8'), 'A\n');
  assert.equal(existsSync(file('b.md')), false);
  assert.deepEqual(
    second.events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event: any) => event.toolCallId),
    ['call-1'],
    "the first call's result in the run that approved it",
  );
  assert.deepEqual(
    second.events.filter((event) => event.type === 'TOOL_CALL_START').map((event: any) => event.toolCallId),
    ['call-2'],
    'nothing of the first run is replayed',
  );
  assert.deepEqual(
    customs(second.events, 'tandem.approval').map((approval) => [approval.toolCallId, approval.status]),
    [
      ['call-1', 'approved'],
      ['call-2', 'pending'],
    ],
  );
  assert.deepEqual(typesOf(second.events).slice(-3), ['MESSAGES_SNAPSHOT', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
  const snapshot = second.events.at(-3) as any;
  assert.deepEqual(
    snapshot.messages.map((message: any) => [message.role, message.toolCallId ?? message.id]),
    [
      ['user', 'u1'],
      ['assistant', 'call-1'],
      ['tool', 'call-1'],
      ['assistant', 'call-2'],
    ],
  );
  assert.equal(endpoint.model.requests.length, 2);
  assert.deepEqual(finishedOf(second.events).usage, [{ model: 'fc-model', inputTokens: 70, outputTokens: 6, totalTokens: 76, cachedInputTokens: 0 }], 'only the call made during this run');

  // The answered interrupt is gone: resuming with it again is refused, and the loop keeps waiting.
  const stale = (await sseEvents(await endpoint.post(runInput({ threadId: agent.threadId, runId: 'stale', messages: [], resume: [{ interruptId: firstInterrupt!.id, status: 'resolved', payload: { approved: true } }] })))).at(-1);
  assert.deepEqual([stale?.type, stale?.code], ['RUN_ERROR', 'UNKNOWN_INTERRUPT']);
  assert.equal(existsSync(file('b.md')), false);

  // Run 3: the second edit is approved; the loop answers.
  const third = await collect(agent, { resume: [{ interruptId: secondInterrupt!.id, status: 'resolved', payload: { approved: true } }] });
  const finished = finishedOf(third.events);
  assert.deepEqual(finished.outcome, { type: 'success' });
  assert.deepEqual(third.result, { stopReason: 'noToolCall', answer: 'Wrote a.md and b.md.' });
  assert.equal(readFileSync(file('b.md'), 'utf8'), 'B\n');
  assert.deepEqual(customs(third.events, 'tandem.approval').map((approval) => [approval.toolCallId, approval.status]), [['call-2', 'approved']]);
  assert.deepEqual(
    third.events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event: any) => event.toolCallId),
    ['call-2'],
  );
  assert.equal(endpoint.model.requests.length, 4);
  const toolMessages = endpoint.model.requests[2]!.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.tool_call_id);
  assert.deepEqual(toolMessages, ['call-1', 'call-2'], 'the model saw both results, in order');
  assert.deepEqual(finished.usage, [
    { model: 'fc-model', inputTokens: 90, outputTokens: 4, totalTokens: 94, cachedInputTokens: 0 },
    { model: 'answer-model', inputTokens: 100, outputTokens: 10, totalTokens: 110, cachedInputTokens: 0 },
  ]);
  assert.equal(agent.pendingInterrupts.length, 0);

  // Tandem's own usage events agree: each run's last one counts that run's calls, so adding them up counts each call once.
  const lastUsage = (events: readonly BaseEvent[]) => customs(events, 'tandem.usage').at(-1);
  const counts = [first, second, third].map(({ events }) => {
    const usage = lastUsage(events);
    return [usage?.functionCall?.calls, usage?.functionCall?.promptTokens, usage?.answer?.calls ?? 0, usage?.answer?.promptTokens ?? 0];
  });
  assert.deepEqual(counts, [
    [1, 50, 0, 0],
    [1, 70, 0, 0],
    [1, 90, 1, 100],
  ]);
});
