import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelUsage, RunUsage } from '../../../src/protocol/agentEvents';
import { conversationRow, costLine, formatCost, formatCount, timeLine, usageLogLine, usageTable } from '../../../src/protocol/usageFormat';

const model = (overrides: Partial<ModelUsage>): ModelUsage => ({
  role: 'function-call',
  model: 'm',
  calls: 1,
  promptTokens: 100,
  completionTokens: 10,
  cachedTokens: undefined,
  estimated: false,
  costUsd: 0.001,
  costIsDefaultPrice: false,
  ...overrides,
});

describe('usage figures', () => {
  it('never shows a missing count as 0, and marks estimates', () => {
    assert.equal(formatCount(undefined), '–');
    assert.equal(formatCount(1234), '1234');
    assert.equal(formatCount(1234, true), '~1234');
    assert.equal(formatCost(undefined, true), '–');
    assert.equal(formatCost(0.00123, true), '≈ $0.0012');
    assert.equal(formatCost(0.0102, true), '≈ $0.0102');
    assert.equal(formatCost(2.5, false), '$2.50');
  });

  it('sums both models into the totals and labels the cost as an estimate', () => {
    const usage: RunUsage = {
      functionCall: model({ model: 'small', calls: 3, promptTokens: 1200, completionTokens: 80 }),
      answer: model({ role: 'answer', model: 'big', calls: 1, promptTokens: 900, completionTokens: undefined, costIsDefaultPrice: true }),
      toolPhaseMs: 1500,
      answerPhaseMs: 400,
      totalCostUsd: 0.0042,
    };
    const table = usageTable(usage);
    assert.equal(table.functionCall.tokensIn, '1200');
    assert.equal(table.answer.tokensOut, '–');
    assert.equal(table.total.tokensIn, '2100');
    assert.equal(table.total.tokensOut, '80');
    assert.equal(table.total.calls, '4');
    assert.equal(table.functionCall.time, '1.5 s');
    assert.equal(table.answer.time, '400 ms');
    assert.equal(table.total.cost, '≈ $0.0042');
    assert.match(table.costNote, /Estimated cost \(built-in prices/);
  });

  it('the totals count attempts cut short as the rows do, and the tooltips say what was cached and what was reasoning', () => {
    const usage: RunUsage = {
      functionCall: model({ model: 'small', calls: 0, partialAttempts: 1, promptTokens: 2816, completionTokens: 18, cachedTokens: 1400, estimated: true }),
      answer: model({ role: 'answer', model: 'big', calls: 1, promptTokens: 900, completionTokens: 70, reasoningTokens: 40 }),
      toolPhaseMs: 1,
      answerPhaseMs: 1,
      totalCostUsd: 0.01,
    };
    const table = usageTable(usage);
    assert.equal(table.functionCall.calls, '0 + 1 partial');
    assert.equal(table.total.calls, '1 + 1 partial', 'a run with a cost is not shown as having no calls');
    assert.equal(table.functionCall.tokensInTitle, '~ estimated locally, not counted by the server; 1400 of them read from the cache');
    assert.equal(table.answer.tokensOutTitle, '40 of them reasoning');
    assert.equal(table.answer.tokensInTitle, '');
    assert.equal(table.total.tokensInTitle, '~ estimated locally, not counted by the server; 1400 of them read from the cache');
    const chat = usageTable({ ...usage, functionCall: model({ calls: 0, promptTokens: undefined, completionTokens: undefined, costUsd: 0 }) });
    assert.equal(chat.functionCall.cost, '–', 'a model never asked shows no cost, not ≈ $0.00');
  });

  it('one model for both phases: one row under its name with both phases added up', () => {
    const usage: RunUsage = {
      functionCall: model({ model: 'gpt-4o-mini', calls: 2, promptTokens: 1000, completionTokens: 50 }),
      answer: model({ role: 'answer', model: 'gpt-4o-mini', calls: 0, promptTokens: undefined, completionTokens: undefined }),
      toolPhaseMs: 800,
      answerPhaseMs: 0,
      totalCostUsd: 0.001,
    };
    const table = usageTable(usage);
    assert.equal(table.singleModel?.model, 'gpt-4o-mini');
    assert.equal(table.singleModel?.tokensIn, '1000');
    assert.equal(table.singleModel?.calls, '2');
    assert.equal(usageTable({ ...usage, answer: { ...usage.answer, model: 'other' } }).singleModel, undefined);
  });
  it('the cost line names the model without a price, never calls an unknown cost free', () => {
    const run = (functionCall: Partial<ModelUsage>, answer: Partial<ModelUsage>, totalCostUsd: number | undefined): RunUsage => ({
      functionCall: model({ model: 'gpt-4o-mini', ...functionCall }),
      answer: model({ role: 'answer', model: 'llama3.1:8b', ...answer }),
      toolPhaseMs: 10,
      answerPhaseMs: 10,
      totalCostUsd,
    });
    assert.equal(costLine(run({}, { costUsd: undefined }, undefined), 'Estimated cost', '–'), 'Cost: unknown, no price is known for "llama3.1:8b" (add it to tandem.pricing).');
    assert.equal(costLine(run({ costUsd: undefined }, { costUsd: undefined }, undefined), 'Estimated cost', '–'), 'Cost: unknown, no price is known for "gpt-4o-mini" and "llama3.1:8b" (add them to tandem.pricing).');
    assert.equal(costLine(run({}, {}, 0.002), 'Estimated cost', '≈ $0.0020'), 'Estimated cost: ≈ $0.0020.');
    assert.equal(costLine(run({ calls: 0 }, { calls: 0 }, undefined), 'Estimated cost', '–'), 'Cost: none (no model call completed).');
    // The Run row says nothing was spent the same way, not "≈ $0.00".
    assert.equal(usageTable(run({ calls: 0, costUsd: undefined }, { calls: 0, costUsd: undefined }, 0)).total.cost, '–');
    // A model on this machine without a price is not counted, and said so; one elsewhere without a price is still unknown.
    assert.equal(
      costLine(run({ model: 'llama3.1:8b', costUsd: undefined, servedLocally: true }, { costUsd: undefined, servedLocally: true }, undefined), 'Estimated cost', '–'),
      'Cost: not counted, "llama3.1:8b" runs on this machine (if it costs, add a price to tandem.pricing).',
    );
    // A priced model beside it keeps its sum in the line.
    assert.equal(
      costLine(run({}, { costUsd: undefined, servedLocally: true }, undefined), 'Estimated cost', '–'),
      'Estimated cost: ≈ $0.0010 for "gpt-4o-mini"; not counted: "llama3.1:8b" runs on this machine (if it costs, add a price to tandem.pricing).',
    );
    assert.match(costLine(run({ costUsd: undefined }, { costUsd: undefined, servedLocally: true }, undefined), 'Estimated cost', '–'), /^Cost: unknown, no price is known for "gpt-4o-mini" and "llama3\.1:8b"/);
    // One name at two endpoints (a paid one, one on this machine): two models, each named with its phase, and two rows.
    const twoEndpoints = run({ model: 'qwen3' }, { model: 'qwen3', costUsd: undefined, servedLocally: true }, undefined);
    assert.equal(
      costLine(twoEndpoints, 'Estimated cost', '–'),
      'Estimated cost: ≈ $0.0010 for "qwen3" (function-call model); not counted: "qwen3" (answer model) runs on this machine (if it costs, add a price to tandem.pricing).',
    );
    assert.equal(usageTable(twoEndpoints).singleModel, undefined);
    // The same model in both phases: one row, plain names.
    const oneModel = run({ model: 'qwen3', costUsd: undefined, servedLocally: true }, { model: 'qwen3', costUsd: undefined, servedLocally: true }, undefined);
    assert.equal(usageTable(oneModel).singleModel?.model, 'qwen3');
    assert.equal(costLine(oneModel, 'Estimated cost', '–'), 'Cost: not counted, "qwen3" runs on this machine (if it costs, add a price to tandem.pricing).');
  });

  it('names in the time line only the phases that ran', () => {
    const base = { totalCostUsd: undefined };
    const agent: RunUsage = { ...base, functionCall: model({ calls: 3 }), answer: model({ role: 'answer', calls: 1 }), toolPhaseMs: 2400, answerPhaseMs: 1300 };
    assert.equal(timeLine(agent), 'Time: function-call phase 2.4 s · answer 1.3 s · total 3.7 s');
    assert.equal(timeLine({ ...agent, waitingMs: 20_400 }), 'Time: function-call phase 2.4 s · answer 1.3 s · total 3.7 s · waiting for you 20.4 s');
    assert.equal(timeLine({ ...agent, waitingMs: 120 }), 'Time: function-call phase 2.4 s · answer 1.3 s · total 3.7 s', 'an instant answer is not worth a word');
    // Chat mode: no function-call phase.
    const chat: RunUsage = { ...base, functionCall: model({ calls: 0 }), answer: model({ role: 'answer', calls: 1 }), toolPhaseMs: 0, answerPhaseMs: 900 };
    assert.equal(timeLine(chat), 'Time: answer 900 ms');
    // One model answered directly in the tool phase: no answer phase, not "answer 0 ms".
    const direct: RunUsage = { ...base, functionCall: model({ calls: 1 }), answer: model({ role: 'answer', calls: 0 }), toolPhaseMs: 2400, answerPhaseMs: 0.2 };
    assert.equal(timeLine(direct), 'Time: function-call phase 2.4 s');
    // A first call that failed after retry waits still shows the time the phase took.
    const failed: RunUsage = { ...base, functionCall: model({ calls: 0 }), answer: model({ role: 'answer', calls: 0 }), toolPhaseMs: 5200, answerPhaseMs: 0 };
    assert.equal(timeLine(failed), 'Time: function-call phase 5.2 s');
    // A partial answer attempt counts as an answer phase.
    const partial: RunUsage = { ...base, functionCall: model({ calls: 2 }), answer: model({ role: 'answer', calls: 0, partialAttempts: 1 }), toolPhaseMs: 1000, answerPhaseMs: 0 };
    assert.equal(timeLine(partial), 'Time: function-call phase 1.0 s · answer 0 ms · total 1.0 s');
  });

  it('marks only the estimated count, in the cells, their tooltips and the totals', () => {
    // The server sent completion_tokens only: the prompt count was estimated, the output is the server's.
    const usage: RunUsage = {
      functionCall: model({ model: 'small', calls: 2, promptTokens: 1200, completionTokens: 80, estimated: true, estimatedCalls: { prompt: 1, completion: 0 } }),
      answer: model({ role: 'answer', model: 'big', calls: 1, promptTokens: 900, completionTokens: 70 }),
      toolPhaseMs: 1,
      answerPhaseMs: 1,
      totalCostUsd: 0.01,
    };
    const table = usageTable(usage);
    assert.deepEqual([table.functionCall.tokensIn, table.functionCall.tokensOut], ['~1200', '80']);
    assert.deepEqual([table.functionCall.tokensInTitle, table.functionCall.tokensOutTitle], ['~ estimated locally, not counted by the server', '']);
    assert.deepEqual([table.answer.tokensIn, table.answer.tokensOut], ['900', '70']);
    assert.deepEqual([table.total.tokensIn, table.total.tokensOut], ['~2100', '150']);
    assert.match(table.costNote, /~ marks token counts estimated locally/);
    const chat = conversationRow([usage, usage]);
    assert.deepEqual([chat.tokensIn, chat.tokensOut], ['~4200', '300']);
    // Usage saved before counts were told apart: `estimated` still marks both.
    const old = usageTable({ ...usage, functionCall: model({ estimated: true }) });
    assert.deepEqual([old.functionCall.tokensIn, old.functionCall.tokensOut], ['~100', '~10']);
  });

  it("the conversation's cost is summed, then reported without float noise", () => {
    const run = (totalCostUsd: number): RunUsage => ({ functionCall: model({}), answer: model({ role: 'answer' }), toolPhaseMs: 1, answerPhaseMs: 1, totalCostUsd });
    assert.equal(conversationRow([run(0.1), run(0.2)]).numbers.costUsd, 0.3, 'not 0.30000000000000004');
  });

  it("the log's line uses the same figures: per-count estimates, calls cut short, the cost", () => {
    const usage: RunUsage = {
      functionCall: model({ model: 'local-fc', calls: 2, promptTokens: 2200, cachedTokens: 1400, completionTokens: 60, estimated: true, estimatedCalls: { prompt: 0, completion: 1 } }),
      answer: model({ role: 'answer', model: 'local-answer', calls: 1, partialAttempts: 1, promptTokens: 900, completionTokens: undefined }),
      toolPhaseMs: 1,
      answerPhaseMs: 1,
      totalCostUsd: 0.0278,
    };
    assert.equal(usageLogLine(usage), 'local-fc 2200 in (1400 cached) / ~60 out, 2 calls; local-answer 900 in / – out, 1 + 1 partial calls; ≈ $0.0278');
    const chat: RunUsage = { ...usage, functionCall: model({ calls: 0 }), answer: model({ role: 'answer', model: 'a', calls: 1 }), totalCostUsd: undefined };
    assert.equal(usageLogLine(chat), 'a 100 in / 10 out, 1 call; cost unknown');
  });
});
