// The message "Fix with Tandem" sends: the problems VS Code reports on some
// lines of a file, and those lines as they are now, so the agent starts from
// what the user sees (it can still read the file, edit it with approval and
// check the diagnostics again). No `vscode` here.

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface ReportedProblem {
  /** 1-based. */
  readonly line: number;
  readonly severity: ProblemSeverity;
  /** Who reports it ("ts", "eslint"), with its code ("2322"), when given. */
  readonly source?: string | undefined;
  readonly code?: string | undefined;
  readonly message: string;
}

/** Problems named in one message at most; more are counted. */
export const MAX_PROBLEMS = 10;
/** Lines shown around the problems, each side. */
export const CONTEXT_LINES = 3;
/** Lines of the file quoted at most. */
export const MAX_EXCERPT_LINES = 80;
/** Characters of one quoted line at most: a minified file's line can be the whole file. */
export const MAX_LINE_CHARS = 500;

/**
 * The 1-based lines to quote for `problems` in a document of `lineCount`
 * lines: a few around them, within the cap. A diagnostic can be stale (the
 * file got shorter since it was reported): its line counts as the file's
 * last, so the excerpt is the file's end, never an empty or backwards range.
 */
export function excerptLines(problems: readonly ReportedProblem[], lineCount: number): { first: number; last: number } {
  const end = Math.max(1, lineCount);
  const lines = problems.map((problem) => Math.min(Math.max(1, problem.line), end));
  const first = Math.max(1, Math.min(...lines) - CONTEXT_LINES);
  const last = Math.min(end, Math.max(...lines) + CONTEXT_LINES, first + MAX_EXCERPT_LINES - 1);
  return { first, last };
}

export function fixPrompt(relativePath: string, languageId: string, problems: readonly ReportedProblem[], excerpt: { first: number; last: number; text: string }): string {
  const shown = [...problems].sort((left, right) => left.line - right.line).slice(0, MAX_PROBLEMS);
  const list = shown.map((problem) => `- line ${problem.line}, ${problem.severity}${origin(problem)}: ${oneLine(problem.message)}`);
  if (problems.length > shown.length) list.push(`- and ${problems.length - shown.length} more on these lines`);
  const quoted = excerpt.text
    .split('\n')
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} … (${(line.length - MAX_LINE_CHARS).toLocaleString('en-US')} more characters on this line)` : line))
    .join('\n');
  const longest = Math.max(2, ...[...quoted.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const lines = excerpt.first === excerpt.last ? `Line ${excerpt.first}` : `Lines ${excerpt.first}-${excerpt.last}`;
  return [
    `Fix ${problems.length === 1 ? 'this problem' : 'these problems'} VS Code reports in ${relativePath}:`,
    list.join('\n'),
    `${lines} as they are now:\n\n${fence}${languageId}\n${quoted}\n${fence}`,
  ].join('\n\n');
}

function origin(problem: ReportedProblem): string {
  const parts = [problem.source, problem.code].filter((part): part is string => part !== undefined && part !== '');
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

/** A message on one line: some linters write several. */
function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/gu, ' ');
}
