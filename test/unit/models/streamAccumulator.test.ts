import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelDelta } from '../../../src/models/chatModel';
import { StreamAccumulator } from '../../../src/models/streamAccumulator';

function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
    ...extra,
  } as ChatCompletionChunk;
}

function feed(accumulator: StreamAccumulator, chunks: ChatCompletionChunk[]): ModelDelta[] {
  return chunks.flatMap((item) => [...accumulator.accept(item)]);
}

describe('StreamAccumulator', () => {
  it('reads reasoning from `reasoning` (Ollama, OpenRouter) as well as `reasoning_content`', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [chunk({ reasoning: 'a ' }), chunk({ reasoning_content: 'b' }), chunk({ content: 'c' })]);
    assert.deepEqual(deltas, [
      { type: 'reasoning', delta: 'a ' },
      { type: 'reasoning', delta: 'b' },
      { type: 'text', delta: 'c' },
    ]);
    assert.equal(accumulator.reasoning, 'a b');
  });

  it('turns a reply that opens with <think> into reasoning, and keeps the answer after it as the content', () => {
    const accumulator = new StreamAccumulator();
    const deltas = [
      ...feed(accumulator, [chunk({ content: '<thi' }), chunk({ content: 'nk>Check the ' }), chunk({ content: 'tests.</th' }), chunk({ content: 'ink>\n\nAll ' }), chunk({ content: 'pass.' })]),
      ...accumulator.end(),
    ];
    assert.deepEqual(deltas, [
      { type: 'reasoning', delta: 'Check the ' },
      { type: 'reasoning', delta: 'tests.' },
      { type: 'text', delta: 'All ' },
      { type: 'text', delta: 'pass.' },
    ]);
    assert.equal(accumulator.reasoning, 'Check the tests.');
    assert.equal(accumulator.content, 'All pass.');
  });

  it('moves the text to the reasoning when the reply closes a <think> its prompt opened', () => {
    const accumulator = new StreamAccumulator();
    const deltas = [
      ...feed(accumulator, [chunk({ reasoning_content: 'Plan. ' }), chunk({ content: 'Check the ' }), chunk({ content: 'tests.</th' }), chunk({ content: 'ink>\n\nAll ' }), chunk({ content: 'pass.' })]),
      ...accumulator.end(),
    ];
    assert.deepEqual(deltas, [
      { type: 'reasoning', delta: 'Plan. ' },
      { type: 'text', delta: 'Check the ' },
      { type: 'text', delta: 'tests.</th' },
      { type: 'textWasReasoning', reasoning: 'Plan. Check the tests.' },
      { type: 'text', delta: 'All ' },
      { type: 'text', delta: 'pass.' },
    ]);
    assert.equal(accumulator.reasoning, 'Plan. Check the tests.');
    assert.equal(accumulator.content, 'All pass.');
    assert.equal(accumulator.outputText(), 'Plan. Check the tests.All pass.', 'each character counted once for the usage estimate');
  });

  it('gives back, at the end, text held while it might have opened a <think> tag', () => {
    const accumulator = new StreamAccumulator();
    assert.deepEqual(feed(accumulator, [chunk({ content: '<' })]), []);
    assert.deepEqual([...accumulator.end()], [{ type: 'text', delta: '<' }]);
    assert.equal(accumulator.content, '<');
    assert.deepEqual([...accumulator.end()], [], 'once');
  });

  it('accepts whole tool calls without an index, as some local servers send them', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [
      chunk({ tool_calls: [{ id: 'x', type: 'function', function: { name: 'one', arguments: '{"a":1}' } }] }),
      chunk({ tool_calls: [{ id: 'y', type: 'function', function: { name: 'two', arguments: '{}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [
      { id: 'x', name: 'one', arguments: '{"a":1}' },
      { id: 'y', name: 'two', arguments: '{}' },
    ]);
    assert.deepEqual(deltas, [
      { type: 'toolCallStart', index: 0, id: 'x', name: 'one' },
      { type: 'toolCallArgs', index: 0, delta: '{"a":1}' },
      { type: 'toolCallStart', index: 1, id: 'y', name: 'two' },
      { type: 'toolCallArgs', index: 1, delta: '{}' },
    ]);
  });

  it('gives a call without id a stable one and does not repeat a repeated name', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, function: { name: 'search', arguments: '{"q":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'search', arguments: '"x"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [{ id: 'call_0', name: 'search', arguments: '{"q":"x"}' }]);
  });

  it('takes whole calls that all come at index 0 (Ollama) as calls of their own, and keeps a repeated id on one call', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'lookup', arguments: '{"key":"beta"}' } }] }),
      // vLLM repeats the id (and some servers the name) in every delta of one call.
      chunk({ tool_calls: [{ index: 1, id: 'c', type: 'function', function: { name: 'search', arguments: '{"q":' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'c', type: 'function', function: { name: 'search', arguments: '"x"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [
      { id: 'a', name: 'lookup', arguments: '{"key":"alpha"}' },
      { id: 'b', name: 'lookup', arguments: '{"key":"beta"}' },
      { id: 'c', name: 'search', arguments: '{"q":"x"}' },
    ]);
    assert.deepEqual(
      deltas.filter((delta) => delta.type === 'toolCallStart'),
      [
        { type: 'toolCallStart', index: 0, id: 'a', name: 'lookup' },
        { type: 'toolCallStart', index: 1, id: 'b', name: 'lookup' },
        { type: 'toolCallStart', index: 2, id: 'c', name: 'search' },
      ],
    );
  });

  it('whole calls at index 0 under one id, or none, are calls of their own; a repeated name without arguments stays on its call', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{"key":"beta"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'same', function: { name: 'search', arguments: '{"q":"x"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'same', function: { name: 'search', arguments: '{"q":"y"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [
      { id: 'call_0', name: 'lookup', arguments: '{"key":"alpha"}' },
      { id: 'call_1', name: 'lookup', arguments: '{"key":"beta"}' },
      { id: 'same', name: 'search', arguments: '{"q":"x"}' },
      { id: 'same_2', name: 'search', arguments: '{"q":"y"}' },
    ]);
    assert.deepEqual(
      deltas.flatMap((delta) => (delta.type === 'toolCallStart' ? [`${delta.index}:${delta.id}`] : [])),
      ['0:call_0', '1:call_1', '2:same', '3:same_2'],
    );
  });

  it('a call streamed in fragments and then sent again whole under its id is one call', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'lookup', arguments: '{"key": ' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"alpha"}' } }] }),
      // The whole call again, spaced otherwise.
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [{ id: 'a', name: 'lookup', arguments: '{"key": "alpha"}' }]);
    assert.equal(deltas.filter((delta) => delta.type === 'toolCallStart').length, 1);
  });

  it('without ids, a call of another tool after one whose arguments are still empty is a call of its own', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, function: { name: 'list_files', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [
      { id: 'call_0', name: 'list_files', arguments: '' },
      { id: 'call_1', name: 'lookup', arguments: '{"key":"alpha"}' },
    ]);
  });

  it('a tool name sent in pieces, before any arguments, opens no call of its own', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, function: { name: 'read_', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'file', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.ts"}' } }] }),
    ]);
    assert.equal(accumulator.toolCalls().length, 1);
  });

  it('a call at index 1 after calls moved off index 0 does not land on one of them', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'lookup', arguments: '{"key":"beta"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: 'search', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"q":"x"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [
      { id: 'a', name: 'lookup', arguments: '{"key":"alpha"}' },
      { id: 'b', name: 'lookup', arguments: '{"key":"beta"}' },
      { id: 'call_2', name: 'search', arguments: '{"q":"x"}' },
    ]);
  });

  it('a server that repeats the name in every fragment of one call keeps it one call', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{"key":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '"alpha"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [{ id: 'call_0', name: 'lookup', arguments: '{"key":"alpha"}' }]);
  });

  it('a server that sends a fresh id and the name with every fragment of one call keeps it one call', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'f1', function: { name: 'lookup', arguments: '{"key":' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'f2', function: { name: 'lookup', arguments: '"alpha"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [{ id: 'f1', name: 'lookup', arguments: '{"key":"alpha"}' }]);
  });

  it('the arguments after a call moved off index 0 follow it there', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'lookup', arguments: '{"key":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"beta"}' } }] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), [
      { id: 'a', name: 'lookup', arguments: '{"key":"alpha"}' },
      { id: 'b', name: 'lookup', arguments: '{"key":"beta"}' },
    ]);
  });

  it('gives two calls of one reply under one id ids of their own, so that neither result is lost', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'same', function: { name: 'lookup', arguments: '{"key":"alpha"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'same', function: { name: 'lookup', arguments: '{"key":"beta"}' } }] }),
      chunk({ tool_calls: [{ index: 2, function: { name: 'lookup', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 3, id: 'call_2', function: { name: 'lookup', arguments: '{}' } }] }),
    ]);
    const ids = accumulator.toolCalls().map((call) => call.id);
    assert.deepEqual(ids, ['same', 'same_2', 'call_2', 'call_2_2']);
    assert.deepEqual(deltas.flatMap((delta) => (delta.type === 'toolCallStart' ? [delta.id] : [])), ids, 'the start events name the calls as the turn does');
  });

  it('a call whose id comes after its name keeps the id its start event gave it', () => {
    const accumulator = new StreamAccumulator();
    const deltas = feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, function: { name: 'search', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'late', function: { arguments: '{}' } }] }),
    ]);
    assert.deepEqual(deltas[0], { type: 'toolCallStart', index: 0, id: 'call_0', name: 'search' });
    assert.deepEqual(accumulator.toolCalls(), [{ id: 'call_0', name: 'search', arguments: '{}' }]);
  });

  it('counts calls begun without a tool name, and passes over choices that are not objects', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      chunk({ tool_calls: [{ index: 0, id: 'x', function: { arguments: '{"a":1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'y', function: { name: '', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 2 }] }),
      { ...chunk({}), choices: [null] } as unknown as ChatCompletionChunk,
      { ...chunk({}), choices: {} } as unknown as ChatCompletionChunk,
      chunk({ tool_calls: [null] }),
    ]);
    assert.deepEqual(accumulator.toolCalls(), []);
    assert.equal(accumulator.namelessToolCalls(), 2, 'an empty entry begins no call');
  });

  it('keeps usage from the final chunk and the finish reason', () => {
    const accumulator = new StreamAccumulator();
    feed(accumulator, [
      { ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: 'stop', logprobs: null }] },
      chunk({}, { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
    ]);
    assert.equal(accumulator.finishReason, 'stop');
    assert.deepEqual(accumulator.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('counts the output that came after the last usage, which its completion count cannot hold', () => {
    const accumulator = new StreamAccumulator();
    const usage = (completion: number) => ({ usage: { prompt_tokens: 3, completion_tokens: completion } });
    feed(accumulator, [chunk({ content: '' }, usage(0)), chunk({ reasoning_content: 'ab' }), chunk({ content: '<think>' })]);
    assert.equal(accumulator.outputCharactersAfterUsage, 9, 'as sent, <think> tags and reasoning included');
    feed(accumulator, [chunk({ content: 'cd' }, usage(4))]);
    assert.equal(accumulator.outputCharactersAfterUsage, 0, "a chunk's usage counts that chunk's own text");
    feed(accumulator, [chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'read', arguments: '{}' } }] }), chunk({ tool_calls: [{ index: 0, function: { name: 'read', arguments: '' } }] })]);
    assert.equal(accumulator.outputCharactersAfterUsage, 6, 'a repeated tool name counted once');
  });
});
