// The edit journal's revert: stored and brought back (as after a reload), and
// checked per file before restoring, so a change the user made after the run
// is never replaced without asking.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EditJournal, type RevertConflict } from '../../../src/tools/editJournal';
import { contentDigest, parseJournalSnapshot } from '../../../src/tools/editJournalSnapshot';
import { checkBeforeRevert } from '../../../src/tools/revertCheck';
import { makeKit, type Kit } from './workspaceTestKit';
import { revertSummary } from '../../../src/tools/revertSummary';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('checkBeforeRevert', () => {
  const written = contentDigest(bytes('run wrote\n'));
  it('restores a file that holds what the run wrote; one already as before needs nothing', () => {
    assert.deepEqual(checkBeforeRevert({ before: bytes('old\n'), after: written }, written), { kind: 'restore' });
    assert.deepEqual(checkBeforeRevert({ before: bytes('old\n'), after: written }, contentDigest(bytes('old\n'))), { kind: 'alreadyRestored' });
    assert.deepEqual(checkBeforeRevert({ before: undefined, after: written }, null), { kind: 'alreadyRestored' }, 'a created file already gone');
  });
  it('says why a file is asked about', () => {
    const other = contentDigest(bytes('user typed\n'));
    assert.match(reason(checkBeforeRevert({ before: bytes('old\n'), after: written }, other)), /changed after the run/u);
    assert.match(reason(checkBeforeRevert({ before: undefined, after: written }, other)), /created it, and it was changed/u);
    assert.match(reason(checkBeforeRevert({ before: bytes('old\n'), after: null }, other)), /deleted it, and it exists again/u);
    assert.match(reason(checkBeforeRevert({ before: bytes('old\n'), after: written }, null)), /deleted after the run/u);
  });
  it('reads CRLF as LF (an editor may keep its own line endings)', () => {
    assert.equal(contentDigest(bytes('a\r\nb\r\n')), contentDigest(bytes('a\nb\n')));
    assert.notEqual(contentDigest(bytes('a\nb\n')), contentDigest(bytes('a\nc\n')));
  });
});

function reason(check: ReturnType<typeof checkBeforeRevert>): string {
  return check.kind === 'changed' ? check.reason : `(${check.kind})`;
}

