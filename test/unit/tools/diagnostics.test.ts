// Diagnostics as the model reads them: formatting, counts, caps, the note an
// applied edit carries (and a rejected one does not), and get_diagnostics for
// a file, a folder and the workspace over a real folder with a scripted
// diagnostics source (ignored and outside files left out).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  countWords,
  diagnosticsListText,
  editDiagnosticsText,
  formatDiagnostic,
  type DiagnosticsReport,
  type DiagnosticsSource,
  type FileDiagnostic,
} from '../../../src/tools/diagnostics';
import { EditJournal } from '../../../src/tools/editJournal';
import { NodeWorkspaceHost } from '../../../src/tools/nodeWorkspaceHost';
import type { Tool, ToolContext } from '../../../src/tools/tool';
import { createWorkspaceTools } from '../../../src/tools/workspaceTools';
import { makeTempDir, ScriptedApproval } from './workspaceTestKit';
import { rmSync } from 'node:fs';

function diagnostic(file: string, line: number, severity: FileDiagnostic['severity'], message: string, extra: Partial<FileDiagnostic> = {}): FileDiagnostic {
  return { path: file, line, column: 3, severity, message, ...extra };
}

describe('diagnostics text', () => {
  it('one line per diagnostic with source and code, the message on one line', () => {
    const line = formatDiagnostic(diagnostic('/w/a.ts', 4, 'error', "Type 'string' is not\n  assignable to 'number'.", { source: 'ts', code: '2322' }), 'src/a.ts');
    assert.equal(line, "src/a.ts:4:3 error [ts 2322]: Type 'string' is not assignable to 'number'.");
    assert.equal(formatDiagnostic(diagnostic('/w/b.json', 1, 'warning', 'Incorrect type.'), 'b.json'), 'b.json:1:3 warning: Incorrect type.');
  });

  it('counts in words', () => {
    assert.equal(countWords([diagnostic('/a', 1, 'error', 'x')]), '1 error');
    assert.equal(countWords([diagnostic('/a', 1, 'error', 'x'), diagnostic('/a', 2, 'error', 'y'), diagnostic('/a', 3, 'warning', 'z')]), '2 errors and 1 warning');
    assert.equal(countWords([diagnostic('/a', 1, 'hint', 'x'), diagnostic('/a', 1, 'information', 'x'), diagnostic('/a', 1, 'warning', 'x')]), '1 warning, 1 info and 1 hint');
  });

  it("an edit's note: errors and warnings only, errors first, capped, honest about an unsettled wait", () => {
    const report: DiagnosticsReport = {
      settled: true,
      diagnostics: [
        diagnostic('/w/a.ts', 9, 'warning', 'unused'),
        diagnostic('/w/a.ts', 2, 'error', 'bad type'),
        diagnostic('/w/a.ts', 1, 'hint', 'could be const'),
      ],
    };
    assert.equal(editDiagnosticsText('a.ts', report), ['VS Code reports 1 error and 1 warning in a.ts after this change:', '- a.ts:2:3 error: bad type', '- a.ts:9:3 warning: unused'].join('\n'));
    assert.equal(editDiagnosticsText('a.ts', { settled: true, diagnostics: [report.diagnostics[2]!] }), 'VS Code reports no errors or warnings in a.ts.');
    assert.match(editDiagnosticsText('a.ts', { settled: false, diagnostics: [] }), /^No errors or warnings reported for a\.ts yet: no language service finished checking it within the wait, so some may still come\. Call get_diagnostics for a\.ts to check again\.$/);
    const many = { settled: true, diagnostics: Array.from({ length: 25 }, (_, index) => diagnostic('/w/a.ts', index + 1, 'error', `e${index}`)) };
    const text = editDiagnosticsText('a.ts', many);
    assert.equal(text.split('\n').length, 1 + 20 + 1);
    assert.match(text, /- \.\.\. 5 more not shown \(get_diagnostics lists them\)$/);
  });

  it('a listing filters by the least severe level and caps the lines', () => {
    const entries = [
      { diagnostic: diagnostic('/w/b.ts', 1, 'warning', 'w1'), shown: 'b.ts' },
      { diagnostic: diagnostic('/w/a.ts', 5, 'error', 'e1'), shown: 'a.ts' },
      { diagnostic: diagnostic('/w/a.ts', 7, 'information', 'i1'), shown: 'a.ts' },
    ];
    assert.equal(
      diagnosticsListText(entries, { scope: 'the workspace', minSeverity: 'warning', limit: 100 }),
      ['1 error and 1 warning in 2 files (the workspace; errors and warnings):', 'a.ts:5:3 error: e1', 'b.ts:1:3 warning: w1'].join('\n'),
    );
    assert.equal(diagnosticsListText(entries, { scope: 'a.ts', minSeverity: 'error', limit: 100 }), ['1 error in 1 file (a.ts; errors):', 'a.ts:5:3 error: e1'].join('\n'));
    assert.match(diagnosticsListText(entries, { scope: 'x', minSeverity: 'hint', limit: 1 }), /\n\.\.\. 2 more not shown; ask for a narrower path or severity\.$/);
    assert.equal(diagnosticsListText([], { scope: 'src/', minSeverity: 'warning', limit: 10 }), 'No errors and warnings reported for src/.');
  });
});

