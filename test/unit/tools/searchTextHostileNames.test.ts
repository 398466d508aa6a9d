// Ignore files and names a repository can commit to make ripgrep show what the
// JavaScript engine (the reference) hides: a byte order mark before the first
// rule, a newline, another control character or bytes that are not UTF-8 in a
// path, a .gitignore that is a link to an endless file. Each is searched with
// both engines.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { IgnoreRules } from '../../../src/tools/ignoreRules';
import { putFile as put, withBothEngines } from './workspaceTestKit';

describe('search_text: a byte order mark before the first rule of an ignore file', () => {
  const { engines } = withBothEngines('tandem-search-bom-', (root) => {
    put(root, '.tandemignore', '\uFEFF.env\n');
    put(root, '.gitignore', '\uFEFFtoken.txt\n');
    put(root, '.env', 'OPENAI_API_KEY=sk-SECRET\n');
    put(root, 'token.txt', 'TOKEN=SECRET\n');
    put(root, 'a.txt', 'PUBLIC=SECRET\n');
  });

  it('hides what that rule names, in .tandemignore and in a root .gitignore', async () => {
    for (const [engine, kit] of engines) {
      for (const include of [undefined, '*', '.env']) {
        const result = await kit.run('search_text', { query: 'SECRET', caseSensitive: true, include });
        assert.doesNotMatch((result).text, /sk-SECRET|TOKEN=/u, `${engine}: include ${String(include)}\n${result.text}`);
      }
      assert.match((await kit.run('search_text', { query: 'SECRET', caseSensitive: true })).text, /^1 matching lines in 1 files/u, engine);
    }
  });
});

describe('search_text: a byte order mark in a nested .gitignore only', () => {
  const { engines } = withBothEngines('tandem-search-nested-bom-', (root) => {
    put(root, '.gitignore', 'node_modules/\n');
    // The first rule names a file in one, a folder in the other; the second rule ripgrep reads well.
    put(root, 'pkg/.gitignore', '\uFEFFlocal.env\nbuild/\n');
    put(root, 'pkg/local.env', 'LOCAL=SECRET\n');
    put(root, 'pkg/build/b.txt', 'BUILT=SECRET\n');
    put(root, 'pkg/deep/.gitignore', '\uFEFFcache/\n');
    put(root, 'pkg/deep/cache/c.txt', 'CACHED=SECRET\n');
    put(root, 'pkg/deep/d.txt', 'DEEP=SECRET\n');
    put(root, 'pkg/kept.txt', 'KEPT=SECRET\n');
    put(root, 'other/o.txt', 'OTHER=SECRET\n');
  });

  it('hides what its first rule names, as git does, and nothing else', async () => {
    for (const [engine, kit] of engines) {
      for (const include of [undefined, 'pkg/**', '*.env', '**/*.txt']) {
        const result = await kit.run('search_text', { query: 'SECRET', caseSensitive: true, include });
        assert.doesNotMatch(result.text, /LOCAL=|CACHED=|BUILT=/u, `${engine}: include ${String(include)}\n${result.text}`);
      }
      const whole = await kit.run('search_text', { query: 'SECRET', caseSensitive: true });
      assert.match(whole.text, /^3 matching lines in 3 files/u, `${engine}\n${whole.text}`);
      for (const kept of ['KEPT=', 'DEEP=', 'OTHER=']) assert.match(whole.text, new RegExp(kept, 'u'), engine);
    }
  });
});

describe('search_text: paths with a newline or bytes that are not UTF-8', () => {
  const { engines, built } = withBothEngines('tandem-search-odd-names-', (root) => {
    put(root, '.gitignore', 'private/\n');
    put(root, 'private/a\nb.txt', 'SECRET=1\n');
    put(root, 'b.txt', 'nothing here\n');
    // A folder named with a byte that is not UTF-8, holding its own .gitignore.
    const odd = Buffer.concat([Buffer.from(`${root}/w`), Buffer.from([0xff])]);
    mkdirSync(odd);
    writeFileSync(Buffer.concat([odd, Buffer.from('/.gitignore')]), '.env\n');
    writeFileSync(Buffer.concat([odd, Buffer.from('/.env')]), 'SECRET=2\n');
    // Decoded, `x\xff` reads `x\uFFFD`: a link of that name leads outside, where a cut line's snippet would be read.
    const cut = Buffer.concat([Buffer.from(`${root}/x`), Buffer.from([0xff])]);
    mkdirSync(cut);
    writeFileSync(Buffer.concat([cut, Buffer.from('/config')]), `x\n${'a'.repeat(500)}needle\n`);
    const outside = `${root}-outside`;
    put(outside, 'config', `x\n${'b'.repeat(500)}OUTSIDE-needle\n`);
    symlinkSync(outside, path.join(root, 'x\uFFFD'));
    return root;
  });

  it('shows nothing an ignore file hides, whatever the name', async () => {
    for (const [engine, kit] of engines) {
      for (const include of [undefined, '*', '*.txt', ['*.txt', 'private'], '.env', '**']) {
        const result = await kit.run('search_text', { query: 'SECRET', include });
        assert.doesNotMatch((result).text, /SECRET=/u, `${engine}: include ${JSON.stringify(include)}\n${result.text}`);
      }
      const long = await kit.run('search_text', { query: 'needle' });
      assert.doesNotMatch((long).text, /OUTSIDE/u, `${engine}\n${long.text}`);
    }
    assert.ok(built());
  });
});

