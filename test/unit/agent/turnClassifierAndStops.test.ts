import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyTurn } from '../../../src/agent/turnClassifier';
import { budgetLimit } from '../../../src/agent/stopWhen/budgetLimit';
import { iterationLimit } from '../../../src/agent/stopWhen/iterationLimit';
import { loopGuard } from '../../../src/agent/stopWhen/loopGuard';
import { firstStop, type LoopState } from '../../../src/agent/stopWhen/loopState';
import { mistakeLimit } from '../../../src/agent/stopWhen/mistakeLimit';
import { timeLimit } from '../../../src/agent/stopWhen/timeLimit';
import { LoopDetector } from '../../../src/agent/loopDetector';
import type { ModelTurn } from '../../../src/models/chatModel';

function turn(part: Partial<ModelTurn>): ModelTurn {
  return { model: 'm', content: '', reasoning: '', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1, cachedTokens: undefined, estimated: false }, durationMs: 1, attempts: 1, ...part };
}
const names = new Set(['read_file']);

describe('classifyTurn', () => {
  it('tells tool calls, final replies, malformed envelopes and cut replies apart', () => {
    assert.equal(classifyTurn(turn({ toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }], finishReason: 'tool_calls' }), names, 1).kind, 'toolCalls');
    assert.equal(classifyTurn(turn({ content: 'Paris.' }), names, 1).kind, 'final');
    const envelope = classifyTurn(turn({ content: '{"response":"reading","mcp":{"tool":"read_file","params":{"path":"a"}}}' }), names, 2);
    assert.equal(envelope.kind, 'toolCalls');
    assert.ok(envelope.viaEnvelope);
    assert.equal(classifyTurn(turn({ content: '{"mcp":{"tool":"read_file","params":' }), names, 1).kind, 'malformed');
    assert.equal(classifyTurn(turn({ content: 'The answer is', finishReason: 'length' }), names, 1).kind, 'truncated');
    assert.equal(classifyTurn(turn({ toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"pa' }], finishReason: 'length' }), names, 1).kind, 'truncated');
  });

  it('a reply whose only tool calls have no name is malformed, not a reply without a call', () => {
    const nameless = classifyTurn(turn({ namelessToolCalls: 2, finishReason: 'tool_calls' }), names, 1);
    assert.deepEqual(nameless.kind === 'malformed' && nameless.error, 'the reply held 2 tool calls with no tool name');
    const one = classifyTurn(turn({ namelessToolCalls: 1 }), names, 1);
    assert.deepEqual(one.kind === 'malformed' && one.error, 'the reply held a tool call with no tool name');
    // Beside a named call, the named one runs.
    assert.equal(classifyTurn(turn({ toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }], namelessToolCalls: 1 }), names, 1).kind, 'toolCalls');
  });
});

describe('stop predicates', () => {
  const base: LoopState = { iteration: 1, mistakes: 0, timeUp: false, tokensUsed: 0, costUsd: 0, repeatedCall: undefined };
  const all = [iterationLimit(3), timeLimit(60), budgetLimit(1000, 0.5), loopGuard(), mistakeLimit(3)];
  it('each decides on its own condition and only then', () => {
    assert.equal(firstStop(all, base), undefined);
    assert.equal(firstStop(all, { ...base, iteration: 4 })?.stopReason, 'maxIterations');
    assert.equal(firstStop(all, { ...base, timeUp: true })?.stopReason, 'timeLimit');
    assert.match(firstStop(all, { ...base, tokensUsed: 1000 })?.reason ?? '', /1000 tokens/);
    assert.equal(firstStop(all, { ...base, costUsd: 0.6 })?.stopReason, 'budget');
    assert.equal(firstStop(all, { ...base, costUsd: undefined })?.stopReason, undefined);
    assert.equal(firstStop(all, { ...base, repeatedCall: 'read_file' })?.stopReason, 'loopDetected');
    assert.equal(firstStop(all, { ...base, mistakes: 3 })?.stopReason, 'mistakes');
    assert.equal(budgetLimit(0, 0)({ ...base, tokensUsed: 1e9, costUsd: 1e9 }), undefined, '0 = no limit');
  });

  it('the loop guard starts over after a write', () => {
    const loops = new LoopDetector();
    assert.equal(loops.record('read_file', { path: 'a' }), 'first');
    assert.equal(loops.record('read_file', { path: 'a' }), 'warn');
    loops.reset();
    assert.equal(loops.record('read_file', { path: 'a' }), 'first');
  });
});
