// Diagnostics from VS Code's language services for the tools. VS Code
// computes a file's diagnostics only while it is open in an editor (measured
// in code-server 4.100.3: a file changed on disk and never shown gets none),
// so `settled` shows the file as a preview without taking focus, then waits
// until the reports for it go quiet: each onDidChangeDiagnostics for the file
// restarts a short quiet timer, and a bound ends the wait either way.
import * as vscode from 'vscode';
import type { DiagnosticSeverity, DiagnosticsReport, DiagnosticsSource, FileDiagnostic } from '../tools/diagnostics';

/** Quiet time after the last report before the diagnostics count as settled. */
const QUIET_MS = 400;
/** The longest wait for a file's diagnostics. */
const BOUND_MS = 3000;
/** Languages VS Code itself has no diagnostics for: nothing to wait for (an edited README cost every edit 3 s). */
const NO_DIAGNOSTICS = new Set(['plaintext', 'log', 'ignore', 'properties', 'ini', 'csv', 'tsv', 'diff', 'git-commit', 'git-rebase']);

/** Markdown has diagnostics only when its link validation is on (off by default). */
function hasNoDiagnostics(languageId: string, uri: vscode.Uri): boolean {
  if (NO_DIAGNOSTICS.has(languageId)) return true;
  return languageId === 'markdown' && vscode.workspace.getConfiguration('markdown', uri).get<boolean>('validate.enabled') !== true;
}

export class VscodeDiagnostics implements DiagnosticsSource {
  constructor(private readonly log: (line: string) => void = () => undefined) {}

  settled(absolutePath: string, signal: AbortSignal, where?: { readonly line: number }): Promise<DiagnosticsReport> {
    const uri = vscode.Uri.file(absolutePath);
    const started = Date.now();
    return new Promise<DiagnosticsReport>((resolve) => {
      let finished = false;
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const finish = (settled: boolean) => {
        if (finished) return;
        finished = true;
        clearTimeout(quiet);
        clearTimeout(bound);
        listener.dispose();
        signal.removeEventListener('abort', onAbort);
        const diagnostics = diagnosticsOf(uri);
        this.log(`diagnostics of ${absolutePath}: ${diagnostics.length} after ${Date.now() - started} ms${settled ? '' : ' (not settled)'}`);
        resolve({ diagnostics, settled });
      };
      const onAbort = () => finish(false);
      // Listen before showing: a language service reports soon after the document opens.
      const listener = vscode.languages.onDidChangeDiagnostics((event) => {
        if (!event.uris.some((changed) => samePath(changed, uri))) return;
        clearTimeout(quiet);
        quiet = setTimeout(() => finish(true), QUIET_MS);
      });
      const bound = setTimeout(() => finish(false), BOUND_MS);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) return onAbort();
      void show(uri, where?.line).then(
        (languageId) => {
          if (languageId !== undefined && hasNoDiagnostics(languageId, uri)) finish(true);
        },
        () => finish(false),
      );
    });
  }

  current(under: readonly string[] | undefined): readonly FileDiagnostic[] {
    const roots = under?.map((root) => vscode.Uri.file(root).fsPath);
    const found: FileDiagnostic[] = [];
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
      if (uri.scheme !== 'file') continue;
      if (roots && !roots.some((root) => isUnder(root, uri.fsPath))) continue;
      for (const diagnostic of diagnostics) found.push(toFileDiagnostic(uri, diagnostic));
    }
    return found;
  }
}

/**
 * Shows the file unless an editor already shows it (the user's scroll stays
 * where they left it), at the edit's first changed line; returns its language.
 */
async function show(uri: vscode.Uri, line: number | undefined): Promise<string | undefined> {
  const visible = vscode.window.visibleTextEditors.find((editor) => samePath(editor.document.uri, uri));
  if (visible) return visible.document.languageId;
  const at = line === undefined ? undefined : new vscode.Position(Math.max(0, line - 1), 0);
  const editor = await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true, ...(at && { selection: new vscode.Range(at, at) }) });
  return editor.document.languageId;
}

function diagnosticsOf(uri: vscode.Uri): FileDiagnostic[] {
  return vscode.languages.getDiagnostics(uri).map((diagnostic) => toFileDiagnostic(uri, diagnostic));
}

function toFileDiagnostic(uri: vscode.Uri, diagnostic: vscode.Diagnostic): FileDiagnostic {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    path: uri.fsPath,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITY[diagnostic.severity],
    message: diagnostic.message,
    source: diagnostic.source,
    code: code === undefined ? undefined : String(code),
  };
}

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function samePath(left: vscode.Uri, right: vscode.Uri): boolean {
  return left.scheme === right.scheme && left.fsPath === right.fsPath;
}

function isUnder(root: string, file: string): boolean {
  const separator = root.endsWith('/') || root.endsWith('\\') ? '' : process.platform === 'win32' ? '\\' : '/';
  return file === root || file.startsWith(root + separator);
}
