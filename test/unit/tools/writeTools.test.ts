import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPolicyApprovalGate } from '../../../src/agent/policyApprovalGate';
import { applyExactEdits } from '../../../src/tools/exactEdits';
import type { ApprovalRequest, ToolContext } from '../../../src/tools/tool';
import { describeSize, MAX_TEXT_FILE_BYTES } from '../../../src/tools/workspaceFiles';
import { REJECTED_EDIT_TEXT } from '../../../src/tools/workspaceToolSupport';
import { makeKit, type Kit } from './workspaceTestKit';

describe('applyExactEdits', () => {
  it('replaces a unique string', () => {
    assert.deepEqual(applyExactEdits('a b c', [{ oldText: 'b', newText: 'B' }]), { ok: true, text: 'a B c', replacements: 1 });
  });
  it('fails when the string is absent, naming the edit', () => {
    const outcome = applyExactEdits('abc', [{ oldText: 'a', newText: 'x' }, { oldText: 'zzz', newText: 'y' }]);
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.message, /^edit 2 of 2: oldText was not found/u);
  });
  it('fails when the string is not unique, naming the lines', () => {
    const outcome = applyExactEdits('x\ny\nx\n', [{ oldText: 'x', newText: 'z' }]);
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.message, /occurs 2 times \(lines 1, 3\)/u);
  });
  it('replaces all when asked, and applies edits in order', () => {
    const outcome = applyExactEdits('x\ny\nx\n', [
      { oldText: 'x', newText: 'z', replaceAll: true },
      { oldText: 'y\nz', newText: 'w' },
    ]);
    assert.deepEqual(outcome, { ok: true, text: 'z\nw\n', replacements: 3 });
  });
  it("matches '\\n' text in a CRLF file and keeps CRLF", () => {
    assert.deepEqual(applyExactEdits('a\r\nb\r\nc\r\n', [{ oldText: 'a\nb', newText: 'A\nB' }]), { ok: true, text: 'A\r\nB\r\nc\r\n', replacements: 1 });
  });
  it('lines newText brings into a CRLF file get CRLF, however oldText matched', () => {
    const file = 'class P {\r\n    void A() {}\r\n}\r\n';
    const added = applyExactEdits(file, [{ oldText: '    void A() {}', newText: '    void A() {}\n\n    void B() {}' }]);
    assert.deepEqual(added, { ok: true, text: 'class P {\r\n    void A() {}\r\n\r\n    void B() {}\r\n}\r\n', replacements: 1 });
    const all = applyExactEdits('using A;\r\nusing B;\r\n', [{ oldText: 'using', newText: '// note\nusing', replaceAll: true }]);
    assert.deepEqual(all, { ok: true, text: '// note\r\nusing A;\r\n// note\r\nusing B;\r\n', replacements: 2 });
    // An LF file keeps LF even when the model wrote CRLF.
    assert.deepEqual(applyExactEdits('a\nb\n', [{ oldText: 'a', newText: 'x\r\ny' }]), { ok: true, text: 'x\ny\nb\n', replacements: 1 });
  });
  it('text starting with a line end keeps a CRLF whole, or removes it whole', () => {
    assert.deepEqual(applyExactEdits('a\r\nb\r\nc\r\n', [{ oldText: '\nb', newText: '\nB' }]), { ok: true, text: 'a\r\nB\r\nc\r\n', replacements: 1 });
    assert.deepEqual(applyExactEdits('a\r\nb\r\nc\r\n', [{ oldText: '\nb', newText: '' }]), { ok: true, text: 'a\r\nc\r\n', replacements: 1 });
  });
  it('matches across mixed line ends, each line keeping its own', () => {
    const file = '[core]\r\nname = a\r\nmode = b\nextra = c\n';
    assert.deepEqual(applyExactEdits(file, [{ oldText: 'name = a\nmode = b\nextra = c', newText: 'name = A\nmode = b\nextra = c' }]), {
      ok: true,
      text: '[core]\r\nname = A\r\nmode = b\r\nextra = c\n',
      replacements: 1,
    });
  });
  it('text that differs only in whitespace fails with the lines as they are, to copy', () => {
    const file = 'function f() {\n\tif (x) {\n\t\treturn 1;  \n\t}\n}\n';
    const outcome = applyExactEdits(file, [{ oldText: 'if (x) {\n    return 1;\n}', newText: 'if (x) {\n    return 2;\n}' }]);
    assert.equal(outcome.ok, false);
    assert.equal(
      outcome.ok ? '' : outcome.message,
      'the edit: oldText was not found. It differs only in whitespace from lines 2-4, which read exactly:\n\tif (x) {\n\t\treturn 1;  \n\t}\nUse that text as oldText.',
    );
    const absent = applyExactEdits(file, [{ oldText: 'return 3;', newText: 'x' }]);
    assert.equal(absent.ok ? '' : absent.message, 'the edit: oldText was not found. Read the file again and copy the text exactly, including whitespace.');
  });
  it('refuses an empty oldText', () => {
    assert.equal(applyExactEdits('abc', [{ oldText: '', newText: 'x' }]).ok, false);
  });
});

