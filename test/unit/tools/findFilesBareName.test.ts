// find_files given a bare name that is no file's whole name ('renderer' for
// lib/renderer.mjs) lists the names that contain it; a pattern that finds
// nothing at all says how to write one.

import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeKit, type Kit } from './workspaceTestKit';

function put(root: string, name: string): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), 'x\n');
}

describe('find_files with a bare name', () => {
  let kit: Kit;
  before(() => {
    kit = makeKit();
    for (const name of ['lib/renderer.mjs', 'lib/rules_core/state_core.mjs', 'test/Renderer.test.mjs', 'ignored/renderer.js', '.gitignore']) put(kit.root, name);
    writeFileSync(path.join(kit.root, '.gitignore'), 'ignored/\n');
  });
  after(() => kit.dispose());

  it('lists the files whose names contain it, ignoring case, and says that none is named so exactly', async () => {
    const result = await kit.run('find_files', { pattern: 'renderer' });
    assert.equal(result.text, 'No file is named "renderer" exactly; 2 file names contain it:\nlib/renderer.mjs\ntest/Renderer.test.mjs');
    assert.deepEqual(result.summary, { kind: 'search', total: 2, top: [{ title: 'lib/renderer.mjs' }, { title: 'test/Renderer.test.mjs' }] });
    const one = await kit.run('find_files', { pattern: 'STATE_' });
    assert.equal(one.text, 'No file is named "STATE_" exactly; 1 file name contains it:\nlib/rules_core/state_core.mjs');
  });

  it('an exact name still matches only itself', async () => {
    const result = await kit.run('find_files', { pattern: 'renderer.mjs' });
    assert.equal(result.text, '1 files match "renderer.mjs":\nlib/renderer.mjs');
  });

  it('says how to write the pattern when nothing matches, and looks inside names only for a bare one', async () => {
    const absent = await kit.run('find_files', { pattern: 'parser' });
    assert.equal(
      absent.text,
      'No files match "parser". No file name contains it either. A pattern without \'/\' must match a whole file name, at any depth: ' +
        "'*parser*' or 'parser.*' for part of a name, '**/parser/**' for the files in folders of that name; a pattern with '/' matches the path from the workspace folder, e.g. 'src/**/*.ts'.",
    );
    assert.deepEqual(absent.summary, { kind: 'search', total: 0, top: [] });
    const globbed = await kit.run('find_files', { pattern: 'parse*' });
    assert.match(globbed.text, /^No files match "parse\*"\. A pattern without '\/' must match a whole file name/u);
    const pathed = await kit.run('find_files', { pattern: 'src/renderer' });
    assert.match(pathed.text, /^No files match "src\/renderer"\. A pattern without/u);
  });
});
