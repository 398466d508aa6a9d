import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isReasoningModel, samplingParameters } from '../../../src/models/modelQuirks';

it('recognises OpenAI reasoning models, with or without a provider prefix', () => {
  for (const name of ['o1', 'o3', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'openai/o3']) assert.ok(isReasoningModel(name), name);
  for (const name of ['gpt-4o', 'gpt-4.1-mini', 'llama3.2', 'qwen3:8b', 'olmo2', 'deepseek-r1']) assert.ok(!isReasoningModel(name), name);
});

it('sends max_completion_tokens and no temperature to reasoning models, max_tokens and temperature to others', () => {
  assert.deepEqual(samplingParameters('o4-mini', 0.2, 1000), { max_completion_tokens: 1000 });
  assert.deepEqual(samplingParameters('gpt-4o', 0.2, 1000), { temperature: 0.2, max_tokens: 1000 });
  assert.deepEqual(samplingParameters('gpt-4o', undefined, undefined), {});
});
