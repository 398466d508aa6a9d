import * as assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NO_FOLDER_MESSAGE, pathSyntaxProblem, resolveScopedPath, scopeFolders, type ScopedFolder } from '../../../src/tools/pathScope';
import { makeTempDir } from './workspaceTestKit';
import { doesNotExist } from '../../../src/tools/workspaceToolSupport';

describe('pathSyntaxProblem', () => {
  it('accepts ordinary relative and absolute paths', () => {
    for (const ok of ['src/a.ts', './src/a.ts', 'a b/c.d.ts', '.github/workflows/ci.yml', '.gitignore', '.gitattributes', 'x..y', '..foo', 'dir/.', '/abs/path']) {
      assert.equal(pathSyntaxProblem(ok), undefined, ok);
    }
  });
  it('names the reason for each kind of trick', () => {
    assert.match(pathSyntaxProblem('a/../b') ?? '', /'\.\.'/u);
    assert.match(pathSyntaxProblem('%2e%2e') ?? '', /URL-encoded/u);
    assert.match(pathSyntaxProblem('a\u0000b') ?? '', /NUL/u);
    assert.match(pathSyntaxProblem('~/x') ?? '', /home/u);
    assert.match(pathSyntaxProblem('D:\\x') ?? '', /drive letter/u);
    assert.match(pathSyntaxProblem('\\\\srv\\x') ?? '', /UNC/u);
    assert.match(pathSyntaxProblem('.git/HEAD') ?? '', /\.git/u);
    assert.match(pathSyntaxProblem('file:///x') ?? '', /':'/u);
  });
});

describe('resolveScopedPath', () => {
  let container: string;
  let first: string;
  let second: string;
  let folders: ScopedFolder[];

  before(async () => {
    container = makeTempDir('tandem-scope-');
    first = path.join(container, 'app');
    second = path.join(container, 'lib');
    mkdirSync(path.join(first, 'src'), { recursive: true });
    mkdirSync(path.join(second, 'docs'), { recursive: true });
    writeFileSync(path.join(first, 'src', 'main.ts'), 'main\n');
    writeFileSync(path.join(second, 'docs', 'guide.md'), 'guide\n');
    // Symlinks that stay inside the workspace are fine, even across folders.
    symlinkSync(path.join(first, 'src'), path.join(first, 'src-link'));
    symlinkSync(path.join(second, 'docs'), path.join(first, 'docs-of-lib'));
    folders = await scopeFolders([
      { name: 'app', path: first },
      { name: 'lib', path: second },
    ]);
  });
  after(() => rmSync(container, { recursive: true, force: true }));

  it('says no folder is open when there is none', async () => {
    const result = await resolveScopedPath('a.txt', []);
    assert.deepEqual(result, { ok: false, message: NO_FOLDER_MESSAGE });
  });

  it('resolves a relative path in the first folder and shows it with the folder name (multi-root)', async () => {
    const result = await resolveScopedPath('src/main.ts', folders);
    assert.ok(result.ok);
    assert.equal(result.absolute, path.join(realpathSync(first), 'src', 'main.ts'));
    assert.equal(result.display, 'app/src/main.ts');
    assert.equal(result.exists, true);
  });

  it('resolves a folder-name prefix to that folder', async () => {
    const result = await resolveScopedPath('lib/docs/guide.md', folders);
    assert.ok(result.ok);
    assert.equal(result.folder.name, 'lib');
    assert.equal(result.relative, 'docs/guide.md');
  });

  it('finds an unprefixed existing path in the second folder', async () => {
    const result = await resolveScopedPath('docs/guide.md', folders);
    assert.ok(result.ok);
    assert.equal(result.folder.name, 'lib');
  });

  it('a path that names no folder and is in none goes to the first, saying the others were looked in', async () => {
    const missing = await resolveScopedPath('src/nothere.ts', folders);
    assert.ok(missing.ok);
    assert.equal(missing.display, 'app/src/nothere.ts');
    assert.deepEqual(missing.alsoLookedIn, ['lib']);
    assert.equal(doesNotExist(missing), 'app/src/nothere.ts does not exist, nor does src/nothere.ts in lib/');
    const named = await resolveScopedPath('app/src/nothere.ts', folders);
    assert.ok(named.ok);
    assert.equal(named.alsoLookedIn, undefined, 'a path with its folder name was looked for there only');
    assert.equal(doesNotExist(named), 'app/src/nothere.ts does not exist');
    const found = await resolveScopedPath('src/main.ts', folders);
    assert.ok(found.ok);
    assert.equal(found.alsoLookedIn, undefined);
  });

  it('accepts absolute paths inside a folder and new files in existing folders', async () => {
    const absolute = await resolveScopedPath(path.join(second, 'docs', 'guide.md'), folders);
    assert.ok(absolute.ok);
    assert.equal(absolute.display, 'lib/docs/guide.md');
    const fresh = await resolveScopedPath('app/src/new/deeper/file.ts', folders);
    assert.ok(fresh.ok);
    assert.equal(fresh.exists, false);
    assert.equal(fresh.relative, 'src/new/deeper/file.ts');
  });

  it('finds a file stored in another Unicode normalization than the model wrote (café as NFD on disk)', async () => {
    const stored = 'cafe\u0301';
    mkdirSync(path.join(first, `${stored}-notes`), { recursive: true });
    writeFileSync(path.join(first, `${stored}-notes`, `${stored}.txt`), 'menu\n');
    const resolved = await resolveScopedPath('app/caf\u00e9-notes/caf\u00e9.txt', folders);
    assert.ok(resolved.ok);
    assert.equal(resolved.exists, true);
    assert.equal(resolved.relative, `${stored}-notes/${stored}.txt`);
    // A new name keeps the form it was given in.
    const fresh = await resolveScopedPath('app/caf\u00e9-notes/th\u00e9.txt', folders);
    assert.ok(fresh.ok);
    assert.equal(fresh.exists, false);
    assert.equal(fresh.relative, `${stored}-notes/th\u00e9.txt`);
  });

  it('follows symlinks that stay inside the workspace, to their real place', async () => {
    const viaLink = await resolveScopedPath('app/src-link/main.ts', folders);
    assert.ok(viaLink.ok);
    assert.equal(viaLink.relative, 'src/main.ts');
    const acrossFolders = await resolveScopedPath('app/docs-of-lib/guide.md', folders);
    assert.ok(acrossFolders.ok);
    assert.equal(acrossFolders.display, 'lib/docs/guide.md');
  });

  it('refuses a path through a file as if it were a folder', async () => {
    const result = await resolveScopedPath('app/src/main.ts/inner', folders);
    assert.equal(result.ok, false);
  });

  it('single-root display has no folder prefix', async () => {
    const single = await scopeFolders([{ name: 'app', path: first }]);
    const result = await resolveScopedPath('./src/main.ts', single);
    assert.ok(result.ok);
    assert.equal(result.display, 'src/main.ts');
    const root = await resolveScopedPath('.', single);
    assert.ok(root.ok);
    assert.equal(root.display, '.');
    assert.equal(root.relative, '');
  });
});
