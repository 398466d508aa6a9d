import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IgnoreRules } from '../../../src/tools/ignoreRules';
import { scopeFolders } from '../../../src/tools/pathScope';
import { walkFolder } from '../../../src/tools/workspaceWalker';
import { makeTempDir } from './workspaceTestKit';

describe('ignore rules and the walker', () => {
  let root: string;
  before(() => {
    root = makeTempDir('tandem-ignore-');
    const files: Record<string, string> = {
      '.gitignore': 'dist/\n*.log\n!important.log\n',
      '.tandemignore': 'private/\n*.secret\n',
      'src/a.ts': 'a',
      'src/.gitignore': 'generated/\n',
      'src/generated/g.ts': 'g',
      'src/keep.log': 'k',
      'src/important.log': 'i',
      'src/x.secret': 's',
      'dist/out.js': 'o',
      'private/p.txt': 'p',
      'docs/generated/ok.md': 'not under src, so not ignored',
      '.git/HEAD': 'h',
      '.github/ci.yml': 'c',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('says which file ignores a path, including nested .gitignore files and negation', async () => {
    const rules = new IgnoreRules(root);
    assert.equal(await rules.ignoredBy('dist/out.js', false), '.gitignore');
    assert.equal(await rules.ignoredBy('src/keep.log', false), '.gitignore');
    assert.equal(await rules.ignoredBy('src/important.log', false), undefined);
    assert.equal(await rules.ignoredBy('src/generated/g.ts', false), '.gitignore');
    assert.equal(await rules.ignoredBy('docs/generated/ok.md', false), undefined);
    assert.equal(await rules.ignoredBy('private/p.txt', false), '.tandemignore');
    assert.equal(await rules.ignoredBy('src/x.secret', false), '.tandemignore');
    assert.equal(await rules.ignoredBy('src/a.ts', false), undefined);
  });

  it('walks only what is not ignored, never .git, hidden files included', async () => {
    const [folder] = await scopeFolders([{ name: 'w', path: root }]);
    const seen: string[] = [];
    await walkFolder(folder!, new IgnoreRules(folder!.real), {
      signal: new AbortController().signal,
      onEntry: (entry) => {
        if (entry.kind === 'file') seen.push(entry.relative);
      },
    });
    assert.deepEqual(seen.sort(), [
      '.github/ci.yml',
      '.gitignore',
      '.tandemignore',
      'docs/generated/ok.md',
      'src/.gitignore',
      'src/a.ts',
      'src/important.log',
    ]);
  });

  it('stops and skips as the visitor says, and honours the abort signal', async () => {
    const [folder] = await scopeFolders([{ name: 'w', path: root }]);
    let count = 0;
    await walkFolder(folder!, new IgnoreRules(folder!.real), {
      signal: new AbortController().signal,
      onEntry: () => (++count >= 2 ? 'stop' : undefined),
    });
    assert.equal(count, 2);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(walkFolder(folder!, new IgnoreRules(folder!.real), { signal: controller.signal, onEntry: () => undefined }), /Stopped/u);
  });
});
