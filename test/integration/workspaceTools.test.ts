// The workspace tools inside a real extension host (mocha BDD: describe/it):
// edits wait in VS Code's diff editor until approved or rejected through the
// commands, land through WorkspaceEdit (so undo works), and a run's edits
// revert. Needs only the `vscode` API and the host entry.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalCenter, PROPOSED_SCHEME } from '../../src/host/approvalCenter';
import { ripgrepCandidates } from '../../src/host/ripgrepLocator';
import { createWorkspaceToolsForVscode, type WorkspaceToolsForVscode } from '../../src/host/workspaceToolsEntry';
import type { ToolContext, ToolResult } from '../../src/tools/tool';
import { REJECTED_EDIT_TEXT } from '../../src/tools/workspaceToolSupport';

const subscriptions: { dispose(): unknown }[] = [];
let entry: WorkspaceToolsForVscode;
let folder: string;
let area: string;

function run(name: string, args: unknown, runId = 'it-run'): Promise<ToolResult> {
  const tool = entry.tools().find((candidate) => candidate.name === name);
  assert.ok(tool, `no tool ${name}`);
  const context: ToolContext = { runId, callId: `${name}-call`, signal: new AbortController().signal, approval: entry.approvalGateFor(runId, 'readOnly') };
  return tool.run(args, context);
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function proposedDiffTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSED_SCHEME);
}

/** Starts a tool call, waits for its diff, then decides with the command as the diff's title button does (it passes the proposed document). */
async function decideThroughDiff(call: Promise<ToolResult>, command: 'tandem.approveEdit' | 'tandem.rejectEdit'): Promise<ToolResult> {
  await waitFor('the proposed-change diff', () => proposedDiffTabs().length > 0 && (ApprovalCenter.current()?.pendingRequests().length ?? 0) > 0);
  const input = proposedDiffTabs()[0]!.input as vscode.TabInputTextDiff;
  assert.equal(await vscode.commands.executeCommand(command, input.modified), true, `${command} found no pending edit`);
  const result = await call;
  await waitFor('the diff to close', () => proposedDiffTabs().length === 0);
  return result;
}

function file(name: string): string {
  return path.join(area, name);
}

