// The `@` picker's filter: letters in order, file names and word starts first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzyFilter, fuzzyScore } from '../../../src/common/fuzzyMatch';

describe('fuzzy matching', () => {
  it('matches letters in order, case-insensitively, and refuses the rest', () => {
    assert.notEqual(fuzzyScore('cvp', 'src/host/chatViewProvider.ts'), undefined);
    assert.notEqual(fuzzyScore('CHAT', 'src/host/chatViewProvider.ts'), undefined);
    assert.equal(fuzzyScore('pvc', 'src/host/chatViewProvider.ts'), undefined);
    assert.equal(fuzzyScore('', 'anything'), 0);
  });

  it('ranks the file whose name matches above paths that merely contain the letters', () => {
    const paths = ['src/agent/runAgent.ts', 'docs/readme-notes/old.md', 'README.md', 'src/readme/index.ts'];
    assert.deepEqual(fuzzyFilter(paths, 'readme', (each) => each, 10), ['README.md', 'src/readme/index.ts', 'docs/readme-notes/old.md']);
    assert.deepEqual(fuzzyFilter(paths, 'ra', (each) => each, 1), ['src/agent/runAgent.ts']);
  });

  it('keeps the given order between equals and stops at the limit', () => {
    const items = Array.from({ length: 30 }, (_, index) => `file${String(index).padStart(2, '0')}.txt`);
    assert.deepEqual(fuzzyFilter(items, 'file', (each) => each, 3), ['file00.txt', 'file01.txt', 'file02.txt']);
  });
});