describe('edit journal revert', () => {
  let kit: Kit;
  let root: string;
  let asked: RevertConflict[];
  const confirmWith = (answer: boolean) => async (conflict: RevertConflict) => {
    asked.push(conflict);
    return answer;
  };
  const file = (relative: string) => path.join(root, relative);
  const read = (relative: string) => readFileSync(file(relative), 'utf8');

  beforeEach(() => {
    kit = makeKit();
    root = realpathSync(kit.root);
    asked = [];
    mkdirSync(file('src'));
    writeFileSync(file('src/app.ts'), 'const a = 1;\n');
    writeFileSync(file('keep.txt'), 'keep\n');
  });
  afterEach(() => kit.dispose());

  async function runEdits(runId = 'run-1'): Promise<void> {
    assert.match((await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: '1', newText: '2' }] }, runId)).text, /^Edited/u);
    assert.match((await kit.run('write_file', { path: 'new/made.txt', content: 'made\n' }, runId)).text, /^Created/u);
    assert.match((await kit.run('delete_file', { path: 'keep.txt' }, runId)).text, /^Deleted/u);
  }

  it('a stored journal, read back into a fresh journal (a reload), restores every file without asking', async () => {
    writeFileSync(file('blob.bin'), Buffer.from([0, 1, 2, 255]));
    await runEdits();
    await kit.run('delete_file', { path: 'blob.bin' });
    const stored = JSON.parse(JSON.stringify(kit.journal.snapshot('run-1'))) as unknown;
    const snapshot = parseJournalSnapshot(stored);
    assert.ok(snapshot, 'the stored form parses');
    assert.equal(snapshot.files.length, 4);

    const fresh = new EditJournal(kit.host);
    fresh.adopt('run-1', snapshot);
    const outcome = await fresh.revertRun('run-1', { confirm: confirmWith(true) });
    assert.deepEqual(asked, []);
    assert.deepEqual(outcome.skipped, []);
    assert.deepEqual(outcome.failed, []);
    assert.equal(read('src/app.ts'), 'const a = 1;\n');
    assert.equal(existsSync(file('new')), false, 'the created file and its folder are gone');
    assert.equal(read('keep.txt'), 'keep\n');
    assert.deepEqual([...readFileSync(file('blob.bin'))], [0, 1, 2, 255]);
    assert.equal(fresh.hasEdits('run-1'), false);
  });

  it('a deleted executable comes back executable, also from a stored journal', async () => {
    writeFileSync(file('run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    chmodSync(file('run.sh'), 0o755);
    assert.match((await kit.run('delete_file', { path: 'run.sh' })).text, /^Deleted/u);
    const snapshot = parseJournalSnapshot(JSON.parse(JSON.stringify(kit.journal.snapshot('run-1'))) as unknown);
    assert.ok(snapshot);
    assert.equal(snapshot.files[0]?.mode, 0o755);
    const fresh = new EditJournal(kit.host);
    fresh.adopt('run-1', snapshot);
    await fresh.revertRun('run-1');
    assert.equal(read('run.sh'), '#!/bin/sh\necho hi\n');
    assert.equal(statSync(file('run.sh')).mode & 0o777, 0o755);
  });

  it('a file changed after the run is asked about: Skip keeps the change, the others are restored', async () => {
    await runEdits();
    writeFileSync(file('src/app.ts'), 'const a = 2; // mine\n');
    const outcome = await kit.journal.revertRun('run-1', { confirm: confirmWith(false) });
    assert.deepEqual(
      asked.map((conflict) => [path.relative(root, conflict.path), conflict.deletes]),
      [['src/app.ts', false]],
    );
    assert.match(asked[0]!.reason, /changed after the run/u);
    assert.deepEqual(outcome.skipped, [file('src/app.ts')]);
    assert.equal(read('src/app.ts'), 'const a = 2; // mine\n', 'kept');
    assert.equal(read('keep.txt'), 'keep\n');
    assert.equal(existsSync(file('new/made.txt')), false);
    // The folder the run created is no file: the notice names it apart.
    assert.deepEqual([...outcome.restored].sort(), [file('keep.txt'), file('new/made.txt')]);
    assert.deepEqual(outcome.removedFolders, [file('new')]);
    assert.equal(
      revertSummary(outcome, (absolute) => path.relative(root, absolute)),
      `Reverted 2 files changed by that run: ${outcome.restored.map((absolute) => path.relative(root, absolute)).join(', ')}. ` +
        'Removed the folder it created: new. Kept 1 file changed after the run: src/app.ts.',
    );
  });

  it('Restore anyway puts it back', async () => {
    await runEdits();
    writeFileSync(file('src/app.ts'), 'const a = 2; // mine\n');
    const outcome = await kit.journal.revertRun('run-1', { confirm: confirmWith(true) });
    assert.equal(asked.length, 1);
    assert.ok(outcome.restored.includes(file('src/app.ts')));
    assert.equal(read('src/app.ts'), 'const a = 1;\n');
  });

  it('without a way to ask, a changed file is kept', async () => {
    await runEdits();
    writeFileSync(file('src/app.ts'), 'mine\n');
    const outcome = await kit.journal.revertRun('run-1');
    assert.deepEqual(outcome.skipped, [file('src/app.ts')]);
    assert.equal(read('src/app.ts'), 'mine\n');
  });

  it('a created file is deleted only when unchanged; a deleted file that came back is asked about', async () => {
    await runEdits();
    writeFileSync(file('new/made.txt'), 'made\nplus my notes\n');
    writeFileSync(file('keep.txt'), 'a new keep\n');
    const outcome = await kit.journal.revertRun('run-1', { confirm: confirmWith(false) });
    assert.deepEqual(
      asked.map((conflict) => [path.relative(root, conflict.path), conflict.deletes]).sort(),
      [
        ['keep.txt', false],
        ['new/made.txt', true],
      ],
    );
    assert.match(asked.find((conflict) => conflict.deletes)!.reason, /created it/u);
    assert.equal(read('new/made.txt'), 'made\nplus my notes\n');
    assert.equal(read('keep.txt'), 'a new keep\n');
    assert.equal(read('src/app.ts'), 'const a = 1;\n');
    assert.equal(outcome.skipped.length, 2);
  });

  it("an editor's unsaved text counts as the file's content", async () => {
    const unsaved = new Map<string, string>();
    kit.dispose();
    kit = makeKit({ openDocuments: unsaved });
    root = realpathSync(kit.root);
    mkdirSync(file('src'));
    writeFileSync(file('src/app.ts'), 'const a = 1;\n');
    await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: '1', newText: '2' }] });
    unsaved.set(file('src/app.ts'), 'const a = 2; // typed, not saved\n');
    await kit.journal.revertRun('run-1', { confirm: confirmWith(false) });
    assert.equal(asked.length, 1, 'the disk holds what the run wrote, but the editor does not');
    assert.equal(read('src/app.ts'), 'const a = 2;\n');
  });

  it('several changes of one file: the first before and the last after count', async () => {
    await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: '1', newText: '2' }] });
    await kit.run('write_file', { path: 'src/app.ts', content: 'second\n' });
    writeFileSync(file('src/app.ts'), 'second\r\n');
    await kit.journal.revertRun('run-1', { confirm: confirmWith(false) });
    assert.deepEqual(asked, [], 'only the line endings differ from what the run wrote');
    assert.equal(read('src/app.ts'), 'const a = 1;\n');
  });

  it('a file whose restore failed stays recorded, and the next revert restores it', async () => {
    await kit.run('edit_file', { path: 'src/app.ts', edits: [{ oldText: '1', newText: '2' }] });
    await kit.run('write_file', { path: 'new.txt', content: 'created\n' });
    // The same workspace through a host whose first write fails (as on a read-only file).
    let failures = 1;
    const flaky = Object.create(kit.host) as typeof kit.host;
    flaky.writeFile = async (target, content, signal) => {
      if (failures-- > 0) throw new Error('EACCES: permission denied');
      return kit.host.writeFile(target, content, signal);
    };
    const journal = new EditJournal(flaky);
    journal.adopt('run-1', kit.journal.snapshot('run-1')!);

    const first = await journal.revertRun('run-1');
    assert.deepEqual(first.restored, [file('new.txt')], 'the created file was deleted');
    assert.deepEqual(first.failed.map((failure) => failure.path), [file('src/app.ts')]);
    assert.equal(read('src/app.ts'), 'const a = 2;\n');
    assert.deepEqual(journal.touchedFiles('run-1'), [file('src/app.ts')], 'only the failed file is left to revert');
    assert.deepEqual(journal.snapshot('run-1')?.files.map((entry) => entry.path), [file('src/app.ts')], 'and it is what gets stored');

    const second = await journal.revertRun('run-1');
    assert.deepEqual(second.restored, [file('src/app.ts')]);
    assert.equal(read('src/app.ts'), 'const a = 1;\n');
    assert.equal(journal.hasEdits('run-1'), false, 'nothing left once all is restored');
  });

  it('a stored path outside the open folders is not touched', async () => {
    const outside = makeKit();
    try {
      const target = path.join(realpathSync(outside.root), 'elsewhere.txt');
      writeFileSync(target, 'theirs\n');
      kit.journal.adopt('run-x', { version: 1, files: [{ path: target, before: null, after: contentDigest(bytes('theirs\n')) }], createdDirectories: [] });
      const outcome = await kit.journal.revertRun('run-x', { confirm: confirmWith(true) });
      assert.equal(outcome.failed.length, 1);
      assert.match(outcome.failed[0]!.reason, /not inside an open workspace folder/u);
      assert.equal(readFileSync(target, 'utf8'), 'theirs\n');
    } finally {
      outside.dispose();
    }
  });

  it('a damaged or foreign stored journal is refused', () => {
    assert.equal(parseJournalSnapshot(undefined), undefined);
    assert.equal(parseJournalSnapshot({ version: 2, files: [], createdDirectories: [] }), undefined);
    assert.equal(parseJournalSnapshot({ version: 1, files: [{ path: 'relative.txt', before: null, after: null }], createdDirectories: [] }), undefined);
    assert.equal(parseJournalSnapshot({ version: 1, files: [{ path: '/a.txt', before: null, after: 'not a digest' }], createdDirectories: [] }), undefined);
    assert.ok(parseJournalSnapshot({ version: 1, files: [{ path: '/a.txt', before: 'AA==', after: null }], createdDirectories: ['/d'] }));
  });

  it('a journal this window still holds wins over a stored one', async () => {
    await kit.run('write_file', { path: 'src/app.ts', content: 'mine\n' });
    kit.journal.adopt('run-1', { version: 1, files: [], createdDirectories: [] });
    assert.deepEqual(kit.journal.touchedFiles('run-1'), [file('src/app.ts')]);
  });
});