describe('workspace tools in the extension host', () => {
  before(async () => {
    // Tandem first, so its own registration of the commands wins and this copy shares it.
    await vscode.extensions.getExtension('tandem-dev.tandem')?.activate();
    const folders = vscode.workspace.workspaceFolders;
    assert.ok(folders && folders.length > 0, 'the suite needs an open folder');
    folder = folders[0]!.uri.fsPath;
    area = path.join(folder, 'tools-it');
    fs.rmSync(area, { recursive: true, force: true });
    fs.mkdirSync(area, { recursive: true });
    entry = createWorkspaceToolsForVscode({ subscriptions }, () => undefined);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const disposable of subscriptions.splice(0)) disposable.dispose();
    fs.rmSync(area, { recursive: true, force: true });
  });

  it('finds the rg that VS Code ships under its appRoot', () => {
    const rg = entry.host.ripgrepPath();
    assert.ok(rg, 'no rg found at all');
    assert.ok(ripgrepCandidates(vscode.env.appRoot).includes(rg), `rg ${rg} is not under appRoot ${vscode.env.appRoot}`);
  });

  it('an edit waits in the diff editor and lands only after Approve; undo reverts it', async () => {
    fs.writeFileSync(file('approve.ts'), 'export const answer = 41;\n');
    const document = await vscode.workspace.openTextDocument(file('approve.ts'));
    await vscode.window.showTextDocument(document);
    const call = run('edit_file', { path: 'tools-it/approve.ts', edits: [{ oldText: '41', newText: '42' }] });
    await waitFor('the diff', () => proposedDiffTabs().length > 0);
    assert.equal(fs.readFileSync(file('approve.ts'), 'utf8'), 'export const answer = 41;\n', 'nothing lands before approval');
    const result = await decideThroughDiff(call, 'tandem.approveEdit');
    // The applied edit carries the file's diagnostics (none here; tsserver may still be starting).
    assert.match(result.text, /^Edited tools-it\/approve\.ts: 1 replacement\.\n\n(VS Code reports no errors or warnings in|No errors or warnings reported for) tools-it\/approve\.ts/u);
    assert.equal(fs.readFileSync(file('approve.ts'), 'utf8'), 'export const answer = 42;\n');
    assert.equal(document.getText(), 'export const answer = 42;\n');

    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo', () => document.getText() === 'export const answer = 41;\n');
    await document.save();
  });

  it('a Markdown file (no language service by default) is not waited on after its edit', async () => {
    fs.writeFileSync(file('notes.md'), '# Notes\n\nold\n');
    const started = Date.now();
    const result = await decideThroughDiff(run('edit_file', { path: 'tools-it/notes.md', edits: [{ oldText: 'old', newText: 'new' }] }), 'tandem.approveEdit');
    assert.match(result.text, /^Edited tools-it\/notes\.md: 1 replacement\.\n\nVS Code reports no errors or warnings in tools-it\/notes\.md\.$/u);
    assert.ok(Date.now() - started < 10_000);
  });

  it('Reject leaves the file untouched and the rejection is the result', async () => {
    fs.writeFileSync(file('reject.ts'), 'keep me\n');
    const result = await decideThroughDiff(run('write_file', { path: 'tools-it/reject.ts', content: 'overwritten\n' }), 'tandem.rejectEdit');
    assert.equal(result.text, REJECTED_EDIT_TEXT);
    assert.equal(result.isError, undefined);
    assert.equal(fs.readFileSync(file('reject.ts'), 'utf8'), 'keep me\n');
  });

  it('Reject Edit with a Note from the diff: the decision carries the note, and the command finds nothing once decided', async () => {
    const center = ApprovalCenter.current();
    assert.ok(center, 'the approval center is up');
    fs.writeFileSync(file('noted.ts'), 'keep me too\n');
    const request = { kind: 'edit', toolName: 'write_file', path: file('noted.ts'), before: 'keep me too\n', after: 'overwritten\n' } as const;
    const decision = center.ask({ id: 'it-noted', request, alwaysAllowKey: undefined }, new AbortController().signal);
    await waitFor('the proposed-change diff', () => proposedDiffTabs().length > 0);
    const input = proposedDiffTabs()[0]!.input as vscode.TabInputTextDiff;
    assert.equal(await vscode.commands.executeCommand('tandem.rejectEditWithNote', input.modified, '  Keep the file as it is.  '), true);
    assert.deepEqual(await decision, { answer: 'rejected', note: 'Keep the file as it is.' });
    await waitFor('the diff to close', () => proposedDiffTabs().length === 0);
    assert.equal(fs.readFileSync(file('noted.ts'), 'utf8'), 'keep me too\n');
    assert.equal(await vscode.commands.executeCommand('tandem.rejectEditWithNote', input.modified, 'late'), false, 'nothing pending any more');
  });

  it('closing the diff without deciding rejects', async () => {
    fs.writeFileSync(file('closed.ts'), 'unchanged\n');
    const call = run('write_file', { path: 'tools-it/closed.ts', content: 'changed\n' });
    await waitFor('the diff', () => proposedDiffTabs().length > 0);
    await vscode.window.tabGroups.close(proposedDiffTabs());
    assert.equal((await call).text, REJECTED_EDIT_TEXT);
    assert.equal(fs.readFileSync(file('closed.ts'), 'utf8'), 'unchanged\n');
  });

  it('a multi-edit applies every edit in one approved change', async () => {
    fs.writeFileSync(file('multi.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const call = run('edit_file', {
      path: 'tools-it/multi.ts',
      edits: [
        { oldText: 'const a = 1;', newText: 'let a = 10;' },
        { oldText: 'const c = 3;', newText: 'let c = 30;' },
      ],
    });
    const result = await decideThroughDiff(call, 'tandem.approveEdit');
    assert.match(result.text, /^Edited tools-it\/multi\.ts: 2 replacements\.\n\n(VS Code reports no errors or warnings in|No errors or warnings reported for) tools-it\/multi\.ts/u);
    assert.equal(fs.readFileSync(file('multi.ts'), 'utf8'), 'let a = 10;\nconst b = 2;\nlet c = 30;\n');
  });

  it('read_file sees unsaved editor text, and does not call a file that is only open unsaved', async () => {
    fs.writeFileSync(file('dirty.ts'), 'saved\n');
    const document = await vscode.workspace.openTextDocument(file('dirty.ts'));
    const editor = await vscode.window.showTextDocument(document);
    const clean = await run('read_file', { path: 'tools-it/dirty.ts' });
    assert.doesNotMatch(clean.text, /unsaved/u);
    assert.match(clean.text, /\nsaved$/u);
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), 'unsaved '));
    const result = await run('read_file', { path: 'tools-it/dirty.ts' });
    assert.match(result.text, /from the editor with unsaved changes\)\nunsaved saved$/u);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('revertRun restores every file the run touched', async () => {
    fs.writeFileSync(file('changed.ts'), 'original\n');
    fs.writeFileSync(file('deleted.ts'), 'deleted but restored\n');
    const runId = 'it-revert';
    assert.match((await decideThroughDiff(run('write_file', { path: 'tools-it/changed.ts', content: 'changed\n' }, runId), 'tandem.approveEdit')).text, /^Replaced/u);
    assert.match((await decideThroughDiff(run('write_file', { path: 'tools-it/new/created.ts', content: 'new\n' }, runId), 'tandem.approveEdit')).text, /^Created/u);
    assert.match((await decideThroughDiff(run('delete_file', { path: 'tools-it/deleted.ts' }, runId), 'tandem.approveEdit')).text, /^Deleted/u);
    assert.equal(fs.existsSync(file('deleted.ts')), false);
    assert.deepEqual(entry.editedFiles(runId).length, 3);

    const outcome = await entry.revertRun(runId);
    assert.ok(outcome, 'the run has a record');
    assert.deepEqual(outcome.skipped, []);
    assert.ok(outcome.restored.length >= 3, `restored ${outcome.restored.join(', ')}`);
    assert.equal(fs.readFileSync(file('changed.ts'), 'utf8'), 'original\n');
    assert.equal(fs.existsSync(file('new/created.ts')), false);
    assert.equal(fs.existsSync(file('new')), false);
    assert.equal(fs.readFileSync(file('deleted.ts'), 'utf8'), 'deleted but restored\n');
    assert.deepEqual(entry.editedFiles(runId), []);
  });

  it('an edit to a document with unsaved changes lands in the editor and leaves it unsaved; so does its revert', async () => {
    // VS Code in a browser (code-server) saves after a delay by default; unsaved text must stay unsaved here.
    const files = vscode.workspace.getConfiguration('files');
    const autoSave = files.inspect('autoSave')?.globalValue;
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      await editUnsavedDocumentAndRevert();
    } finally {
      await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    }
  });

  async function editUnsavedDocumentAndRevert(): Promise<void> {
    fs.writeFileSync(file('unsaved.ts'), 'saved line\n');
    const document = await vscode.workspace.openTextDocument(file('unsaved.ts'));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), 'typed '));
    assert.equal(document.isDirty, true);
    const runId = 'it-unsaved';
    const call = run('edit_file', { path: 'tools-it/unsaved.ts', edits: [{ oldText: 'saved line', newText: 'saved and edited line' }] }, runId);
    assert.match((await decideThroughDiff(call, 'tandem.approveEdit')).text, /^Edited/u);
    assert.equal(document.getText(), 'typed saved and edited line\n');
    assert.equal(document.isDirty, true, 'the document stays unsaved');
    assert.equal(fs.readFileSync(file('unsaved.ts'), 'utf8'), 'saved line\n', 'the unsaved text is not written to disk');

    const outcome = await entry.revertRun(runId, entry.runEditsSnapshot(runId));
    assert.deepEqual(outcome?.skipped, []);
    assert.equal(document.getText(), 'typed saved line\n', "the user's unsaved text is back");
    assert.equal(document.isDirty, true);
    assert.equal(fs.readFileSync(file('unsaved.ts'), 'utf8'), 'saved line\n');
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  it('a run\'s stored journal reverts in a fresh journal (as after a reload)', async () => {
    fs.writeFileSync(file('stored.ts'), 'before\n');
    const runId = 'it-stored';
    assert.match((await decideThroughDiff(run('write_file', { path: 'tools-it/stored.ts', content: 'after\n' }, runId), 'tandem.approveEdit')).text, /^Replaced/u);
    const snapshot = entry.runEditsSnapshot(runId);
    assert.ok(snapshot);
    const fresh = createWorkspaceToolsForVscode({ subscriptions }, () => undefined);
    assert.equal(await fresh.revertRun(runId), undefined, 'without the stored journal there is nothing to revert');
    const outcome = await fresh.revertRun(runId, JSON.parse(JSON.stringify(snapshot)));
    assert.deepEqual(outcome?.restored, [fs.realpathSync(file('stored.ts'))]);
    assert.equal(fs.readFileSync(file('stored.ts'), 'utf8'), 'before\n');
  });

  it('decides only the request named exactly: by id or by its own diff, never the oldest by fallback', async function () {
    // Two diffs open at once plus the diagnostics wait after the approved write: more than mocha's 20 s on a busy
    // host. Plain text files, since this is about routing decisions, not about a language server starting.
    this.timeout(60_000);
    fs.writeFileSync(file('first.txt'), 'first\n');
    fs.writeFileSync(file('second.txt'), 'second\n');
    const first = run('write_file', { path: 'tools-it/first.txt', content: 'first changed\n' }, 'it-exact');
    await waitFor('the first request', () => (ApprovalCenter.current()?.pendingRequests().length ?? 0) === 1);
    const second = run('write_file', { path: 'tools-it/second.txt', content: 'second changed\n' }, 'it-exact');
    await waitFor('both requests', () => (ApprovalCenter.current()?.pendingRequests().length ?? 0) === 2);
    const center = ApprovalCenter.current()!;
    const [firstId, secondId] = center.pendingRequests().map((pending) => pending.id);
    assert.ok(firstId && secondId && firstId !== secondId);
    // Unknown targets decide nothing (the old code fell back to the oldest request).
    assert.equal(await vscode.commands.executeCommand('tandem.approveEdit', 'no-such-id'), false);
    assert.equal(await vscode.commands.executeCommand('tandem.approveEdit', vscode.Uri.file(file('first.txt'))), false);
    assert.equal(center.answer('no-such-id', 'approved'), false);
    assert.equal(center.answer(secondId, 'alwaysAllowed'), false, '"Always allow" only where it was offered');
    assert.equal(center.pendingRequests().length, 2);
    // The newer one, by id: the older stays pending and its file unchanged.
    assert.equal(center.answer(secondId, 'approved'), true);
    assert.match((await second).text, /^Replaced/u);
    assert.deepEqual(center.pendingRequests().map((pending) => pending.id), [firstId]);
    assert.equal(fs.readFileSync(file('first.txt'), 'utf8'), 'first\n');
    assert.equal(await vscode.commands.executeCommand('tandem.rejectEdit', firstId), true);
    assert.equal((await first).text, REJECTED_EDIT_TEXT);
    assert.equal(fs.readFileSync(file('first.txt'), 'utf8'), 'first\n');
    assert.equal(fs.readFileSync(file('second.txt'), 'utf8'), 'second changed\n');
    await waitFor('the diffs to close', () => proposedDiffTabs().length === 0);
  });

  it('searches with ripgrep and refuses paths outside the workspace', async () => {
    fs.writeFileSync(file('needle.txt'), 'a distinctive needle here\n');
    const found = await run('search_text', { query: 'distinctive needle' });
    assert.match(found.text, /tools-it\/needle\.txt:1: a distinctive needle here/u);
    const refused = await run('read_file', { path: '../outside.txt' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /Refused path/u);
  });
});
