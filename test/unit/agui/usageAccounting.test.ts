// AG-UI usage: one entry per model (single-model mode sums both phases), a
// count nobody reported stays absent, and a resumed run reports only its own.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { mergeByModel, runUsageSince, tokenUsageOf, tokenUsageSince } from '../../../src/agui/usageAccounting';
import type { ModelUsage, RunUsage } from '../../../src/protocol/agentEvents';

function modelUsage(role: ModelUsage['role'], model: string, calls: number, prompt?: number, completion?: number, cached?: number): ModelUsage {
  return { role, model, calls, promptTokens: prompt, completionTokens: completion, cachedTokens: cached, estimated: false, costUsd: undefined, costIsDefaultPrice: false };
}

it('one entry per model: both phases on one model are summed', () => {
  const usage: RunUsage = {
    functionCall: modelUsage('function-call', 'solo', 2, 100, 10, 40),
    answer: modelUsage('answer', 'solo', 1, 50, 20, 0),
    toolPhaseMs: 1,
    answerPhaseMs: 1,
    totalCostUsd: undefined,
  };
  assert.deepEqual(tokenUsageOf(usage), [{ model: 'solo', inputTokens: 150, outputTokens: 30, totalTokens: 180, cachedInputTokens: 40 }]);
});

it('leaves out models never called and counts never reported', () => {
  const usage: RunUsage = {
    functionCall: modelUsage('function-call', 'fc', 1, 10, 2),
    answer: modelUsage('answer', 'writer', 0),
    toolPhaseMs: 1,
    answerPhaseMs: 0,
    totalCostUsd: undefined,
  };
  assert.deepEqual(tokenUsageOf(usage), [{ model: 'fc', inputTokens: 10, outputTokens: 2, totalTokens: 12 }]);
});

it('a resumed run reports what it added, per model', () => {
  const before: RunUsage = {
    functionCall: modelUsage('function-call', 'fc', 1, 100, 10, 0),
    answer: modelUsage('answer', 'writer', 0),
    toolPhaseMs: 1,
    answerPhaseMs: 0,
    totalCostUsd: undefined,
  };
  const after: RunUsage = { ...before, functionCall: modelUsage('function-call', 'fc', 3, 260, 14, 100), answer: modelUsage('answer', 'writer', 1, 90, 9) };
  assert.deepEqual(tokenUsageSince(after, before), [
    { model: 'fc', inputTokens: 160, outputTokens: 4, totalTokens: 164, cachedInputTokens: 100 },
    { model: 'writer', inputTokens: 90, outputTokens: 9, totalTokens: 99 },
  ]);
  assert.deepEqual(tokenUsageSince(before, before), [], 'nothing new, nothing listed');
  const entry = { model: 'fc', inputTokens: 100, outputTokens: 10, totalTokens: 110, cachedInputTokens: 0 };
  assert.deepEqual(mergeByModel([entry, entry]), [{ model: 'fc', inputTokens: 200, outputTokens: 20, totalTokens: 220, cachedInputTokens: 0 }]);
});

it('an estimated count says so, and reasoning tokens a server reported pass through', () => {
  const usage: RunUsage = {
    functionCall: { ...modelUsage('function-call', 'fc', 1, 10, 2), estimated: true },
    answer: { ...modelUsage('answer', 'writer', 1, 30, 70), reasoningTokens: 40 },
    toolPhaseMs: 1,
    answerPhaseMs: 1,
    totalCostUsd: undefined,
  };
  assert.deepEqual(tokenUsageOf(usage), [
    { model: 'fc', inputTokens: 10, outputTokens: 2, totalTokens: 12, tandem: { estimated: true, estimatedCounts: ['inputTokens', 'outputTokens', 'totalTokens'] } },
    { model: 'writer', inputTokens: 30, outputTokens: 70, totalTokens: 100, reasoningTokens: 40 },
  ]);
});

