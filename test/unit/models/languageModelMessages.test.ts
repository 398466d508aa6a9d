import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageModelMessageText, toLanguageModelMessages, toolCallInput } from '../../../src/models/languageModelMessages';

describe('toLanguageModelMessages', () => {
  it('puts the system prompt first as a user message and merges it with the question', () => {
    const plan = toLanguageModelMessages([
      { role: 'system', content: 'You are Tandem.' },
      { role: 'user', content: 'What is in src?' },
    ]);
    assert.deepEqual(plan, [
      { role: 'user', parts: [{ kind: 'text', text: 'You are Tandem.' }, { kind: 'text', text: 'What is in src?' }] },
    ]);
  });

  it('turns tool calls into call parts and tool results into result parts of one user message', () => {
    const plan = toLanguageModelMessages([
      { role: 'user', content: 'Read both.' },
      {
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'a', name: 'read_file', arguments: '{"path":"x.ts"}' },
          { id: 'b', name: 'read_file', arguments: '{"path":"y.ts"}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'x' },
      { role: 'tool', toolCallId: 'b', content: 'y' },
    ]);
    assert.equal(plan.length, 3);
    assert.deepEqual(plan[1], {
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'Reading.' },
        { kind: 'toolCall', callId: 'a', name: 'read_file', input: { path: 'x.ts' } },
        { kind: 'toolCall', callId: 'b', name: 'read_file', input: { path: 'y.ts' } },
      ],
    });
    assert.deepEqual(plan[2], {
      role: 'user',
      parts: [
        { kind: 'toolResult', callId: 'a', text: 'x' },
        { kind: 'toolResult', callId: 'b', text: 'y' },
      ],
    });
  });

  it('drops empty messages instead of sending empty parts', () => {
    const plan = toLanguageModelMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null },
      { role: 'assistant', content: '' },
    ]);
    assert.deepEqual(plan, [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }]);
  });

  it('keeps arguments that are not a JSON object under `input`', () => {
    assert.deepEqual(toolCallInput('{"a":1}'), { a: 1 });
    assert.deepEqual(toolCallInput(''), {});
    assert.deepEqual(toolCallInput('[1]'), { input: '[1]' });
    assert.deepEqual(toolCallInput('{broken'), { input: '{broken' });
  });

  it('gives every part as text for token counting', () => {
    const [message] = toLanguageModelMessages([{ role: 'assistant', content: 'ok', toolCalls: [{ id: 'a', name: 'list_dir', arguments: '{"path":"."}' }] }]);
    assert.equal(languageModelMessageText(message!), 'ok\nlist_dir({"path":"."})');
  });
});
