// The errors and warnings a host's language services report, as the tools
// see them: a narrow interface the VS Code host implements (src/host), and
// the text the model reads. After an edit the model learns at once what it
// broke; `get_diagnostics` asks for a file, a folder or the workspace.

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

export const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'information', 'hint'];

export interface FileDiagnostic {
  /** Absolute path of the file. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  /** Who reported it, e.g. `ts`, `json`, `eslint`. */
  readonly source?: string | undefined;
  readonly code?: string | undefined;
}

export interface DiagnosticsReport {
  readonly diagnostics: readonly FileDiagnostic[];
  /** False when the bound ran out before the reports went quiet (or none came): they may still change. */
  readonly settled: boolean;
}

export interface DiagnosticsSource {
  /**
   * The diagnostics of one file once they settle: the host makes sure they
   * are computed (VS Code computes them only for a file shown in an editor),
   * waits until the reports go quiet, and gives up after a short bound.
   * `where`: the edit's first changed line (1-based), where a file it shows opens.
   */
  settled(absolutePath: string, signal: AbortSignal, where?: { readonly line: number }): Promise<DiagnosticsReport>;
  /** What is known now for files under these absolute paths (files or folders); everything when undefined. */
  current(under: readonly string[] | undefined): readonly FileDiagnostic[];
}

/** At most this many diagnostics go back with an edit's result. */
export const EDIT_DIAGNOSTICS_LIMIT = 20;

export function severityRank(severity: DiagnosticSeverity): number {
  return SEVERITIES.indexOf(severity);
}

/** Errors first, then by file, line and column. */
export function compareDiagnostics(a: FileDiagnostic, b: FileDiagnostic): number {
  return severityRank(a.severity) - severityRank(b.severity) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column;
}

export function sortDiagnostics(diagnostics: readonly FileDiagnostic[]): FileDiagnostic[] {
  return [...diagnostics].sort(compareDiagnostics);
}

/** One line: `path:line:col severity [source code]: message` (the message on one line). */
export function formatDiagnostic(diagnostic: FileDiagnostic, shownPath: string): string {
  const origin = [diagnostic.source, diagnostic.code].filter(Boolean).join(' ');
  const message = diagnostic.message.replace(/\s*\n\s*/g, ' ').trim();
  return `${shownPath}:${diagnostic.line}:${diagnostic.column} ${diagnostic.severity}${origin ? ` [${origin}]` : ''}: ${message}`;
}

/** "2 errors and 1 warning" */
export function countWords(diagnostics: readonly FileDiagnostic[]): string {
  const counts = SEVERITIES.map((severity) => [severity, diagnostics.filter((diagnostic) => diagnostic.severity === severity).length] as const).filter(([, count]) => count > 0);
  const words = counts.map(([severity, count]) => `${count} ${severity === 'information' ? 'info' : severity}${count === 1 || severity === 'information' ? '' : 's'}`);
  return words.length <= 1 ? (words[0] ?? 'nothing') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The note appended to an edit's result: the file's errors and warnings after the change. */
export function editDiagnosticsText(shownPath: string, report: DiagnosticsReport, limit = EDIT_DIAGNOSTICS_LIMIT): string {
  const relevant = sortDiagnostics(report.diagnostics.filter((diagnostic) => diagnostic.severity === 'error' || diagnostic.severity === 'warning'));
  const unsettled = report.settled ? '' : ' (no final report from a language service within the wait; this may be incomplete)';
  if (relevant.length === 0) {
    // Unsettled, an empty list says nothing yet (a language service still starting, say): it must not read as "no errors".
    return report.settled
      ? `VS Code reports no errors or warnings in ${shownPath}.`
      : `No errors or warnings reported for ${shownPath} yet: no language service finished checking it within the wait, so some may still come. Call get_diagnostics for ${shownPath} to check again.`;
  }
  const lines = relevant.slice(0, limit).map((diagnostic) => `- ${formatDiagnostic(diagnostic, shownPath)}`);
  if (relevant.length > limit) lines.push(`- ... ${relevant.length - limit} more not shown (get_diagnostics lists them)`);
  return [`VS Code reports ${countWords(relevant)} in ${shownPath} after this change${unsettled}:`, ...lines].join('\n');
}

export interface ShownDiagnostic {
  readonly diagnostic: FileDiagnostic;
  /** The path as the model knows it (workspace-relative). */
  readonly shown: string;
}

/** get_diagnostics' answer: a count, then one line each, errors first, capped. */
export function diagnosticsListText(entries: readonly ShownDiagnostic[], options: { readonly scope: string; readonly minSeverity: DiagnosticSeverity; readonly limit: number }): string {
  const floor = severityRank(options.minSeverity);
  const kept = entries.filter((entry) => severityRank(entry.diagnostic.severity) <= floor);
  const sorted = [...kept].sort((a, b) => compareDiagnostics(a.diagnostic, b.diagnostic));
  const levels = options.minSeverity === 'error' ? 'errors' : options.minSeverity === 'warning' ? 'errors and warnings' : options.minSeverity === 'information' ? 'errors, warnings and info' : 'all diagnostics';
  if (sorted.length === 0) return `No ${levels} reported for ${options.scope}.`;
  const files = new Set(sorted.map((entry) => entry.shown)).size;
  const lines = sorted.slice(0, options.limit).map((entry) => formatDiagnostic(entry.diagnostic, entry.shown));
  if (sorted.length > options.limit) lines.push(`... ${sorted.length - options.limit} more not shown; ask for a narrower path or severity.`);
  return [`${countWords(sorted.map((entry) => entry.diagnostic))} in ${files} file${files === 1 ? '' : 's'} (${options.scope}; ${levels}):`, ...lines].join('\n');
}
