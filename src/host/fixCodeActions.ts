// "Fix with Tandem" in the lightbulb of every problem VS Code reports
// (Ctrl+.): a quick fix that runs tandem.fixWithTandem on the problems'
// lines (fixRequest.ts). Registered with the host services, not at
// activation; it costs a length check per request, as VS Code asks on every
// cursor move.
import * as vscode from 'vscode';

export const FIX_COMMAND = 'tandem.fixWithTandem';

export class FixCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.diagnostics.length === 0) return [];
    // The diagnostics VS Code hands over are the ones at the cursor: fix those lines.
    const covered = context.diagnostics.reduce((union, diagnostic) => union.union(diagnostic.range), range);
    const action = new vscode.CodeAction(context.diagnostics.length === 1 ? 'Fix with Tandem' : `Fix ${context.diagnostics.length} problems with Tandem`, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [...context.diagnostics];
    action.command = { command: FIX_COMMAND, title: action.title, arguments: [document.uri, covered] };
    return [action];
  }
}
