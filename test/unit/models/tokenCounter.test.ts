// Token counts before sending: OpenAI's models with their own encoding
// (exact), any other model with o200k_base labelled as an estimate; the byte
// bound never undercounts; a context-length error is recognised in each
// server's wording.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COUNT_SLICE_CHARS, countInSlices, encodingFor, loadCounter, RequestTokenCounter } from '../../../src/models/tokenCounter';
import { isContextOverflow } from '../../../src/models/contextOverflow';
import { contextLengthError, type ContextServer } from '../../fixtures/scriptedModelReplies';
import type { ChatMessage, ToolSchema } from '../../../src/models/chatModel';

describe('token counter', () => {
  it('labels counts: exact for OpenAI’s host and gpt-/o-series names, an estimate otherwise', () => {
    const local = 'http://127.0.0.1:11434/v1';
    assert.deepEqual(encodingFor({ baseUrl: 'https://api.openai.com/v1', model: 'some-new-model' }), { encoding: 'o200k_base', exact: true });
    assert.deepEqual(encodingFor({ baseUrl: local, model: 'gpt-4o-mini' }), { encoding: 'o200k_base', exact: true });
    assert.deepEqual(encodingFor({ baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4.1' }), { encoding: 'o200k_base', exact: true });
    assert.deepEqual(encodingFor({ baseUrl: local, model: 'o3-mini' }), { encoding: 'o200k_base', exact: true });
    assert.deepEqual(encodingFor({ baseUrl: local, model: 'gpt-4' }), { encoding: 'cl100k_base', exact: true });
    assert.deepEqual(encodingFor({ baseUrl: local, model: 'gpt-3.5-turbo' }), { encoding: 'cl100k_base', exact: true });
    assert.deepEqual(encodingFor({ baseUrl: local, model: 'llama3.1:8b' }), { encoding: 'o200k_base', exact: false });
    assert.deepEqual(encodingFor({ baseUrl: 'not a url', model: 'qwen2.5-coder' }), { encoding: 'o200k_base', exact: false });
  });

  it('counts messages and tools with the tokenizer; the byte bound is never below the count', async () => {
    const tools: ToolSchema[] = [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Hello, world! 你好，世界 🌍 ' + 'function add(a, b) { return a + b; }\n'.repeat(50) },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/a.ts"}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'export const a = 1;' },
    ];
    const openAi = new RequestTokenCounter({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o' });
    const local = new RequestTokenCounter({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'llama3.1:8b' });
    const exact = await openAi.count({ messages, tools });
    const estimate = await local.count({ messages, tools });
    assert.equal(exact.estimated, false);
    assert.equal(estimate.estimated, true);
    assert.equal(exact.tokens, estimate.tokens, 'the same encoding counts both; only the label differs');
    assert.ok(exact.tokens > 400 && exact.tokens < 1200, `tokens: ${exact.tokens}`);
    assert.ok(openAi.upperBound({ messages, tools }) >= exact.tokens);
    const legacy = await new RequestTokenCounter({ baseUrl: 'http://x/v1', model: 'gpt-4' }).count({ messages });
    assert.equal(legacy.encoding, 'cl100k_base');
    assert.ok(legacy.tokens > 0);
  });

  it('counts long text a slice at a time: ordinary text as it counts whole, one huge word within a fraction of a percent, no slice cut inside a character', async () => {
    const counter = await loadCounter('o200k_base');
    const prose = 'The release is on Tuesday, and Ada owns it; the notes say so twice.\n'.repeat(800);
    const encoded = (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
    assert.equal(counter(prose), encoded(prose), 'cut between words, prose counts as it does whole');
    const slices: string[] = [];
    const word = 'x'.repeat(3_000) + '😀'.repeat(1_500) + '-'.repeat(20_000);
    const sliced = countInSlices(word, (slice) => (slices.push(slice), encoded(slice)));
    assert.ok(slices.length >= 20 && slices.every((slice) => slice.length <= COUNT_SLICE_CHARS), String(slices.length));
    assert.equal(slices.join(''), word, 'every character counted once');
    assert.ok(slices.every((slice) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(slice)), 'no slice starts or ends with half an emoji');
    const exact = encoded(word.slice(0, 3_000)) + encoded(word.slice(3_000, 6_000)) + encoded(word.slice(6_000));
    assert.ok(Math.abs(sliced - exact) / exact < 0.02, `${sliced} against ${exact}`);
  });

  it('recognises a context-length error in each server’s wording, and nothing else', () => {
    const servers: ContextServer[] = ['openai', 'vllm', 'vllm-legacy', 'llamacpp', 'ollama', 'lmstudio'];
    for (const server of servers) {
      const { body } = contextLengthError(server, 9000, 4096);
      const record = body as { error?: unknown; message?: unknown };
      assert.equal(isContextOverflow(record.error ?? record), true, server);
    }
    assert.equal(isContextOverflow({ code: 'context_length_exceeded', message: 'x' }), true);
    assert.equal(isContextOverflow({ message: 'Input prompt (36893 tokens) is too long and exceeds limit of 1000' }), true);
    assert.equal(isContextOverflow({ message: 'Input length 6491 exceeds context length 1500' }), true);
    assert.equal(isContextOverflow({ message: 'model "x" does not support tools' }), false);
    // OpenAI's code for any string over its limit: a message that long is the window's problem, a tool's description is not.
    assert.equal(isContextOverflow({ code: 'string_above_max_length', param: 'messages[1].content', message: "Invalid 'messages[1].content': string too long." }), true);
    assert.equal(isContextOverflow({ code: 'string_above_max_length', param: 'tools[3].function.description', message: "Invalid 'tools[3].function.description': string too long." }), false);
    assert.equal(isContextOverflow({ message: 'Rate limit reached' }), false);
    assert.equal(isContextOverflow(undefined), false);
  });
});