describe('write tools', () => {
  let kit: Kit;
  let file: string;
  beforeEach(() => {
    kit = makeKit();
    file = path.join(kit.root, 'src', 'app.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
  });
  afterEach(() => kit.dispose());

  it('write_file over a CRLF file keeps CRLF for content written with LF', async () => {
    writeFileSync(path.join(kit.root, 'win.txt'), 'a\r\nb\r\n');
    const result = await kit.run('write_file', { path: 'win.txt', content: 'a\nb\nc\n' });
    assert.equal(result.text, 'Replaced win.txt (3 lines).');
    assert.equal(readFileSync(path.join(kit.root, 'win.txt'), 'utf8'), 'a\r\nb\r\nc\r\n');
    const same = await kit.run('write_file', { path: 'win.txt', content: 'a\nb\nc\n' });
    assert.equal(same.text, 'win.txt already has exactly this content; nothing changed.');
  });

  it('edit_file whose edits cancel out neither asks nor writes', async () => {
    const result = await kit.run('edit_file', {
      path: 'src/app.ts',
      edits: [
        { oldText: 'const b = 2;', newText: 'const b = 9;' },
        { oldText: 'const b = 9;', newText: 'const b = 2;' },
      ],
    });
    assert.equal(result.text, 'src/app.ts: the edits cancel out and leave the file as it is; nothing changed.');
    assert.equal(kit.approval.asked.length, 0);
    assert.equal(kit.journal.hasEdits('run-1'), false);
  });

  it('edit_file asks with the before and after text, then writes', async () => {
    const result = await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: 'const b = 2;', newText: 'const b = 3;' }] });
    assert.equal(result.text, 'Edited src/app.ts: 1 replacement.');
    assert.equal(readFileSync(file, 'utf8'), 'const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
    assert.deepEqual(kit.approval.asked, [
      {
        kind: 'edit',
        toolName: 'edit_file',
        toolCallId: 'call-edit_file',
        path: realpathSync(file),
        summary: 'Change src/app.ts (+1 −1 lines, 3 lines)',
        sensitive: false,
        before: 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n',
        after: 'const a = 1;\nconst b = 3;\nconst a2 = 1;\n',
      },
    ]);
  });

  it('edit_file multi-edit applies all or nothing', async () => {
    const good = await kit.run('edit_file', {
      path: 'src/app.ts',
      edits: [
        { oldText: 'const a = 1;\n', newText: 'let a = 1;\n' },
        { oldText: 'const b', newText: 'let b' },
      ],
    });
    assert.equal(good.text, 'Edited src/app.ts: 2 replacements.');
    assert.equal(readFileSync(file, 'utf8'), 'let a = 1;\nlet b = 2;\nconst a2 = 1;\n');
    const bad = await kit.run('edit_file', {
      path: 'src/app.ts',
      edits: [
        { oldText: 'let a', newText: 'var a' },
        { oldText: 'missing', newText: 'x' },
      ],
    });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /edit 2 of 2: oldText was not found.*Nothing was changed\./su);
    assert.equal(readFileSync(file, 'utf8'), 'let a = 1;\nlet b = 2;\nconst a2 = 1;\n');
  });

  it('edit_file fails clearly when the text is not unique, without asking', async () => {
    const result = await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: ' = 1;', newText: ' = 9;' }] });
    assert.equal(result.isError, true);
    assert.match(result.text, /occurs 2 times \(lines 1, 3\)/u);
    assert.equal(kit.approval.asked.length, 0);
  });

  it('a rejection is the result and leaves the file untouched', async () => {
    kit.approval.answer = false;
    const before = readFileSync(file, 'utf8');
    const edit = await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: 'const b = 2;', newText: 'x' }] });
    assert.equal(edit.text, REJECTED_EDIT_TEXT);
    assert.equal(edit.isError, undefined);
    assert.equal(edit.rejected, true, 'the step shows as rejected, and the next run\'s record counts it');
    const write = await kit.run('write_file', { path: 'src/app.ts', content: 'gone' });
    assert.equal(write.text, REJECTED_EDIT_TEXT);
    const created = await kit.run('write_file', { path: 'src/new.ts', content: 'new' });
    assert.equal(created.text, REJECTED_EDIT_TEXT);
    const deleted = await kit.run('delete_file', { path: 'src/app.ts' });
    assert.match(deleted.text, /rejected deleting/u);
    const folder = await kit.run('create_directory', { path: 'made' });
    assert.match(folder.text, /rejected creating/u);
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal(existsSync(path.join(kit.root, 'src', 'new.ts')), false);
    assert.equal(existsSync(path.join(kit.root, 'made')), false);
    assert.equal(kit.journal.hasEdits('run-1'), false);
  });

  it('write_file creates parents; create_directory and delete_file work', async () => {
    const created = await kit.run('write_file', { path: 'docs/new/readme.md', content: '# hi\n' });
    assert.equal(created.text, 'Created docs/new/readme.md (1 line).');
    assert.equal(readFileSync(path.join(kit.root, 'docs/new/readme.md'), 'utf8'), '# hi\n');
    assert.equal((await kit.run('create_directory', { path: 'out/x' })).text, 'Created folder out/x.');
    assert.equal(existsSync(path.join(kit.root, 'out/x')), true);
    assert.equal((await kit.run('delete_file', { path: 'src/app.ts' })).text, 'Deleted src/app.ts.');
    assert.equal(existsSync(file), false);
    const same = await kit.run('write_file', { path: 'docs/new/readme.md', content: '# hi\n' });
    assert.match(same.text, /already has exactly this content/u);
  });

  it('delete_file refuses a file too large to keep a copy of, before asking, and leaves it', async () => {
    const big = path.join(kit.root, 'data.bin');
    writeFileSync(big, 'x');
    truncateSync(big, MAX_TEXT_FILE_BYTES + 1);
    assert.match((await kit.run('delete_file', { path: 'data.bin' })).text, /^Error: data\.bin is too large to delete with a way back \(just over 20 MB; /u, 'a byte over the limit');
    truncateSync(big, 1.5 * 1024 ** 3);
    const result = (await kit.run('delete_file', { path: 'data.bin' })).text;
    assert.equal(result, 'Error: data.bin is too large to delete with a way back (1.5 GB; Tandem keeps a copy of what it deletes up to 20 MB). Ask the user to delete it.');
    assert.equal(existsSync(big), true);
    assert.equal(kit.approval.asked.length, 0);
  });

  it('delete_file asks even when the policy approves everything; edits ask under readOnly', async () => {
    const asked: ApprovalRequest[] = [];
    const ask = async (request: ApprovalRequest): Promise<boolean> => {
      asked.push(request);
      return false;
    };
    const context = (policy: 'all' | 'readOnly'): ToolContext => ({
      runId: 'r',
      callId: 'c',
      signal: new AbortController().signal,
      approval: createPolicyApprovalGate(policy, ask),
    });
    const tool = (name: string) => kit.tools.find((candidate) => candidate.name === name)!;
    const deleted = await tool('delete_file').run({ path: 'src/app.ts' }, context('all'));
    assert.match(deleted.text, /rejected/u);
    assert.equal(asked.length, 1);
    const edited = await tool('write_file').run({ path: 'src/app.ts', content: 'x' }, context('all'));
    assert.match(edited.text, /^Replaced/u);
    assert.equal(asked.length, 1, 'policy all writes without asking');
    const underReadOnly = await tool('write_file').run({ path: 'src/app.ts', content: 'y' }, context('readOnly'));
    assert.equal(underReadOnly.text, REJECTED_EDIT_TEXT);
    assert.equal(asked.length, 2);
    assert.equal(readFileSync(file, 'utf8'), 'x');
  });

  it('refuses to write a file hidden by .tandemignore, and binary edits', async () => {
    writeFileSync(path.join(kit.root, '.tandemignore'), 'private/\n');
    const result = await kit.run('write_file', { path: 'private/a.txt', content: 'x' });
    assert.match(result.text, /excluded by \.tandemignore/u);
    writeFileSync(path.join(kit.root, 'blob.bin'), Buffer.from([1, 0, 2]));
    const binary = await kit.run('edit_file', { path: 'blob.bin', edits: [{ oldText: 'a', newText: 'b' }] });
    assert.match(binary.text, /binary file/u);
    assert.equal(kit.approval.asked.length, 0);
  });

  it('refuses to change a file that is not UTF-8, byte for byte untouched, and says how to make it editable', async () => {
    // "Café crème" in Windows-1252, then a line an edit would target.
    const latin1 = Buffer.concat([Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x0a]), Buffer.from('second line\n')]);
    writeFileSync(path.join(kit.root, 'legacy.txt'), latin1);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('caf\u00e9 line\n', 'utf16le')]);
    writeFileSync(path.join(kit.root, 'wide.txt'), utf16);
    const edit = await kit.run('edit_file', { path: 'legacy.txt', edits: [{ oldText: 'second line', newText: 'Second line' }] });
    assert.match(edit.text, /legacy\.txt is encoded as Windows-1252 \(it is not valid UTF-8\), and Tandem writes files as UTF-8 only.*Nothing was changed.*Save with Encoding/su);
    const overwrite = await kit.run('write_file', { path: 'legacy.txt', content: 'new\n' });
    assert.match(overwrite.text, /encoded as Windows-1252/u);
    const wide = await kit.run('edit_file', { path: 'wide.txt', edits: [{ oldText: 'line', newText: 'row' }] });
    assert.match(wide.text, /wide\.txt is encoded as UTF-16 LE/u);
    assert.equal(kit.approval.asked.length, 0, 'nothing was offered for approval');
    assert.deepEqual(readFileSync(path.join(kit.root, 'legacy.txt')), latin1);
    assert.deepEqual(readFileSync(path.join(kit.root, 'wide.txt')), utf16);
    // A UTF-8 file with a byte-order mark is UTF-8: edited, and the mark stays.
    writeFileSync(path.join(kit.root, 'bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('caf\u00e9\n')]));
    const bom = await kit.run('edit_file', { path: 'bom.txt', edits: [{ oldText: 'caf\u00e9', newText: 'th\u00e9' }] });
    assert.equal(bom.text, 'Edited bom.txt: 1 replacement.');
    assert.deepEqual(readFileSync(path.join(kit.root, 'bom.txt')), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('th\u00e9\n')]));
  });

  it('revertRun restores every file the run touched, and only that run', async () => {
    writeFileSync(path.join(kit.root, 'keep.txt'), 'keep\n');
    writeFileSync(path.join(kit.root, 'blob.bin'), Buffer.from([1, 0, 2, 3]));
    await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: 'const b = 2;', newText: 'const b = 20;' }] });
    await kit.run('write_file', { path: 'src/app.ts', content: 'replaced twice\n' });
    await kit.run('write_file', { path: 'new/deep/file.txt', content: 'created\n' });
    await kit.run('delete_file', { path: 'keep.txt' });
    await kit.run('delete_file', { path: 'blob.bin' });
    await kit.run('create_directory', { path: 'empty/dir' });
    await kit.run('write_file', { path: 'other-run.txt', content: 'other\n' }, 'run-2');
    assert.deepEqual(kit.journal.touchedFiles('run-1').map((p) => path.relative(realpathSync(kit.root), p)), [
      'src/app.ts',
      'new/deep/file.txt',
      'keep.txt',
      'blob.bin',
    ]);

    const outcome = await kit.journal.revertRun('run-1');
    assert.deepEqual(outcome.failed, []);
    assert.equal(readFileSync(file, 'utf8'), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
    assert.equal(existsSync(path.join(kit.root, 'new')), false, 'created folders are removed');
    assert.equal(existsSync(path.join(kit.root, 'empty')), false);
    assert.equal(readFileSync(path.join(kit.root, 'keep.txt'), 'utf8'), 'keep\n');
    assert.deepEqual([...readFileSync(path.join(kit.root, 'blob.bin'))], [1, 0, 2, 3]);
    assert.equal(readFileSync(path.join(kit.root, 'other-run.txt'), 'utf8'), 'other\n', 'another run is not touched');
    assert.equal(kit.journal.hasEdits('run-1'), false);
    assert.deepEqual((await kit.journal.revertRun('run-1')).restored, [], 'a second revert does nothing');
    assert.equal(kit.journal.latestRunWithEdits(), 'run-2');
  });

  it('Stop while the diff is open cancels the call and writes nothing', async () => {
    const controller = new AbortController();
    const approval = {
      request: (_request: ApprovalRequest, signal: AbortSignal) =>
        new Promise<boolean>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted while asking')));
          controller.abort();
        }),
    };
    const tool = kit.tools.find((candidate) => candidate.name === 'write_file')!;
    await assert.rejects(tool.run({ path: 'src/app.ts', content: 'never' }, { runId: 'r', callId: 'c', signal: controller.signal, approval }), { name: 'CancelledError' });
    assert.equal(readFileSync(file, 'utf8'), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
    assert.equal(kit.journal.hasEdits('run-1'), false);
  });

  it('does not write when the file changed while the user was looking at the diff', async () => {
    kit.approval.request = async () => {
      writeFileSync(file, 'typed by the user meanwhile\n');
      return true;
    };
    const result = await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: 'const b = 2;', newText: 'x' }] });
    assert.equal(result.isError, true);
    assert.match(result.text, /changed while waiting for approval/u);
    assert.equal(readFileSync(file, 'utf8'), 'typed by the user meanwhile\n');
  });
  it('does not delete a file that changed while the user was deciding, so Undo would not bring back older text', async () => {
    kit.approval.request = async () => {
      writeFileSync(file, 'saved by the user meanwhile\n');
      return true;
    };
    const result = await kit.run('delete_file', { path: 'src/app.ts' });
    assert.equal(result.isError, true);
    assert.match(result.text, /changed while waiting for approval; it was not deleted/u);
    assert.equal(readFileSync(file, 'utf8'), 'saved by the user meanwhile\n');
    // Unchanged: the approved delete goes ahead.
    kit.approval.request = async () => true;
    assert.equal((await kit.run('delete_file', { path: 'src/app.ts' })).text, 'Deleted src/app.ts.');
    assert.equal(existsSync(file), false);
  });
});

describe("an approval's size summary", () => {
  const file = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
  it('counts the lines a change adds and removes, not only the sizes before and after', () => {
    const before = file(364);
    assert.equal(describeSize(before, before.replace('line 10\n', 'line ten\n')), '+1 −1 lines, 364 lines');
    assert.equal(describeSize(before, before.replace('line 10\n', 'line 10\nline 10b\n').replace('line 300\n', '')), '+1 −1 lines, 364 lines');
    assert.equal(describeSize(before, before.replace('line 10\n', 'line 10\nnew\n')), '+1 −0 line, 365 lines');
    assert.equal(describeSize(before, before), 'no line changed, 364 lines');
    assert.equal(describeSize(undefined, file(1)), '1 line');
    // A rewrite of a long file would cost the diff minutes: past its bound, the sizes before and after.
    const rewritten = Array.from({ length: 20_000 }, (_, index) => `other ${index}`).join('\n') + '\n';
    assert.equal(describeSize(file(20_000), rewritten), '20000 → 20000 lines');
  });
});
