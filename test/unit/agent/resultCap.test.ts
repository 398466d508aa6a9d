import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capResult, itemsThatFit, RESULT_CAP_CHARS, TOOL_PAGE_CHARS } from '../../../src/agent/resultCap';

describe('capResult', () => {
  it('leaves a result within the cap unchanged', () => {
    const text = 'x'.repeat(RESULT_CAP_CHARS);
    assert.equal(capResult(text), text);
  });

  it('keeps the head and the last quarter, and says truly how much is left out, naming no tool', () => {
    const text = `HEAD${'-'.repeat(100_000)}TAIL`;
    const capped = capResult(text);
    const note = /\n\n\[\.\.\. (\d+) characters left out here; only the start and the end of this text are shown \.\.\.\]\n\n/u.exec(capped);
    assert.ok(note, capped.slice(23_990, 24_200));
    assert.ok(capped.startsWith(text.slice(0, RESULT_CAP_CHARS * 0.75)));
    assert.ok(capped.endsWith(text.slice(-RESULT_CAP_CHARS / 4)));
    assert.equal(note.index, RESULT_CAP_CHARS * 0.75);
    assert.equal(Number(note[1]), text.length - RESULT_CAP_CHARS);
    assert.doesNotMatch(capped, /read_file|startLine/u);
  });
});

describe('itemsThatFit', () => {
  it('counts the items that fit, each on its own line after the fixed part', () => {
    assert.ok(TOOL_PAGE_CHARS < RESULT_CAP_CHARS);
    // 10 fixed + 3 × (1 + 4) = 25.
    assert.equal(itemsThatFit(['aaaa', 'bbbb', 'cccc', 'dddd'], 10, 25), 3);
    assert.equal(itemsThatFit(['aaaa', 'bbbb', 'cccc', 'dddd'], 10, 24), 2);
    assert.equal(itemsThatFit(['a'.repeat(50)], 0, 20), 0);
    assert.equal(itemsThatFit([], 0, 0), 0);
  });
});
