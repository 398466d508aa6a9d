// The message "Fix with Tandem" sends, from what VS Code reports: the
// problems on the lines of a code action's range, or at the active editor's
// cursor or selection (the palette), and those lines (fixPrompt.ts).
import * as vscode from 'vscode';
import { excerptLines, fixPrompt, type ProblemSeverity, type ReportedProblem } from './fixPrompt';
import { toolPathOf } from './workspaceFolderNames';

/**
 * The message for the problems on `range` of `uri` (from a code action), or
 * else at the active editor's selection or cursor; undefined, and the user
 * told why, when there is none.
 */
export async function fixRequest(uri?: unknown, range?: unknown): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  const target = uri instanceof vscode.Uri ? uri : editor?.document.uri;
  if (!target) {
    void vscode.window.showInformationMessage('Tandem: open a file with a problem first.');
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(target);
  const at = range instanceof vscode.Range ? range : editor && editor.document.uri.toString() === target.toString() ? fullLines(editor.selection) : undefined;
  const diagnostics = vscode.languages.getDiagnostics(target).filter((diagnostic) => at === undefined || diagnostic.range.intersection(at) !== undefined);
  if (diagnostics.length === 0) {
    void vscode.window.showInformationMessage('Tandem: VS Code reports no problem here.');
    return undefined;
  }
  const problems = diagnostics.map(reported);
  const { first, last } = excerptLines(problems, document.lineCount);
  const text = document.getText(new vscode.Range(first - 1, 0, last - 1, document.lineAt(last - 1).text.length));
  return fixPrompt(toolPathOf(document.uri), document.languageId, problems, { first, last, text });
}

/** The selection's whole lines: the cursor's line when nothing is selected. */
function fullLines(selection: vscode.Selection): vscode.Range {
  return new vscode.Range(selection.start.line, 0, selection.end.line, Number.MAX_SAFE_INTEGER);
}

const SEVERITIES: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function reported(diagnostic: vscode.Diagnostic): ReportedProblem {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    line: diagnostic.range.start.line + 1,
    severity: SEVERITIES[diagnostic.severity],
    source: diagnostic.source,
    code: code === undefined ? undefined : String(code),
    message: diagnostic.message,
  };
}
