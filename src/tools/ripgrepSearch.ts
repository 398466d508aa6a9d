// Runs ripgrep over workspace folders and reads its output as bytes: every
// matching line is counted, only the first hits are decoded.

import { spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CancelledError, ToolError } from '../common/errors';
import { TANDEM_IGNORE_FILE } from './ignoreRules';
import {
  MAX_SEARCH_FILE_BYTES,
  snippetAt,
  type FolderSearchTarget,
  type TextSearchHit,
  type TextSearchOutcome,
  type TextSearchQuery,
} from './textSearchQuery';

const NEWLINE = 0x0a;
const NUL = 0x00;
const COLON = 0x3a;
/** ripgrep's preview of a line longer than --max-columns ends with one of these. */
const PREVIEW_END = / \[\.\.\. (?:\d+ more match(?:es)?|omitted end of long line)\]$/u;
/** A match this far into a cut line is read from its file (its snippet needs what follows it). */
const MATCH_TAIL_BYTES = 80;

/** A kept hit whose match lies past ripgrep's preview of its line. */
interface HitBeyondPreview {
  readonly index: number;
  readonly file: string;
  readonly line: number;
  readonly byteColumn: number;
}

/** The arguments, without the ignore file; shared with the benchmark so both run the same search. */
export function ripgrepArguments(query: TextSearchQuery): string[] {
  const args = [
    '--no-config',
    '--no-heading',
    '--with-filename',
    '--line-number',
    '--column',
    '--null',
    '--color=never',
    '--no-messages',
    '--hidden',
    '--no-require-git',
    // Only the folder's own ignore files count, as in the JavaScript fallback.
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    `--max-filesize=${MAX_SEARCH_FILE_BYTES}`,
    '--max-columns=400',
    '--max-columns-preview',
    '--glob=!.git',
  ];
  args.push(query.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (!query.isRegexp) args.push('--fixed-strings');
  for (const glob of query.include) args.push(`--glob=${glob}`);
  for (const glob of query.exclude) args.push(`--glob=!${glob}`);
  return args;
}

export async function ripgrepSearch(
  rgPath: string,
  targets: readonly FolderSearchTarget[],
  query: TextSearchQuery,
  signal: AbortSignal,
): Promise<TextSearchOutcome> {
  const hits: TextSearchHit[] = [];
  let total = 0;
  let files = 0;
  // Folders run one after another: ripgrep already uses every core.
  for (const target of targets) {
    const args = ripgrepArguments(query);
    const tandemIgnore = path.join(target.folder.real, TANDEM_IGNORE_FILE);
    if (await exists(tandemIgnore)) args.push(`--ignore-file=${tandemIgnore}`);
    args.push('--regexp', query.pattern, '--', '.');
    const counts = await runOne(rgPath, args, target, query.maxHits - hits.length, hits, signal);
    total += counts.lines;
    files += counts.files;
  }
  return { hits, total, files, engine: 'ripgrep' };
}

function runOne(
  rgPath: string,
  args: readonly string[],
  target: FolderSearchTarget,
  keep: number,
  hits: TextSearchHit[],
  signal: AbortSignal,
): Promise<{ lines: number; files: number }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new CancelledError());
      return;
    }
    const child = spawn(rgPath, args, { cwd: target.folder.real, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let files = 0;
    let previousPath: Buffer | undefined;
    let carry: Buffer | undefined;
    let stderr = '';
    let left = keep;
    const beyondPreview: HitBeyondPreview[] = [];

    const takeLine = (buffer: Buffer, start: number, end: number): void => {
      const nul = buffer.indexOf(NUL, start);
      if (nul < 0 || nul >= end) return; // Not a match line (ripgrep prints nothing else with these flags).
      lines += 1;
      if (previousPath === undefined || previousPath.compare(buffer, start, nul) !== 0) {
        files += 1;
        previousPath = Buffer.from(buffer.subarray(start, nul));
      }
      if (left <= 0) return;
      const colon = buffer.indexOf(COLON, nul + 1);
      const columnEnd = colon < 0 ? -1 : buffer.indexOf(COLON, colon + 1);
      if (colon < 0 || columnEnd < 0 || columnEnd >= end) return;
      left -= 1;
      let file = buffer.toString('utf8', start, nul);
      if (file.startsWith('./')) file = file.slice(2);
      const line = Number(buffer.toString('latin1', nul + 1, colon));
      // The column is the first match's byte offset in the line, 1-based.
      const byteColumn = Math.max(0, Number(buffer.toString('latin1', colon + 1, columnEnd)) - 1);
      const textStart = columnEnd + 1;
      const printed = buffer.toString('utf8', textStart, end);
      const preview = PREVIEW_END.exec(printed);
      const shown = preview === null ? printed : printed.slice(0, preview.index);
      if (preview !== null && byteColumn + MATCH_TAIL_BYTES > Buffer.byteLength(shown)) {
        beyondPreview.push({ index: hits.length, file: path.join(target.folder.real, file), line, byteColumn });
      }
      const matchIndex = buffer.toString('utf8', textStart, Math.min(end, textStart + byteColumn)).length;
      hits.push({ path: target.prefix + file, line, text: snippetAt(shown, matchIndex, preview !== null) });
    };

    child.stdout.on('data', (chunk: Buffer) => {
      let buffer = chunk;
      if (carry !== undefined) {
        buffer = Buffer.concat([carry, chunk]);
        carry = undefined;
      }
      let start = 0;
      for (;;) {
        const newline = buffer.indexOf(NEWLINE, start);
        if (newline < 0) break;
        takeLine(buffer, start, newline);
        start = newline + 1;
      }
      if (start < buffer.length) carry = Buffer.from(buffer.subarray(start));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    const onAbort = (): void => {
      child.kill();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not run ripgrep (${rgPath}): ${error.message}`));
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) {
        reject(new CancelledError());
        return;
      }
      if (carry !== undefined) takeLine(carry, 0, carry.length);
      // 0 = matches, 1 = none; 2 = an error, which with matches is only an unreadable file.
      if (code === 0 || code === 1 || (code === 2 && lines > 0)) {
        void snippetsBeyondPreview(beyondPreview, hits).then(() => resolve({ lines, files }));
      } else reject(new ToolError(`ripgrep failed: ${stderr.trim() || `exit code ${String(code)}`}`));
    });
  });
}

/** Reads the few hits whose match ripgrep's line preview cut off from their files, for a snippet around the match. */
async function snippetsBeyondPreview(pending: readonly HitBeyondPreview[], hits: TextSearchHit[]): Promise<void> {
  const files = new Map<string, Promise<Buffer | undefined>>();
  for (const hit of pending) {
    if (!files.has(hit.file)) files.set(hit.file, readFile(hit.file).catch(() => undefined));
    const bytes = await files.get(hit.file);
    const text = bytes === undefined ? undefined : windowAround(bytes, hit.line, hit.byteColumn);
    const kept = hits[hit.index];
    if (text !== undefined && kept !== undefined) hits[hit.index] = { ...kept, text };
  }
}

/** The snippet around a byte column of a line, decoded from a window of the file (the file may have changed: then nothing). */
function windowAround(bytes: Buffer, line: number, byteColumn: number): string | undefined {
  let lineStart = 0;
  for (let at = 1; at < line; at += 1) {
    const newline = bytes.indexOf(NEWLINE, lineStart);
    if (newline < 0) return undefined;
    lineStart = newline + 1;
  }
  let lineEnd = bytes.indexOf(NEWLINE, lineStart);
  if (lineEnd < 0) lineEnd = bytes.length;
  const match = lineStart + byteColumn;
  if (match >= lineEnd) return undefined;
  // Enough bytes before the match for the snippet's lead whatever the encoding; a character cut at the edge is dropped.
  const from = Math.max(lineStart, match - 480);
  const to = Math.min(lineEnd, match + 2000);
  const before = bytes.toString('utf8', from, match).replace(/^\uFFFD+/u, '');
  const window = before + bytes.toString('utf8', match, to).replace(/\uFFFD+$/u, '');
  const snippet = snippetAt(window.replace(/\r$/u, ''), before.length, to < lineEnd);
  return from > lineStart && !snippet.startsWith('…') ? `…${snippet}` : snippet;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
