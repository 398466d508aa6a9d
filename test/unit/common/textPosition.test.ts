import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstChangedLine, lineAndColumn } from '../../../src/common/textPosition';

describe('text positions', () => {
  it('names a line and column', () => {
    assert.equal(lineAndColumn('ab\ncd', 4), 'line 2, column 2');
  });

  it('finds the first line an edit changed', () => {
    assert.equal(firstChangedLine(undefined, 'new\nfile\n'), 1, 'a new file: its top');
    assert.equal(firstChangedLine('a\nb\nc\n', 'a\nb\nC\n'), 3);
    assert.equal(firstChangedLine('a\nb\n', 'a\nb\nc\n'), 3, 'appended: the new line');
    assert.equal(firstChangedLine('a\nb\nc\n', 'a\nb\n'), 3, 'cut at the end: where it was');
    assert.equal(firstChangedLine('a\nb\n', 'a\nb\n'), 3, 'unchanged: past the end, never before the top');
    assert.equal(firstChangedLine('x', 'y'), 1);
  });
});
