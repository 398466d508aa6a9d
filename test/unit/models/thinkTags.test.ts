import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ThinkTagSplitter } from '../../../src/models/thinkTags';

/** Feeds `pieces` in order; returns the reasoning and text as a consumer would join them, and the order they came in. */
function split(pieces: readonly string[]): { reasoning: string; text: string; order: string } {
  const splitter = new ThinkTagSplitter();
  let reasoning = '';
  let text = '';
  let order = '';
  for (const part of [...pieces.map((piece) => splitter.push(piece)), splitter.end()]) {
    if (part.reasoning) {
      reasoning += part.reasoning;
      if (!order.endsWith('r')) order += 'r';
    }
    if (part.text) {
      text += part.text;
      if (!order.endsWith('t')) order += 't';
    }
  }
  return { reasoning, text, order };
}

/** Every way to cut `whole` in two and in three, and one character at a time. */
function chunkings(whole: string): string[][] {
  const ways: string[][] = [[whole], [...whole]];
  for (let i = 0; i <= whole.length; i++) {
    ways.push([whole.slice(0, i), whole.slice(i)]);
    for (let j = i; j <= whole.length; j += 3) ways.push([whole.slice(0, i), whole.slice(i, j), whole.slice(j)]);
  }
  return ways;
}

describe('ThinkTagSplitter', () => {
  it('splits a reply that opens with <think> into reasoning and answer, however the stream cuts it', () => {
    const whole = '\n<think>\nRead the file first.\n</think>\n\nIt exports greet().';
    for (const pieces of chunkings(whole)) {
      assert.deepEqual(split(pieces), { reasoning: '\nRead the file first.\n', text: 'It exports greet().', order: 'rt' }, JSON.stringify(pieces));
    }
  });

  it('leaves a reply without the tag untouched, blanks and a leading "<" included', () => {
    for (const whole of ['Plain answer.', '  \n\nIndented start', '<div>html</div> answer', '<thin ice', 'Use <think> tags like this: <think>x</think>']) {
      for (const pieces of chunkings(whole)) assert.deepEqual(split(pieces), { reasoning: '', text: whole, order: 't' }, JSON.stringify(pieces));
    }
  });

  it('keeps a closing tag further on in the answer as text', () => {
    assert.deepEqual(split(['<think>a</think>Then write ', '</think> in HTML.']), { reasoning: 'a', text: 'Then write </think> in HTML.', order: 'rt' });
  });

  it('keeps reasoning that never closed (cut at the token limit) as reasoning, and a lone "<" after it too', () => {
    assert.deepEqual(split(['<think>Step one', ', step two</thi']), { reasoning: 'Step one, step two</thi', text: '', order: 'r' });
    assert.deepEqual(split(['<think>x <']), { reasoning: 'x <', text: '', order: 'r' });
  });

  it('gives back held blanks or a partial tag when the reply ends there', () => {
    assert.deepEqual(split(['  ']), { reasoning: '', text: '  ', order: 't' });
    assert.deepEqual(split(['<thi']), { reasoning: '', text: '<thi', order: 't' });
    assert.deepEqual(split(['<think>only thinking</think>\n\n']), { reasoning: 'only thinking', text: '', order: 'r' });
  });

  it('passes through once the answer has begun', () => {
    const splitter = new ThinkTagSplitter();
    splitter.push('<think>x</think>');
    assert.equal(splitter.passesThrough, false);
    splitter.push('\n\nAnswer');
    assert.equal(splitter.passesThrough, true);
    const plain = new ThinkTagSplitter();
    plain.push('Hello');
    assert.equal(plain.passesThrough, true);
  });
});
