// include and exclude read as gitignore does (a folder's glob covers what is
// in it), the same with both engines; a search its filters emptied says so,
// and a bad regular expression says how to fix it.

import * as assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { literalFolderOf } from '../../../src/tools/ripgrepScope';
import type { ToolResult } from '../../../src/tools/tool';
import { putFile as put, withBothEngines } from './workspaceTestKit';

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
      ['*.{js,txt}', undefined, ['lib-x/e.js', 'lib.txt', 'lib/a.js', 'lib/sub/b.js', 'src/d.js', 'vendor/lib/c.js']],
      ['{lib,src}/*.js', undefined, ['lib/a.js', 'src/d.js']],
      ['src, *.{txt,md}', undefined, ['lib.txt', 'src/d.js']],
      [['{src,vendor}/**'], '**/*.{md,js}', []],
      [undefined, '*.{js,md}', ['lib.txt']],
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

  it('braces that would expand to too many globs are refused with the reason; a filter that empties the search names at most a dozen globs', async () => {
    for (const [engine, kit] of engines) {
      const many = await kit.run('search_text', { query: 'escapeHtml', include: '{a,b}'.repeat(40) });
      assert.equal(many.isError, true, engine);
      assert.match(many.text, /^Error: The globs expand to more than 256 \(at "\{a,b\}\{a,b\}/u, `${engine}: ${many.text}`);
      const none = await kit.run('search_text', { query: 'escapeHtml', include: 'nothing/{a,b,c,d,e,f,g,h,i,j,k,l,m,n}.js' });
      assert.match(none.text, /^No matches for "escapeHtml" in the files left by include "nothing\/a\.js", .*"nothing\/l\.js" and 2 more\. /u, `${engine}: ${none.text}`);
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

// ripgrep gets .tandemignore as exclusions, or checks its output when the file has negations of its own.
for (const [variant, tandemIgnore] of [
  ['plain', '.env\nprivate/\n*.key\n'],
  ['with a negation', '# ours\n.env\nprivate/\n*.key\n!shared.key\n'],
] as const) {
  describe(`search_text keeps .tandemignore (${variant}) over a .gitignore that re-includes, with both engines`, () => {
    const { engines } = withBothEngines('tandem-search-negated-', (root) => {
      // A repository's .gitignore can whitelist; ripgrep ranks that above an --ignore-file.
      put(root, '.gitignore', '!.env\n!private/\n!*.key\n');
      put(root, '.tandemignore', tandemIgnore);
      put(root, '.env', 'OPENAI_API_KEY=sk-SECRET\n');
      put(root, 'private/p.txt', 'TOKEN=SECRET\n');
      put(root, 'deploy.key', 'KEYFILE=SECRET\n');
      put(root, 'shared.key', 'SHARED=SECRET\n');
      put(root, 'src/open.txt', 'PUBLIC=SECRET\n');
    });

    it('finds neither the files nor the folder it keeps out, with or without includes', async () => {
      const expected = variant === 'plain' ? ['src/open.txt'] : ['shared.key', 'src/open.txt'];
      for (const [engine, kit] of engines) {
        for (const include of [undefined, '.env', '*', '*.key', 'private/**', '/private/p.txt']) {
          const result = await kit.run('search_text', { query: 'SECRET', caseSensitive: true, include });
          assert.doesNotMatch(result.text, /sk-SECRET|TOKEN=|KEYFILE=/u, `${engine}: include ${String(include)}\n${result.text}`);
        }
        assert.deepEqual(pathsOf(await kit.run('search_text', { query: 'SECRET', caseSensitive: true })), expected, engine);
      }
    });
  });
}

describe('search_text with includes that start in a folder, with both engines', () => {
  const { engines } = withBothEngines('tandem-search-started-', (root) => {
    put(root, '.gitignore', 'dist/\n*.log\n/src/gen/\n');
    put(root, '.tandemignore', '**/keys/\n');
    put(root, 'src/app.js', 'needle\n');
    put(root, 'src/deep/dist/out.js', 'needle\n');
    put(root, 'src/deep/run.log', 'needle\n');
    put(root, 'src/deep/keys/k.js', 'needle\n');
    put(root, 'src/gen/made.js', 'needle\n');
    put(root, 'src/lib/.gitignore', 'local.js\n');
    put(root, 'src/lib/local.js', 'needle\n');
    put(root, 'src/lib/kept.js', 'needle\n');
    put(root, 'dist/bundle.js', 'needle\n');
    put(root, 'docs/guide.md', 'needle\n');
    put(root, '.git/HEAD', 'needle\n');
    const outside = makeOutside(root);
    symlinkSync(outside, path.join(root, 'linked'));
  });

  it('reads the .gitignore files above the folder it starts in, and what it finds is what a whole search finds', async () => {
    const cases: [unknown, string[]][] = [
      ['src/**', ['src/app.js', 'src/lib/kept.js']],
      ['src/deep/**', []],
      ['src/gen/**', []],
      ['src/lib/*.js', ['src/lib/kept.js']],
      ['/src/deep', []],
      [['src/lib/**', 'docs/*.md'], ['docs/guide.md', 'src/lib/kept.js']],
      [['src/**', 'src/lib/**'], ['src/app.js', 'src/lib/kept.js']],
      ['dist/**', []],
      ['missing/**', []],
      ['linked/**', []],
      ['linked/inner/*.js', []],
      ['.git/**', []],
      ['HEAD', []],
    ];
    for (const [engine, kit] of engines) {
      for (const [include, expected] of cases) {
        const result = await kit.run('search_text', { query: 'needle', include });
        assert.deepEqual(pathsOf(result), expected, `${engine}: include ${JSON.stringify(include)}\n${result.text}`);
      }
    }
  });

  it('takes the literal folder a glob starts in, and none for a glob that matches at any depth', () => {
    const cases: [string, string | undefined][] = [
      ['src/**/*.ts', 'src'],
      ['src/lib/', 'src'],
      ['/src/lib/**', 'src/lib'],
      ['a/b/c.ts', 'a/b'],
      ['a/*/c/**', 'a'],
      ['*.ts', undefined],
      ['lib/', undefined],
      ['/lib', undefined],
      ['**/x/**', undefined],
      ['{a,b}/**', undefined],
      ['../up/**', undefined],
      ['a\\*b/**', undefined],
    ];
    for (const [glob, expected] of cases) assert.equal(literalFolderOf(glob), expected, glob);
  });
});

/** A folder outside the workspace with a file the search must not reach through a link. */
function makeOutside(root: string): string {
  const outside = `${root}-outside`;
  put(outside, 'inner/far.js', 'needle\n');
  put(outside, 'near.js', 'needle\n');
  return outside;
}
