// Exact-string replacement, the edit a model can state without line numbers.
// Each edit applies to the result of the previous one; any failure leaves the
// whole set unapplied and says which edit failed and why.
//
// Line ends are the one thing matched loosely: read_file shows every line end
// as '\n', so a '\n' in oldText matches '\r\n' too (a CRLF file, or a file
// with both), and the lines newText brings in take the line end of the place
// they go to. Everything else must match exactly; when it does not, and the
// text is there apart from whitespace, the failure shows the file's own text.
import { escapeRegExp } from '../common/escapeRegExp';

export interface ExactEdit {
  readonly oldText: string;
  readonly newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  readonly replaceAll?: boolean | undefined;
}

export type ExactEditsOutcome =
  | { readonly ok: true; readonly text: string; readonly replacements: number }
  | { readonly ok: false; readonly message: string };

/** The most of the file's own text quoted in a near-miss hint. */
const HINT_MAX_CHARS = 2000;

interface Match {
  readonly start: number;
  readonly end: number;
}

export function applyExactEdits(original: string, edits: readonly ExactEdit[]): ExactEditsOutcome {
  let text = original;
  let replacements = 0;
  for (const [index, edit] of edits.entries()) {
    const label = edits.length > 1 ? `edit ${index + 1} of ${edits.length}` : 'the edit';
    if (edit.oldText === '') return { ok: false, message: `${label}: oldText is empty; give the exact text to replace (use write_file for a new file).` };
    if (edit.oldText === edit.newText) return { ok: false, message: `${label}: oldText and newText are the same.` };
    const matches = findMatches(text, edit.oldText);
    if (matches.length === 0) return { ok: false, message: `${label}: oldText was not found. ${nearMiss(text, edit.oldText)}` };
    if (matches.length > 1 && edit.replaceAll !== true) {
      const lines = matches.slice(0, 10).map((match) => lineOf(text, match.start));
      return {
        ok: false,
        message: `${label}: oldText occurs ${matches.length} times (lines ${lines.join(', ')}${matches.length > 10 ? ', …' : ''}); include more surrounding text so it is unique, or set replaceAll.`,
      };
    }
    let out = '';
    let from = 0;
    for (const match of matches) {
      out += text.slice(from, match.start) + withLineEnds(edit.newText, lineEndAt(text, match));
      from = match.end;
    }
    text = out + text.slice(from);
    replacements += matches.length;
  }
  return { ok: true, text, replacements };
}

/** Where oldText occurs, not overlapping: as written, or else with each line end standing for either kind. */
function findMatches(text: string, oldText: string): Match[] {
  const exact: Match[] = [];
  // Text that starts with a line end takes the '\r' before it along, so a CRLF stays whole (or goes whole).
  const startsLine = oldText.startsWith('\n');
  for (let at = text.indexOf(oldText); at >= 0; at = text.indexOf(oldText, at + oldText.length)) {
    exact.push({ start: startsLine && at > 0 && text[at - 1] === '\r' ? at - 1 : at, end: at + oldText.length });
  }
  if (exact.length > 0 || !oldText.includes('\n')) return exact;
  const pattern = new RegExp(oldText.split(/\r?\n/u).map(escapeRegExp).join('\\r?\\n'), 'gu');
  return [...text.matchAll(pattern)].map((found) => ({ start: found.index, end: found.index + found[0].length }));
}

/** The line end where a match sits: its own first one, else the one ending its line, else the file's first. */
function lineEndAt(text: string, match: Match): '\r\n' | '\n' {
  const inside = text.indexOf('\n', match.start);
  const at = inside >= 0 ? inside : text.indexOf('\n');
  return at > 0 && text[at - 1] === '\r' ? '\r\n' : '\n';
}

function withLineEnds(newText: string, lineEnd: '\r\n' | '\n'): string {
  return newText.includes('\n') ? newText.replace(/\r?\n/gu, lineEnd) : newText;
}

/**
 * Why the model's text did not match, when it can be told: the lines that
 * match apart from whitespace (indentation, trailing spaces, tabs), quoted as
 * they are, so the next call can copy them.
 */
function nearMiss(text: string, oldText: string): string {
  const advice = 'Read the file again and copy the text exactly, including whitespace.';
  const wanted = trimmedLines(oldText);
  if (wanted.every((line) => line === '')) return advice;
  const lines = text.split('\n');
  const squeezed = lines.map((line) => line.replace(/\s+/gu, ' ').trim());
  const found: number[] = [];
  for (let first = 0; first + wanted.length <= lines.length && found.length < 2; first++) {
    if (wanted.every((line, offset) => squeezed[first + offset] === line)) found.push(first);
  }
  if (found.length === 0) return advice;
  const first = found[0]!;
  const quoted = lines
    .slice(first, first + wanted.length)
    .map((line) => line.replace(/\r$/u, ''))
    .join('\n');
  const where = wanted.length === 1 ? `line ${first + 1}` : `lines ${first + 1}-${first + wanted.length}`;
  const more = found.length > 1 ? ' (and elsewhere too: include more lines so it is unique)' : '';
  const shown = quoted.length > HINT_MAX_CHARS ? `${quoted.slice(0, HINT_MAX_CHARS)}\n[…]` : quoted;
  return `It differs only in whitespace from ${where}${more}, which read exactly:\n${shown}\nUse that text as oldText.`;
}

/** The lines of a text with runs of whitespace made one space and the ends trimmed; blank lines at either end dropped. */
function trimmedLines(text: string): string[] {
  const lines = text.split(/\r?\n/u).map((line) => line.replace(/\s+/gu, ' ').trim());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}


function lineOf(text: string, position: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < position; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}
