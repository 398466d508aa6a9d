import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ThinkTagSplitter } from '../../../src/models/thinkTags';

/**
 * Feeds `pieces` in order; returns the reasoning and text as a consumer would
 * join them, and the order they came in ('x': the text so far was taken back
 * as reasoning).
 */
function split(pieces: readonly string[]): { reasoning: string; text: string; order: string } {
  const splitter = new ThinkTagSplitter();
  let reasoning = '';
  let text = '';
  let order = '';
  for (const part of [...pieces.map((piece) => splitter.push(piece)), splitter.end()]) {
    if (part.retractsText) {
      assert.ok(part.reasoning.startsWith(reasoning) || reasoning === '', 'the reasoning handed back holds what was reasoning before');
      reasoning = part.reasoning;
      text = '';
      order += 'x';
    } else if (part.reasoning) {
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

  it('takes the text back as reasoning when the reply closes a tag its prompt opened, however the stream cuts it', () => {
    // DeepSeek-R1's and QwQ's templates end the prompt with "<think>\n": the reply starts inside the reasoning.
    const whole = 'Okay, the user wants the exports.\nRead the file first.\n</think>\n\nIt exports greet().';
    for (const pieces of chunkings(whole)) {
      const result = split(pieces);
      assert.equal(result.reasoning, 'Okay, the user wants the exports.\nRead the file first.\n', JSON.stringify(pieces));
      assert.equal(result.text, 'It exports greet().', JSON.stringify(pieces));
      // Text first (shown as it streams), then taken back, then the answer; or taken back before any text showed.
      assert.match(result.order, /^t?xt$/, JSON.stringify(pieces));
    }
  });

  it('takes back an empty reasoning (a reply that starts with the closing tag), and only the first closing tag', () => {
    assert.deepEqual(split(['</think>\n\nAnswer.']), { reasoning: '', text: 'Answer.', order: 'xt' });
    assert.deepEqual(split(['Think.</think>A ', '</think> tag.']), { reasoning: 'Think.', text: 'A </think> tag.', order: 'xt' });
    assert.deepEqual(split(['Think.</think>Write <think> and </think>.']), { reasoning: 'Think.', text: 'Write <think> and </think>.', order: 'xt' });
  });

  it('passes through once the answer has begun, or once an opening tag shows the answer writes the tags itself', () => {
    const splitter = new ThinkTagSplitter();
    splitter.push('<think>x</think>');
    assert.equal(splitter.passesThrough, false);
    splitter.push('\n\nAnswer');
    assert.equal(splitter.passesThrough, true);
    const plain = new ThinkTagSplitter();
    plain.push('Hello');
    assert.equal(plain.passesThrough, false, 'a closing tag may still come');
    plain.push(' <think> is a tag');
    assert.equal(plain.passesThrough, true);
    const closed = new ThinkTagSplitter();
    closed.push('Reasoning</think>');
    closed.push('Answer');
    assert.equal(closed.passesThrough, true);
  });
});
