import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { costOf, findPrice } from '../../../src/agent/pricing';
import { UsageTracker } from '../../../src/agent/usageTracker';

describe('pricing', () => {
  it('prefers the user table, then built-in prices by exact name, provider prefix or dated variant', () => {
    assert.deepEqual(findPrice('gpt-4o', { 'gpt-4o': { input: 1, output: 1 } }), { price: { input: 1, output: 1 }, isDefault: false });
    assert.equal(findPrice('gpt-4o-mini', {})?.price.input, 0.15);
    assert.equal(findPrice('openai/gpt-4o-mini', {})?.price.input, 0.15);
    assert.equal(findPrice('gpt-4o-mini-2024-07-18', {})?.price.output, 0.6);
    assert.equal(findPrice('gpt-4o-2024-08-06', {})?.price.input, 2.5);
    assert.equal(findPrice('claude-sonnet-4-20250514', {})?.price.input, 3);
    assert.equal(findPrice('gpt-5-latest', {})?.price.input, 1.25);
    assert.equal(findPrice('gpt-4o-0513', {})?.price.input, 2.5, 'an OpenAI month-day snapshot');
    assert.equal(findPrice('llama3.2:3b', {}), undefined);
  });

  it('does not price another model or a typo by a known name it starts with', () => {
    for (const model of ['gpt-4o-mnii', 'o3-deep-research', 'gemini-2.5-flash-image', 'claude-opus-4-7']) {
      assert.equal(findPrice(model, {}), undefined, model);
    }
    // Names that start with another's have their own price.
    assert.equal(findPrice('o3-pro', {})?.price.input, 20);
    assert.equal(findPrice('claude-opus-4-5-20251101', {})?.price.input, 5);
    assert.equal(findPrice('gemini-2.5-flash-lite', {})?.price.output, 0.4);
    assert.equal(findPrice('my-model-v2', { 'my-model': { input: 1, output: 1 } }), undefined, 'the same rule for the user table');
    assert.equal(findPrice('my-model-2025-01-31', { 'my-model': { input: 1, output: 1 } })?.isDefault, false);
  });

  it('prices cached input at the cached rate and never fakes unknown counts', () => {
    const price = { input: 2, output: 8, cachedInput: 0.5 };
    assert.equal(costOf({ promptTokens: 1_000_000, completionTokens: 1_000_000, cachedTokens: 500_000 }, price), 1 + 0.25 + 8);
    assert.equal(costOf({ promptTokens: undefined, completionTokens: 10, cachedTokens: undefined }, price), undefined);
  });

  it('keeps missing counts undefined in the totals', () => {
    const tracker = new UsageTracker('unknown-local', 'gpt-4o-mini', {});
    tracker.recordCall('function-call', { usage: { promptTokens: undefined, completionTokens: undefined, cachedTokens: undefined, estimated: false } });
    tracker.recordCall('answer', { usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: undefined, estimated: true } });
    const usage = tracker.snapshot();
    assert.equal(usage.functionCall.promptTokens, undefined);
    assert.equal(usage.functionCall.costUsd, undefined);
    assert.equal(usage.answer.estimated, true);
    assert.equal(usage.answer.costIsDefaultPrice, true);
    assert.ok(Math.abs((usage.answer.costUsd ?? 0) - (1000 * 0.15 + 100 * 0.6) / 1e6) < 1e-12);
    assert.equal(usage.totalCostUsd, undefined, 'one unknown cost makes the total unknown');
  });
});

describe('phase times', () => {
  it('include the running phase in a snapshot, and stop counting when it ends', () => {
    const tracker = new UsageTracker('a', 'b', {});
    tracker.beginPhase('tools', Date.now() - 500);
    const live = tracker.snapshot();
    assert.ok(live.toolPhaseMs >= 500, `live tool time ${live.toolPhaseMs}`);
    assert.equal(live.answerPhaseMs, 0);
    tracker.beginPhase('answer', Date.now() - 200);
    const switched = tracker.snapshot();
    assert.ok(switched.toolPhaseMs >= 300 && switched.toolPhaseMs < live.toolPhaseMs + 100, 'the tool phase ended when the answer phase began');
    assert.ok(switched.answerPhaseMs >= 200);
    tracker.endPhase();
    const ended = tracker.snapshot().answerPhaseMs;
    assert.equal(tracker.snapshot().answerPhaseMs, ended, 'no time is added after the end');
  });
});