/** A diagnostics source scripted per file; records which files were asked to settle. */
class ScriptedDiagnostics implements DiagnosticsSource {
  readonly settledFor: string[] = [];
  /** The line each settle asked the file to be shown at. */
  readonly shownAt: (number | undefined)[] = [];
  constructor(private readonly all: FileDiagnostic[]) {}
  async settled(absolutePath: string, _signal: AbortSignal, where?: { readonly line: number }): Promise<DiagnosticsReport> {
    this.settledFor.push(absolutePath);
    this.shownAt.push(where?.line);
    return { settled: true, diagnostics: this.all.filter((entry) => entry.path === absolutePath) };
  }
  current(under: readonly string[] | undefined): readonly FileDiagnostic[] {
    return this.all.filter((entry) => !under || under.some((root) => entry.path === root || entry.path.startsWith(`${root}${path.sep}`)));
  }
}

describe('diagnostics in the tools', () => {
  let root: string;
  let tools: readonly Tool[];
  let source: ScriptedDiagnostics;
  let approval: ScriptedApproval;
  const run = (name: string, args: unknown) => {
    const tool = tools.find((candidate) => candidate.name === name)!;
    const context: ToolContext = { runId: 'r1', callId: 'c1', signal: new AbortController().signal, approval };
    return tool.run(args, context);
  };

  beforeEach(() => {
    root = makeTempDir('tandem-diagnostics-');
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'secret'));
    writeFileSync(path.join(root, '.gitignore'), 'secret/\n');
    writeFileSync(path.join(root, 'src', 'a.ts'), 'const n: number = 1;\n');
    writeFileSync(path.join(root, 'b.json'), '{}\n');
    writeFileSync(path.join(root, 'secret', 'key.ts'), 'export const key = "k";\n');
    source = new ScriptedDiagnostics([
      diagnostic(path.join(root, 'src', 'a.ts'), 1, 'error', "Type 'string' is not assignable to type 'number'.", { source: 'ts', code: '2322' }),
      diagnostic(path.join(root, 'b.json'), 1, 'warning', 'Missing property "name".', { source: 'json' }),
      diagnostic(path.join(root, 'secret', 'key.ts'), 1, 'error', 'SECRET-IN-IGNORED'),
      diagnostic('/elsewhere/x.ts', 1, 'error', 'OUTSIDE'),
    ]);
    const host = new NodeWorkspaceHost({ folders: [root] });
    tools = createWorkspaceTools(host, new EditJournal(host), source);
    approval = new ScriptedApproval(true);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('an applied edit carries the settled diagnostics of its file', async () => {
    const result = await run('edit_file', { path: 'src/a.ts', edits: [{ oldText: '= 1', newText: "= 'one'" }] });
    assert.equal(result.isError, undefined);
    assert.match(result.text, /^Edited src\/a\.ts: 1 replacement\.\n\nVS Code reports 1 error in src\/a\.ts after this change:\n- src\/a\.ts:1:3 error \[ts 2322\]: Type 'string'/);
    assert.deepEqual(source.settledFor, [path.join(root, 'src', 'a.ts')]);
    const created = await run('write_file', { path: 'src/new.ts', content: 'export {};\n' });
    assert.match(created.text, /^Created src\/new\.ts \(1 line\)\.\n\nVS Code reports no errors or warnings in src\/new\.ts\.$/);
    writeFileSync(path.join(root, 'src', 'long.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n');
    await run('edit_file', { path: 'src/long.ts', edits: [{ oldText: 'c = 3', newText: 'c = 30' }] });
    await run('write_file', { path: 'src/long.ts', content: 'const a = 1;\nconst b = 2;\nconst c = 30;\nconst d = 40;\n' });
    // The file is shown where the change begins, not at its top.
    assert.deepEqual(source.shownAt, [1, 1, 3, 4]);
  });

  it('a rejected edit asks for no diagnostics', async () => {
    approval.answer = false;
    const result = await run('write_file', { path: 'b.json', content: '{"x": 1}\n' });
    assert.doesNotMatch(result.text, /VS Code reports/);
    assert.deepEqual(source.settledFor, []);
  });

  it('get_diagnostics is read-only and answers for a file, a folder and the workspace, leaving out ignored and outside files', async () => {
    const tool = tools.find((candidate) => candidate.name === 'get_diagnostics')!;
    assert.equal(tool.readOnly, true);
    const file = await run('get_diagnostics', { path: 'src/a.ts' });
    assert.match(file.text, /^1 error in 1 file \(src\/a\.ts; errors and warnings\):\nsrc\/a\.ts:1:3 error \[ts 2322\]/);
    assert.deepEqual(source.settledFor, [path.join(root, 'src', 'a.ts')], 'a single file is shown and settled');
    const folder = await run('get_diagnostics', { path: 'src' });
    assert.match(folder.text, /^1 error in 1 file \(src\/; errors and warnings\):/);
    const workspace = await run('get_diagnostics', {});
    assert.equal(workspace.text, ['1 error and 1 warning in 2 files (the workspace; errors and warnings):', "src/a.ts:1:3 error [ts 2322]: Type 'string' is not assignable to type 'number'.", 'b.json:1:3 warning [json]: Missing property "name".'].join('\n'));
    const errorsOnly = await run('get_diagnostics', { severity: 'error' });
    assert.doesNotMatch(errorsOnly.text, /b\.json/);
    // A .gitignore'd path is asked about each time, like a read: declined, nothing about it is told.
    approval.answer = false;
    const declined = await run('get_diagnostics', { path: 'secret/key.ts' });
    assert.equal(declined.text, 'The user did not allow reading secret/key.ts (excluded by .gitignore); it was not read.');
    assert.equal(approval.asked.length, 1);
    approval.answer = true;
    const allowedFile = await run('get_diagnostics', { path: 'secret/key.ts' });
    assert.match(allowedFile.text, /secret\/key\.ts:1:3 error: SECRET-IN-IGNORED/);
    const allowedFolder = await run('get_diagnostics', { path: 'secret' });
    assert.match(allowedFolder.text, /^1 error in 1 file \(secret\/; errors and warnings\):\nsecret\/key\.ts:1:3 error: SECRET-IN-IGNORED/);
    assert.equal(approval.asked.length, 3, 'asked for each');
    assert.doesNotMatch((await run('get_diagnostics', {})).text, /SECRET/, 'the whole workspace still leaves ignored files out');
    const outside = await run('get_diagnostics', { path: '/elsewhere/x.ts' });
    assert.equal(outside.isError, true);
    const missing = await run('get_diagnostics', { path: 'src/missing.ts' });
    assert.equal(missing.text, 'Error: src/missing.ts does not exist.');
    const bad = await run('get_diagnostics', { severity: 'fatal' });
    assert.equal(bad.isError, true);
  });

  it('without a diagnostics source (outside VS Code) there is no get_diagnostics and edits carry no note', async () => {
    const host = new NodeWorkspaceHost({ folders: [root] });
    const plain = createWorkspaceTools(host, new EditJournal(host));
    assert.equal(plain.some((tool) => tool.name === 'get_diagnostics'), false);
  });
});
