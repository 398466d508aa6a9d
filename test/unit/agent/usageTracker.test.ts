// The tracker's snapshot as reported: costs without float noise and none for
// a model never called, estimates marked per count, and AG-UI's entries made
// by the same mapping as the AG-UI accounting's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageTracker } from '../../../src/agent/usageTracker';
import { tokenUsageOf } from '../../../src/agui/usageAccounting';

const pricing = { fc: { input: 0.15, output: 0.6 }, writer: { input: 0.1, output: 0.4 } };

describe('usage tracker', () => {
  it('reports costs rounded, summed before rounding, and no cost for a model never called', () => {
    const tracker = new UsageTracker('fc', 'writer', pricing);
    // 7 × 0.15 / 1e6 is 0.0000010500000000000001 in floating point.
    tracker.recordCall('function-call', { usage: { promptTokens: 7, completionTokens: 0, cachedTokens: undefined, estimated: false } });
    const usage = tracker.snapshot();
    assert.equal(usage.functionCall.costUsd, 0.00000105);
    assert.equal(usage.totalCostUsd, 0.00000105);
    assert.equal(usage.answer.costUsd, undefined, 'not $0: the answer model was never asked');
    tracker.recordCall('answer', { usage: { promptTokens: 3, completionTokens: 0, cachedTokens: undefined, estimated: false } });
    const both = tracker.snapshot();
    assert.equal(both.answer.costUsd, 0.0000003, 'not 3.0000000000000004e-7');
    assert.equal(both.totalCostUsd, 0.00000135);
  });

  it('an attempt cut short marks only the count the server did not send', () => {
    const tracker = new UsageTracker('fc', 'writer', pricing);
    tracker.recordPartial('answer', { promptTokens: 1200, completionTokens: 40, cachedTokens: undefined, estimated: true, estimatedCounts: { prompt: false, completion: true } });
    tracker.recordPartial('answer', { promptTokens: 1300, completionTokens: 50, cachedTokens: undefined, estimated: false });
    assert.deepEqual(tracker.snapshot().answer.estimatedCalls, { prompt: 0, completion: 1 });
  });

  it('marks only the count that was estimated, per call', () => {
    const tracker = new UsageTracker('fc', 'writer', pricing);
    const onlyOutput = { promptTokens: 400, completionTokens: 12, cachedTokens: undefined, estimated: true, estimatedCounts: { prompt: true, completion: false } };
    tracker.recordCall('function-call', { usage: onlyOutput });
    tracker.recordCall('function-call', { usage: { promptTokens: 500, completionTokens: 20, cachedTokens: undefined, estimated: false } });
    const usage = tracker.snapshot();
    assert.equal(usage.functionCall.estimated, true, 'still true when any count is');
    assert.deepEqual(usage.functionCall.estimatedCalls, { prompt: 1, completion: 0 });
    assert.equal(usage.answer.estimatedCalls, undefined);
    assert.deepEqual(tracker.toAgUi(), [
      { model: 'fc', inputTokens: 900, outputTokens: 32, totalTokens: 932, tandem: { estimated: true, estimatedCounts: ['inputTokens', 'totalTokens'] } },
    ]);
  });

  it("RUN_FINISHED's entries are the tandem.usage snapshot's, mapped once", () => {
    const tracker = new UsageTracker('fc', 'writer', pricing);
    tracker.recordCall('function-call', { usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 40, reasoningTokens: 4, estimated: false } });
    tracker.recordPartial('answer', { promptTokens: 50, completionTokens: 3, cachedTokens: undefined, estimated: true });
    assert.deepEqual(tracker.toAgUi(), tokenUsageOf(tracker.snapshot()));
  });
});