it("a loop's usage snapshot less what the runs before an interrupt reported", () => {
  const before: RunUsage = {
    functionCall: { ...modelUsage('function-call', 'fc', 1, 700, 20), costUsd: 0.00156 },
    answer: { ...modelUsage('answer', 'writer', 0), costUsd: 0 },
    toolPhaseMs: 100,
    answerPhaseMs: 0,
    waitingMs: 50,
    totalCostUsd: 0.00156,
  };
  const now: RunUsage = {
    functionCall: { ...modelUsage('function-call', 'fc', 2, 1500, 25), costUsd: 0.0032 },
    answer: { ...modelUsage('answer', 'writer', 1, 300, 3), costUsd: 0.000312 },
    toolPhaseMs: 180,
    answerPhaseMs: 40,
    waitingMs: 50,
    totalCostUsd: 0.003512,
  };
  const since = runUsageSince(now, before);
  assert.deepEqual([since.functionCall.calls, since.functionCall.promptTokens, since.functionCall.completionTokens], [1, 800, 5]);
  assert.deepEqual([since.answer.calls, since.answer.promptTokens], [1, 300]);
  assert.ok(Math.abs(since.totalCostUsd! - 0.001952) < 1e-9);
  assert.deepEqual([since.toolPhaseMs, since.answerPhaseMs, since.waitingMs], [80, 40, undefined]);
  assert.equal(runUsageSince(now, undefined), now, 'the first run reports all of it');
});

it('costs are reported without float noise, and a model not called since has no cost rather than $0', () => {
  const before: RunUsage = {
    functionCall: { ...modelUsage('function-call', 'fc', 1, 700, 20), costUsd: 0.00156 },
    answer: { ...modelUsage('answer', 'writer', 1, 300, 3), costUsd: 0.000312 },
    toolPhaseMs: 100,
    answerPhaseMs: 10,
    totalCostUsd: 0.001872,
  };
  const now: RunUsage = { ...before, functionCall: { ...modelUsage('function-call', 'fc', 2, 1500, 25), costUsd: 0.0032 }, totalCostUsd: 0.003512 };
  const since = runUsageSince(now, before);
  assert.equal(since.functionCall.costUsd, 0.00164, 'not 0.0016400000000000002');
  assert.equal(since.totalCostUsd, 0.00164);
  assert.equal(since.answer.calls, 0);
  assert.equal(since.answer.costUsd, undefined, 'the answer model was not called in this run');
  assert.ok(!('costUsd' in JSON.parse(JSON.stringify(since.answer))), 'left out of the event');
});

it('marks only the count that was estimated: a server that sent completion_tokens alone', () => {
  const usage: RunUsage = {
    functionCall: { ...modelUsage('function-call', 'fc', 2, 400, 12), estimated: true, estimatedCalls: { prompt: 1, completion: 0 } },
    answer: modelUsage('answer', 'writer', 0),
    toolPhaseMs: 1,
    answerPhaseMs: 0,
    totalCostUsd: undefined,
  };
  assert.deepEqual(tokenUsageOf(usage), [
    { model: 'fc', inputTokens: 400, outputTokens: 12, totalTokens: 412, tandem: { estimated: true, estimatedCounts: ['inputTokens', 'totalTokens'] } },
  ]);
  // One model in both phases, each estimating another count: the merged entry marks both.
  const both: RunUsage = { ...usage, answer: { ...modelUsage('answer', 'fc', 1, 50, 5), estimated: true, estimatedCalls: { prompt: 0, completion: 1 } } };
  assert.deepEqual(tokenUsageOf(both)[0]?.['tandem' as never], { estimated: true, estimatedCounts: ['inputTokens', 'outputTokens', 'totalTokens'] });
});

it("a resumed run's estimate marks describe its own calls, not the earlier runs'", () => {
  const before: RunUsage = {
    functionCall: { ...modelUsage('function-call', 'fc', 1, 100, 10), estimated: true, estimatedCalls: { prompt: 1, completion: 1 } },
    answer: modelUsage('answer', 'writer', 0),
    toolPhaseMs: 1,
    answerPhaseMs: 0,
    totalCostUsd: undefined,
  };
  // This run's call had both counts from the server.
  const now: RunUsage = { ...before, functionCall: { ...before.functionCall, calls: 2, promptTokens: 250, completionTokens: 15 } };
  const since = runUsageSince(now, before);
  assert.equal(since.functionCall.estimated, false);
  assert.equal(since.functionCall.estimatedCalls, undefined);
  assert.deepEqual(tokenUsageSince(now, before), [{ model: 'fc', inputTokens: 150, outputTokens: 5, totalTokens: 155 }]);
  // Its call estimated the output only: that is what it says.
  const estimatedOutput: RunUsage = { ...now, functionCall: { ...now.functionCall, estimatedCalls: { prompt: 1, completion: 2 } } };
  assert.deepEqual(runUsageSince(estimatedOutput, before).functionCall.estimatedCalls, { prompt: 0, completion: 1 });
  assert.deepEqual(tokenUsageSince(estimatedOutput, before)[0]?.['tandem' as never], { estimated: true, estimatedCounts: ['outputTokens', 'totalTokens'] });
});
