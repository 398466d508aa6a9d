import * as assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RESULT_CAP_CHARS } from '../../../src/agent/resultCap';
import { NO_FOLDER_MESSAGE } from '../../../src/tools/pathScope';
import { READ_MAX_LINES } from '../../../src/tools/readFileTool';
import { makeKit, makeTempDir, type Kit } from './workspaceTestKit';

function put(root: string, name: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), content);
}

describe('read_file', () => {
  let kit: Kit;
  before(() => {
    kit = makeKit();
    put(kit.root, 'small.txt', 'one\ntwo\nthree\nfour\n');
    put(kit.root, 'long.txt', Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n'));
    put(kit.root, 'wide.txt', `${'x'.repeat(150_000)}\nsecond\n`);
    put(kit.root, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]));
    put(kit.root, '.gitignore', 'secret*.env\n');
    put(kit.root, 'secret.env', 'KEY=1\n');
    put(kit.root, 'empty.txt', '');
  });
  after(() => kit.dispose());

  it('reads a whole file with a header', async () => {
    const result = await kit.run('read_file', { path: 'small.txt' });
    assert.equal(result.text, 'small.txt (lines 1-4 of 4)\none\ntwo\nthree\nfour');
  });

  it('reads a line range', async () => {
    const result = await kit.run('read_file', { path: 'small.txt', startLine: 2, endLine: 3 });
    assert.equal(result.text, 'small.txt (lines 2-3 of 4)\ntwo\nthree');
  });

  it('cuts long files at the line cap and says how to read on', async () => {
    const result = await kit.run('read_file', { path: 'long.txt' });
    assert.match(result.text, new RegExp(`^long\\.txt \\(lines 1-${READ_MAX_LINES} of 3000\\)`, 'u'));
    assert.match(result.text, /\[Truncated: lines 2001-3000 were left out\. Call read_file with startLine=2001 to read on\.\]$/u);
    const next = await kit.run('read_file', { path: 'long.txt', startLine: 2001 });
    assert.match(next.text, /^long\.txt \(lines 2001-3000 of 3000\)\nline 2001\n/u);
    assert.doesNotMatch(next.text, /Truncated/u);
  });

  it('cuts at the character cap too', async () => {
    const result = await kit.run('read_file', { path: 'wide.txt' });
    assert.ok(result.text.length <= RESULT_CAP_CHARS);
    assert.match(result.text, /\[Truncated: lines 2-2 were left out/u);
    // The first line alone is over the cap: the cut is said, not passed off as the whole line.
    const shown = result.text.split('\n')[1]?.length;
    assert.match(result.text, new RegExp(`\\[Truncated: line 1 is 150000 characters long; only its first ${shown} are shown, and no read_file call shows the rest\\.\\]`, 'u'));
    const second = await kit.run('read_file', { path: 'wide.txt', startLine: 2 });
    assert.doesNotMatch(second.text, /characters long/u);
  });

  it('refuses binary files clearly', async () => {
    const result = await kit.run('read_file', { path: 'image.png' });
    assert.equal(result.isError, true);
    assert.match(result.text, /image\.png is a binary file/u);
  });

  it('refuses a file too large to read, giving its size and the limit', async () => {
    const big = path.join(kit.root, 'dump.log');
    writeFileSync(big, 'x');
    truncateSync(big, 300 * 1024 * 1024);
    try {
      const result = await kit.run('read_file', { path: 'dump.log' });
      assert.equal(result.isError, true);
      assert.match(result.text, /dump\.log is too large \(300 MB; the limit is 20 MB\)\./u);
    } finally {
      rmSync(big);
    }
  });

  it('reads a file .gitignore excludes only after asking, each time, and never for .tandemignore', async () => {
    const asked = kit.approval.asked.length;
    kit.approval.answer = false;
    for (const name of ['secret.env', 'secret-missing.env']) {
      const declined = await kit.run('read_file', { path: name });
      // Asked before anything is looked at: whether the file exists is not told either.
      assert.equal(declined.text, `The user did not allow reading ${name} (excluded by .gitignore); it was not read.`);
      assert.equal(declined.rejected, true);
      assert.doesNotMatch(declined.text, /KEY=1/u);
    }
    kit.approval.answer = true;
    const allowed = await kit.run('read_file', { path: 'secret.env' });
    assert.equal(allowed.text, 'secret.env (lines 1-1 of 1)\nKEY=1');
    const requests = kit.approval.asked.slice(asked);
    assert.equal(requests.length, 3);
    for (const request of requests) {
      assert.equal(request.kind, 'toolCall');
      assert.equal(request.toolName, 'read_file');
      // Every policy and always-allow entry still asks, and "Always allow" is not offered.
      assert.equal(request.alwaysAsks, true);
      assert.equal(request.alwaysAllow, null);
      assert.equal(request.allowedBy?.(['read_file']), false);
      assert.match(request.summary ?? '', /^Read secret(-missing)?\.env, which \.gitignore keeps from the agent/u);
    }
    put(kit.root, '.tandemignore', 'secret.env\n');
    try {
      const refused = await kit.run('read_file', { path: 'secret.env' });
      assert.equal(refused.text, 'Error: secret.env is excluded by .tandemignore, so the agent may not read it.');
      assert.equal(kit.approval.asked.length, asked + 3);
    } finally {
      rmSync(path.join(kit.root, '.tandemignore'));
    }
  });

  it('reports missing files, folders and ranges past the end', async () => {
    assert.match((await kit.run('read_file', { path: 'nope.txt' })).text, /nope\.txt does not exist/u);
    assert.match((await kit.run('read_file', { path: '.' })).text, /is a folder/u);
    assert.match((await kit.run('read_file', { path: 'small.txt', startLine: 9 })).text, /has 4 lines/u);
    assert.match((await kit.run('read_file', { path: 'empty.txt' })).text, /^empty\.txt \(empty file\)/u);
  });

  it('rejects invalid arguments with the reason', async () => {
    const result = await kit.run('read_file', { path: 'small.txt', startLine: 0 });
    assert.equal(result.isError, true);
    assert.match(result.text, /^Error: invalid arguments for read_file: startLine: Too small: expected number to be >=1\. Call it again/u);
    const missing = await kit.run('read_file', {});
    assert.match(missing.text, /^Error: invalid arguments for read_file: path: missing \(expected string\)\./u);
  });
});

