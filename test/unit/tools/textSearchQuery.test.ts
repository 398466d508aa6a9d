import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { busiestPlaces, comparePaths, folderCoveringGlobs } from '../../../src/tools/textSearchQuery';

describe('textSearchQuery', () => {
  it('orders paths as their UTF-8 bytes, as the ripgrep runner compares them', () => {
    const paths = ['lib/a.js', 'lib-x/b.js', 'b/\u{1F600}.txt', 'b/\uFF5A.txt', 'b/z.txt', 'B.md', 'lib', 'é.txt'];
    const byBytes = [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual([...paths].sort(comparePaths), byBytes);
    assert.deepEqual(byBytes, ['B.md', 'b/z.txt', 'b/\uFF5A.txt', 'b/\u{1F600}.txt', 'lib', 'lib-x/b.js', 'lib/a.js', 'é.txt']);
  });

  it('gives each glob a companion for what is inside the folders it matches, anchored as the glob is', () => {
    assert.deepEqual(folderCoveringGlobs(['lib', 'lib/', '/lib', 'src/lib', 'lib/*', '*.ts', 'src/**', '**', '!keep']), [
      'lib',
      '**/lib/**',
      'lib/',
      '**/lib/**',
      '/lib',
      '/lib/**',
      'src/lib',
      'src/lib/**',
      'lib/*',
      'lib/*/**',
      '*.ts',
      '**/*.ts/**',
      'src/**',
      '**',
      '!keep',
    ]);
  });

  it('names the busiest places, opening a folder that holds most matches when one part of it holds most of those', () => {
    const perFile = new Map<string, number>([
      ['vendor/openai/dist/a.js', 1300],
      ['vendor/openai/src/b.js', 1300],
      ['vendor/openai/types/c.d.ts', 1300],
      ['vendor/other/c.js', 100],
      ['lib/renderer.mjs', 500],
      ['lib/common/utils.mjs', 10],
      ['README.md', 3],
      ['test/x.mjs', 3],
    ]);
    assert.deepEqual(busiestPlaces(perFile, 3), {
      places: [
        { place: 'vendor/openai/', lines: 3900 },
        { place: 'lib/', lines: 510 },
        { place: 'vendor/other/', lines: 100 },
      ],
      more: 2,
    });
    // Spread evenly, a folder stays whole; one file stands for itself.
    const even = new Map<string, number>([
      ['vendor/a/x.js', 10],
      ['vendor/b/x.js', 10],
      ['vendor/c/x.js', 10],
      ['main.js', 5],
    ]);
    assert.deepEqual(busiestPlaces(even, 4), { places: [{ place: 'vendor/', lines: 30 }, { place: 'main.js', lines: 5 }], more: 0 });
    assert.deepEqual(busiestPlaces(new Map(), 4), { places: [], more: 0 });
  });
});
