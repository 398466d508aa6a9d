// Every hostile path of the corpus, through every tool that takes a path,
// with an approval gate that says yes to everything: the scope check alone
// must refuse them all, and nothing outside the workspace may change.

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveScopedPath, scopeFolders } from '../../../src/tools/pathScope';
import { makeKit, makeTempDir, type Kit } from './workspaceTestKit';

interface Corpus {
  readonly paths: readonly { readonly path: string; readonly why: string }[];
}

const corpus = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/hostile-paths.json'), 'utf8')) as Corpus;

/** Every entry under `dir` except `skip`, with content hashes and modification times. */
function snapshot(dir: string, skip: string): Map<string, string> {
  const entries = new Map<string, string>();
  const visit = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      if (full === skip) continue;
      const info = lstatSync(full);
      if (info.isSymbolicLink()) entries.set(full, `link:${readlinkSync(full)}`);
      else if (info.isDirectory()) {
        entries.set(full, `dir:${info.mtimeMs}`);
        visit(full);
      } else entries.set(full, `file:${info.mtimeMs}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
    }
  };
  visit(dir);
  return entries;
}

describe('hostile paths', () => {
  let container: string;
  let workspace: string;
  let outside: string;
  let kit: Kit;
  let expand: (template: string) => string;

  before(() => {
    container = makeTempDir('tandem-hostile-');
    workspace = path.join(container, 'workspace');
    outside = path.join(container, 'outside');
    mkdirSync(path.join(workspace, 'sub', '.git', 'hooks'), { recursive: true });
    mkdirSync(path.join(workspace, '.git'), { recursive: true });
    mkdirSync(path.join(workspace, 'nested'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'secret outside\n');
    writeFileSync(path.join(container, 'secret.txt'), 'secret next to the workspace\n');
    writeFileSync(path.join(workspace, 'notes.txt'), 'secret inside\n');
    writeFileSync(path.join(workspace, '.git', 'config'), '[core]\nsecret = 1\n');
    writeFileSync(path.join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main secret\n');
    writeFileSync(path.join(workspace, 'sub', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n# secret\n');
    symlinkSync(outside, path.join(workspace, 'link-out'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'link-file'));
    symlinkSync(path.join(outside, 'created-by-dangling.txt'), path.join(workspace, 'dangling'));
    symlinkSync(path.join(workspace, '.git'), path.join(workspace, 'link-git'));
    symlinkSync('../..', path.join(workspace, 'nested', 'up'));
    expand = (template) =>
      template.replaceAll('{root}', workspace).replaceAll('{outsideName}', path.basename(outside)).replaceAll('{outside}', outside);
    kit = makeKit({ folders: [workspace], approve: true });
  });

  after(() => {
    kit.dispose();
    rmSync(container, { recursive: true, force: true });
  });

  it('the corpus has at least 30 paths', () => {
    assert.ok(corpus.paths.length >= 30, `only ${corpus.paths.length} paths`);
  });

  it('the scope check refuses every path of the corpus', async () => {
    const folders = await scopeFolders([{ name: 'workspace', path: workspace }]);
    for (const entry of corpus.paths) {
      const result = await resolveScopedPath(expand(entry.path), folders);
      assert.equal(result.ok, false, `${JSON.stringify(entry.path)} (${entry.why}) was accepted: ${JSON.stringify(result)}`);
    }
  });

  it('every tool refuses every path, nothing is asked, nothing outside changes', async () => {
    const before = snapshot(container, workspace);
    const insideBefore = snapshot(workspace, '');
    const calls: [string, (target: string) => Record<string, unknown>][] = [
      ['read_file', (target) => ({ path: target })],
      ['list_dir', (target) => ({ path: target, recursive: true })],
      ['write_file', (target) => ({ path: target, content: 'pwned\n' })],
      ['edit_file', (target) => ({ path: target, edits: [{ oldText: 'secret', newText: 'pwned' }] })],
      ['create_directory', (target) => ({ path: target })],
      ['delete_file', (target) => ({ path: target })],
    ];
    let refusals = 0;
    for (const entry of corpus.paths) {
      for (const [tool, makeArgs] of calls) {
        const result = await kit.run(tool, makeArgs(expand(entry.path)));
        assert.equal(result.isError, true, `${tool} ${JSON.stringify(entry.path)} (${entry.why}) was not refused: ${result.text}`);
        assert.match(result.text, /Refused path/u, `${tool} ${JSON.stringify(entry.path)}: ${result.text}`);
        refusals += 1;
      }
    }
    assert.equal(refusals, corpus.paths.length * calls.length);
    assert.deepEqual(kit.approval.asked, [], 'no hostile call may reach the approval step');
    assert.deepEqual(snapshot(container, workspace), before, 'something outside the workspace changed');
    assert.deepEqual(snapshot(workspace, ''), insideBefore, 'something inside the workspace changed');
    assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret outside\n');
  });

  it('refuses to change a hard link to a file outside, and to read a FIFO', async () => {
    linkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'hardlink.txt'));
    execFileSync('mkfifo', [path.join(workspace, 'pipe')]);
    try {
      const before = snapshot(container, workspace);
      for (const [tool, args] of [
        ['write_file', { path: 'hardlink.txt', content: 'pwned\n' }],
        ['edit_file', { path: 'hardlink.txt', edits: [{ oldText: 'secret', newText: 'pwned' }] }],
        ['write_file', { path: 'pipe', content: 'x' }],
        ['read_file', { path: 'pipe' }],
      ] as const) {
        const result = await kit.run(tool, args);
        assert.equal(result.isError, true, `${tool} ${args.path}: ${result.text}`);
        assert.match(result.text, /hard links|not a regular file/u);
      }
      assert.deepEqual(snapshot(container, workspace), before);
      assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret outside\n');
    } finally {
      rmSync(path.join(workspace, 'hardlink.txt'));
      rmSync(path.join(workspace, 'pipe'));
    }
  });

  it('search results never include .git, ignored or outside files', async () => {
    const result = await kit.run('search_text', { query: 'secret' });
    assert.equal(result.isError, undefined);
    assert.match(result.text, /notes\.txt:1/u);
    assert.doesNotMatch(result.text, /\.git|outside|link-/u);
  });
});