describe('read_file with unsaved editor text', () => {
  it('reads what the editor holds, not the disk', async () => {
    const probe = makeKit();
    const file = path.join(realpathSync(probe.root), 'open.ts');
    writeFileSync(file, 'on disk\n');
    const kit = makeKit({ folders: [probe.root], openDocuments: new Map([[file, 'unsaved text\n']]) });
    const result = await kit.run('read_file', { path: 'open.ts' });
    assert.equal(result.text, 'open.ts (lines 1-1 of 1, from the editor with unsaved changes)\nunsaved text');
    probe.dispose();
    kit.dispose();
  });
});

describe('no folder open', () => {
  it('every tool says so', async () => {
    const kit = makeKit({ folders: [] });
    for (const [name, args] of [
      ['read_file', { path: 'a' }],
      ['list_dir', {}],
      ['find_files', { pattern: '*' }],
      ['search_text', { query: 'x' }],
      ['write_file', { path: 'a', content: '' }],
    ] as const) {
      const result = await kit.run(name, args);
      assert.equal(result.isError, true, name);
      assert.equal(result.text, `Error: ${NO_FOLDER_MESSAGE}`, name);
    }
    kit.dispose();
  });
});

describe('list_dir and find_files', () => {
  let kit: Kit;
  before(() => {
    kit = makeKit();
    put(kit.root, '.gitignore', 'node_modules/\n');
    put(kit.root, 'src/a.ts', '');
    put(kit.root, 'src/b.js', '');
    put(kit.root, 'src/deep/c.ts', '');
    put(kit.root, 'node_modules/x/index.js', '');
    put(kit.root, 'README.md', '');
    symlinkSync(path.join(kit.root, 'src'), path.join(kit.root, 'src-link'));
  });
  after(() => kit.dispose());

  it('lists one level with folder and link markers, ignored entries left out', async () => {
    const result = await kit.run('list_dir', {});
    assert.equal(result.text, './ (4 entries)\n.gitignore\nREADME.md\nsrc-link@\nsrc/');
  });

  it("in a multi-root workspace, the root lists the folders and each lists under its name", async () => {
    const container = makeTempDir('tandem-list-roots-');
    for (const name of ['api', 'web']) put(container, `${name}/src/${name}.ts`, '');
    const roots = makeKit({ folders: [path.join(container, 'api'), path.join(container, 'web')] });
    for (const root of [{}, { path: '.' }, { path: './' }]) {
      const result = await roots.run('list_dir', root);
      assert.equal(result.text, 'The workspace has 2 folders; a path starts with its folder\'s name (e.g. "web/"):\napi/\nweb/\nList one to see inside it: list_dir "api".');
    }
    assert.equal((await roots.run('list_dir', { path: 'web', recursive: true })).text, 'web/ (2 entries, recursive to depth 5)\nsrc/\nsrc/web.ts');
    assert.match((await roots.run('list_dir', { path: '..' })).text, /Refused path "\.\.": '\.\.' \(or a run of dots\) is not accepted/u, "'..' is still refused");
    roots.dispose();
    rmSync(container, { recursive: true, force: true });
  });

  it('lists a folder .gitignore excludes once the user allows it, with its contents unhidden', async () => {
    const asked = kit.approval.asked.length;
    kit.approval.answer = false;
    const declined = await kit.run('list_dir', { path: 'node_modules' });
    assert.equal(declined.text, 'The user did not allow reading the folder node_modules (excluded by .gitignore); it was not read.');
    kit.approval.answer = true;
    const listed = await kit.run('list_dir', { path: 'node_modules', recursive: true });
    assert.equal(listed.text, 'node_modules/ (2 entries, recursive to depth 5, excluded by .gitignore)\nx/\nx/index.js');
    assert.deepEqual(
      kit.approval.asked.slice(asked).map((request) => [request.toolName, request.alwaysAsks]),
      [
        ['list_dir', true],
        ['list_dir', true],
      ],
    );
    // A plain listing does not ask: the ignored folder is simply left out.
    await kit.run('list_dir', {});
    assert.equal(kit.approval.asked.length, asked + 2);
  });

  it('lists recursively and caps with a note', async () => {
    const full = await kit.run('list_dir', { path: 'src', recursive: true });
    assert.equal(full.text, 'src/ (4 entries, recursive to depth 5)\na.ts\nb.js\ndeep/\ndeep/c.ts');
    const capped = await kit.run('list_dir', { path: 'src', recursive: true, limit: 2 });
    assert.match(capped.text, /\(2\+ entries/u);
    assert.match(capped.text, /\[Truncated at 2 entries/u);
  });

  it('finds files by glob, a bare glob at any depth', async () => {
    const result = await kit.run('find_files', { pattern: '*.ts' });
    assert.equal(result.text, '2 files match "*.ts":\nsrc/a.ts\nsrc/deep/c.ts');
    assert.deepEqual(result.summary, { kind: 'search', total: 2, top: [{ title: 'src/a.ts' }, { title: 'src/deep/c.ts' }] });
    const rooted = await kit.run('find_files', { pattern: 'src/*.js' });
    assert.equal(rooted.text, '1 files match "src/*.js":\nsrc/b.js');
    const none = await kit.run('find_files', { pattern: '**/index.js' });
    assert.match(none.text, /^No files match "\*\*\/index\.js"\. A pattern without '\/' must match a whole file name/u);
  });

  it('caps find results but counts them all', async () => {
    const result = await kit.run('find_files', { pattern: '**/*', limit: 1 });
    assert.match(result.text, /^5 files match "\*\*\/\*" \(showing the first 1\):\n[^\n]+$/u);
  });
});