describe('ignore rules: a .gitignore that is not a regular file', () => {
  const { engines, built } = withBothEngines('tandem-search-endless-', (root) => {
    put(root, 'src/lib/a.js', 'needle\n');
    put(root, 'src/lib/.gitignore', 'b.js\n');
    put(root, 'src/lib/b.js', 'needle\n');
    put(root, 'docs/c.md', 'needle\n');
    put(root, 'rules.txt', 'c.md\n');
    // git does not follow a linked .gitignore; read, the first would never end (node gave up after 1.3 s and 680 MB).
    symlinkSync('/dev/zero', path.join(root, 'src', '.gitignore'));
    symlinkSync(path.join(root, 'rules.txt'), path.join(root, 'docs', '.gitignore'));
    return root;
  });

  it('is not read, as git reads it, and a search that starts below it does not read it', async () => {
    const rules = new IgnoreRules(built());
    assert.equal(await rules.ignoredBy('src/lib/b.js', false), '.gitignore');
    assert.equal(await rules.ignoredBy('src/lib/a.js', false), undefined);
    assert.equal(await rules.ignoredBy('docs/c.md', false), undefined, 'a linked .gitignore has no rules');
    // A search that starts below src: ripgrep 13 still reads src/.gitignore there (--no-ignore-parent only keeps
    // its rules from applying), so the memory watch ends that one too.
    for (const [engine, kit] of engines) {
      const result = await kit.run('search_text', { query: 'needle', include: 'src/lib/**' });
      assert.match((result).text, /^1 matching lines in 1 files/u, `${engine}\n${result.text}`);
    }
  });

  it('ends a search of the whole folder, which ripgrep gives up on for the JavaScript engine', async () => {
    for (const [engine, kit] of engines) {
      const result = await kit.run('search_text', { query: 'needle' });
      // src/lib/b.js is hidden by its own .gitignore; the two linked ones have no rules.
      assert.match(result.text, /^2 matching lines in 2 files/u, `${engine}\n${result.text}`);
      assert.match(result.text, /src\/lib\/a\.js:1/u, engine);
      assert.match(result.text, /docs\/c\.md:1/u, engine);
    }
    // Both searches of this describe, the one above and this one.
    const ripgrep = engines.find(([engine]) => engine === 'ripgrep')?.[1];
    assert.equal(ripgrep?.logged.length, 2, String(ripgrep?.logged));
    for (const line of ripgrep.logged) assert.match(line, /^search_text: ripgrep was stopped at [\d.]+ (?:MB|GB) of memory \(an ignore file it read has no end\); searched with the JavaScript engine instead\.$/u);
  });
});

describe('ignore rules: a .gitignore that is a FIFO', { skip: process.platform === 'win32' ? 'no FIFO files on Windows' : false }, () => {
  const { engines } = withBothEngines('tandem-search-fifo-', (root) => {
    put(root, 'src/a.js', 'needle\n');
    put(root, 'lib/b.js', 'needle\n');
    // git cannot commit one, but a tarball can hold it: ripgrep blocks in open() until someone writes to it.
    execFileSync('mkfifo', [path.join(root, 'lib', '.gitignore')]);
    // A FIFO among the files searched is passed over by both engines.
    execFileSync('mkfifo', [path.join(root, 'src', 'pipe.js')]);
  });

  it('is not read, and a search that ripgrep blocks on ends with the JavaScript engine, which the log says', async () => {
    for (const [engine, kit] of engines) {
      const started = Date.now();
      const result = await kit.run('search_text', { query: 'needle' });
      assert.match(result.text, /^2 matching lines in 2 files/u, `${engine}\n${result.text}`);
      assert.ok(Date.now() - started < 15_000, `${engine}: ${Date.now() - started} ms`);
    }
    const ripgrep = engines.find(([engine]) => engine === 'ripgrep')?.[1];
    assert.equal(ripgrep?.logged.length, 1, String(ripgrep?.logged));
    assert.match(ripgrep.logged[0]!, /^search_text: ripgrep was stopped after \d+ s without progress \(an ignore file it opened never answered\); searched with the JavaScript engine instead\.$/u);
    assert.deepEqual(engines.find(([engine]) => engine === 'javascript')?.[1].logged, []);
  });
});

describe('names with a control character', () => {
  const { engines } = withBothEngines('tandem-control-names-', (root) => {
    // Printed raw, the first would read as two lines of a listing: a hit or a path that is not there.
    put(root, 'a\n2. forged.txt', 'needle\n');
    put(root, 'tab\there.txt', 'needle\n');
    put(root, 'sub\ndir/inner.txt', 'needle\n');
    put(root, 'ok.txt', 'needle\n');
    // Ignored as well: not even counted.
    put(root, '.gitignore', 'hidden*\n');
    put(root, 'hidden\tname.txt', 'needle\n');
  });

  it('are left out of every listing, as no tool opens them, in both engines alike', async () => {
    for (const [engine, kit] of engines) {
      for (const include of [undefined, '*.txt']) {
        const found = await kit.run('search_text', { query: 'needle', include });
        assert.equal(found.text, '1 matching lines in 1 files for "needle":\n1. ok.txt:1: needle', `${engine}: include ${String(include)}`);
      }
      assert.equal((await kit.run('find_files', { pattern: '*' })).text, '2 files match "*":\n.gitignore\nok.txt', engine);
      const listed = await kit.run('list_dir', { path: '.', recursive: true });
      assert.doesNotMatch(listed.text, /forged|tab|inner/u, engine);
      assert.match(listed.text, /^ok\.txt$/mu, engine);
      // Three names are left out and said to be: not the ignored one, nor the file inside the left-out folder.
      assert.match(listed.text, /^\[3 entries are not shown: their names hold a control character or bytes that are not UTF-8, which no tool can open\.\]$/mu, engine);
      assert.match((await kit.run('list_dir', { path: '.' })).text, /^\[3 entries are not shown/mu, engine);
    }
  });
});
