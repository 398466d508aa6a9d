// include and exclude read as gitignore does (a folder's glob covers what is
// in it), the same with both engines; a search its filters emptied says so,
// and a bad regular expression says how to fix it.

import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ToolResult } from '../../../src/tools/tool';
import { withBothEngines } from './workspaceTestKit';

function put(root: string, name: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), content);
}

function pathsOf(result: ToolResult): string[] {
  return [...result.text.matchAll(/^\d+\. (.+):\d+: /gmu)].map((match) => match[1]!).sort();
}

describe('search_text filters and patterns, with both engines', () => {
  const { engines } = withBothEngines('tandem-search-filters-', (root) => {
    for (const name of ['lib/a.js', 'lib/sub/b.js', 'vendor/lib/c.js', 'src/d.js', 'lib.txt', 'lib-x/e.js']) put(root, name, 'escapeHtml(x)\n');
  });

  it('a glob that names a folder covers everything in it, as in .gitignore', async () => {
    const cases: [unknown, unknown, string[]][] = [
      ['lib', undefined, ['lib/a.js', 'lib/sub/b.js', 'vendor/lib/c.js']],
      ['lib/', undefined, ['lib/a.js', 'lib/sub/b.js', 'vendor/lib/c.js']],
      ['/lib', undefined, ['lib/a.js', 'lib/sub/b.js']],
      ['vendor/lib', undefined, ['vendor/lib/c.js']],
      ['lib/*', undefined, ['lib/a.js', 'lib/sub/b.js']],
      ['lib/**', undefined, ['lib/a.js', 'lib/sub/b.js']],
      ['*.js', undefined, ['lib-x/e.js', 'lib/a.js', 'lib/sub/b.js', 'src/d.js', 'vendor/lib/c.js']],
      ['lib, src', undefined, ['lib/a.js', 'lib/sub/b.js', 'src/d.js', 'vendor/lib/c.js']],
      [undefined, 'lib', ['lib-x/e.js', 'lib.txt', 'src/d.js']],
      [undefined, 'lib/', ['lib-x/e.js', 'lib.txt', 'src/d.js']],
      [undefined, ['/lib/*', 'vendor'], ['lib-x/e.js', 'lib.txt', 'src/d.js']],
      ['lib', 'sub', ['lib/a.js', 'vendor/lib/c.js']],
    ];
    for (const [engine, kit] of engines) {
      for (const [include, exclude, expected] of cases) {
        const result = await kit.run('search_text', { query: 'escapeHtml', include, exclude });
        assert.deepEqual(pathsOf(result), expected, `${engine}: include ${JSON.stringify(include)}, exclude ${JSON.stringify(exclude)}\n${result.text}`);
      }
    }
  });

  it('no match under filters names them, so the model can drop them', async () => {
    for (const [engine, kit] of engines) {
      const filtered = await kit.run('search_text', { query: 'escapeHtml', include: ['docs', '*.md'], exclude: 'vendor/' });
      assert.equal(
        filtered.text,
        'No matches for "escapeHtml" in the files left by include "docs", "*.md" and exclude "vendor/". Search again without these filters to look in every file.',
        engine,
      );
      assert.deepEqual(filtered.summary, { kind: 'search', total: 0, top: [] });
      const plain = await kit.run('search_text', { query: 'absent-word' });
      assert.equal(plain.text, 'No matches for "absent-word".', engine);
    }
  });

  it('a bad regular expression says to escape it or search literally, with both engines', async () => {
    for (const [engine, kit] of engines) {
      const bad = await kit.run('search_text', { query: 'escapeHtml(', isRegexp: true });
      assert.equal(bad.isError, true, engine);
      assert.match(bad.text, /^Error: Invalid regular expression "escapeHtml\(": [^\n]*(unclosed|unterminated) group/iu, `${engine}: ${bad.text}`);
      assert.match(bad.text, /Escape the special characters \(\\\( \\\) .*\) to match them as text, or pass isRegexp:false to search for the query literally\.$/u, `${engine}: ${bad.text}`);
      const literal = await kit.run('search_text', { query: 'escapeHtml(', isRegexp: false });
      assert.equal(literal.summary?.kind === 'search' ? literal.summary.total : -1, 6, engine);
    }
  });
});

describe('search_text includes never reach what the ignore files hide, with both engines', () => {
  const { engines } = withBothEngines('tandem-search-ignored-', (root) => {
    put(root, '.gitignore', '.env\nsecret/\n');
    put(root, '.tandemignore', 'kept/\n');
    put(root, '.env', 'OPENAI_API_KEY=sk-SECRET\n');
    put(root, 'secret/t.txt', 'TOKEN=SECRET\n');
    put(root, 'kept/k.txt', 'KEEPOUT=SECRET\n');
    put(root, 'src/open.txt', 'PUBLIC=SECRET\n');
  });

  it('an include that names an ignored file or matches everything finds only what is not ignored', async () => {
    for (const [engine, kit] of engines) {
      for (const include of ['.env', '*', '**/*.txt', 'secret', 'kept/k.txt', '.*']) {
        const result = await kit.run('search_text', { query: 'SECRET', caseSensitive: true, include });
        assert.doesNotMatch(result.text, /sk-SECRET|TOKEN=|KEEPOUT/u, `${engine}: include ${include}\n${result.text}`);
      }
      assert.deepEqual(pathsOf(await kit.run('search_text', { query: 'SECRET', caseSensitive: true, include: '*' })), ['src/open.txt'], engine);
      assert.deepEqual(pathsOf(await kit.run('search_text', { query: 'SECRET', caseSensitive: true, include: '**/*.txt' })), ['src/open.txt'], engine);
    }
  });
});
