// Runs ripgrep over workspace folders and reads its output as bytes: every
// matching line is counted, and the first hits in path order are kept (ripgrep
// prints files in whatever order its threads finish them) and only those decoded.

import { spawn } from 'node:child_process';
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CancelledError, ToolError } from '../common/errors';
import { watchChild, type ChildTrouble } from './childWatch';
import { IgnoreRules, readIgnoreFile, TANDEM_IGNORE_FILE } from './ignoreRules';
import { includeGlobs, printedPathFilter, searchRoots, tandemExclusions } from './ripgrepScope';
import {
  folderCoveringGlobs,
  InvalidPatternError,
  MAX_SEARCH_FILE_BYTES,
  snippetAt,
  type FolderSearchTarget,
  type TextSearchHit,
  type TextSearchOutcome,
  type TextSearchQuery,
} from './textSearchQuery';
import { byteSize } from '../common/byteSize';

const NEWLINE = 0x0a;
const NUL = 0x00;
const COLON = 0x3a;
/** ripgrep's preview of a line longer than --max-columns ends with one of these. */
const PREVIEW_END = / \[\.\.\. (?:\d+ more match(?:es)?|omitted end of long line)\]$/u;
/** A match this far into a cut line is read from its file (its snippet needs what follows it). */
const MATCH_TAIL_BYTES = 80;

/** A match line kept so far, as ripgrep printed it. */
interface KeptLine {
  /** The path's bytes, './'-prefixed as ripgrep prints it. */
  readonly path: Buffer;
  readonly line: number;
  /** What follows the path's NUL: `line:column:text`. */
  readonly rest: Buffer;
}

/** A kept hit whose match lies past ripgrep's preview of its line. */
interface HitBeyondPreview {
  readonly index: number;
  readonly file: string;
  readonly line: number;
  readonly byteColumn: number;
}

/** The arguments, without .tandemignore; shared with the benchmark so both run the same search. */
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
    // The last glob a path matches decides: includes first, so that .git and the exclusions win over them.
    // An include outranks every ignore file, so what ripgrep prints under one is checked (ripgrepScope.ts).
    ...includeGlobs(query.include),
    '--glob=!.git',
  ];
  args.push(query.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (!query.isRegexp) args.push('--fixed-strings');
  for (const glob of folderCoveringGlobs(query.exclude)) args.push(`--glob=!${glob}`);
  return args;
}

export async function ripgrepSearch(
  rgPath: string,
  targets: readonly FolderSearchTarget[],
  query: TextSearchQuery,
  signal: AbortSignal,
): Promise<TextSearchOutcome> {
  const hits: TextSearchHit[] = [];
  const perFile = new Map<string, number>();
  let total = 0;
  let files = 0;
  // Folders run one after another (ripgrep already uses every core), and their hits follow in folder order.
  for (const target of targets) {
    const args = ripgrepArguments(query);
    const tandemIgnore = path.join(target.folder.real, TANDEM_IGNORE_FILE);
    const tandemText = await readIgnoreFile(tandemIgnore);
    const exclusions = tandemText === undefined ? [] : tandemExclusions(tandemText);
    if (exclusions === undefined) args.push(`--ignore-file=${tandemIgnore}`);
    else args.push(...exclusions);
    const rules = new IgnoreRules(target.folder.real);
    const roots = await searchRoots(target.folder.real, query.include, rules);
    if (roots.length === 0) continue; // Every include starts in a folder that is missing or ignored.
    args.push('--regexp', query.pattern, '--', ...roots.map((root) => (root === '' ? '.' : `./${root}`)));
    const tandem = await rules.tandem();
    const kept = printedPathFilter(target.folder.real, query, tandem, exclusions === undefined && tandem !== undefined);
    const counts = await runOne(rgPath, args, target, query, kept, hits, perFile, signal);
    total += counts.lines;
    files += counts.files;
  }
  return { hits, total, files, perFile, engine: 'ripgrep' };
}

function runOne(
  rgPath: string,
  args: readonly string[],
  target: FolderSearchTarget,
  query: TextSearchQuery,
  included: (printed: Buffer) => boolean,
  hits: TextSearchHit[],
  perFile: Map<string, number>,
  signal: AbortSignal,
): Promise<{ lines: number; files: number }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new CancelledError());
      return;
    }
    const child = spawn(rgPath, args, { cwd: target.folder.real, stdio: ['ignore', 'pipe', 'pipe'] });
    // A .gitignore linked to an endless file, or a FIFO: the search is then left to the JavaScript engine, which reads
    // only regular ignore files.
    let trouble: ChildTrouble | undefined;
    const unwatch = watchChild(child, (what) => {
      trouble = what;
    });
    let lines = 0;
    let files = 0;
    let previousPath: Buffer | undefined;
    let previousLines = 0;
    let carry: Buffer | undefined;
    let stderr = '';
    // The last path ripgrep printed, and whether it is kept (its lines come together).
    let seenPath: Buffer | undefined;
    let seenIncluded = true;
    let inBrokenPath = false;
    const keep = query.maxHits - hits.length;
    // The smallest (path, line) pairs so far, in order: a line past the last of a full list is dropped before anything is decoded.
    const kept: KeptLine[] = [];

    const countFile = (): void => {
      if (previousPath !== undefined) perFile.set(displayPath(target, previousPath), previousLines);
    };
    const takeLine = (buffer: Buffer, start: number, end: number): void => {
      const nul = buffer.indexOf(NUL, start);
      if (nul < 0 || nul >= end) {
        // With these flags ripgrep prints only match lines: a line without a NUL is the start of a path
        // that holds a newline. Such a match is left out (its path could not be told from another's).
        inBrokenPath = true;
        return;
      }
      if (inBrokenPath) {
        inBrokenPath = false;
        return;
      }
      if (seenPath === undefined || seenPath.compare(buffer, start, nul) !== 0) {
        seenPath = Buffer.from(buffer.subarray(start, nul));
        // A path that is not UTF-8 is left out: decoded, it names another file (which a snippet would then be read
        // from), it cannot be checked by name, and the JavaScript engine cannot read it either.
        // Nor is one with a control character, which no tool opens (the walker leaves both out too).
        seenIncluded = isUtf8(seenPath) && !hasControlByte(seenPath) && included(seenPath);
      }
      if (!seenIncluded) return;
      lines += 1;
      // ripgrep prints each file's lines together.
      if (previousPath === undefined || previousPath.compare(buffer, start, nul) !== 0) {
        countFile();
        files += 1;
        previousPath = Buffer.from(buffer.subarray(start, nul));
        previousLines = 0;
      }
      previousLines += 1;
      if (keep <= 0) return;
      const last = kept.length === keep ? kept[keep - 1]! : undefined;
      const order = last === undefined ? 1 : last.path.compare(buffer, start, nul);
      if (order < 0) return;
      const colon = buffer.indexOf(COLON, nul + 1);
      if (colon < 0 || colon >= end) return;
      const line = decimalAt(buffer, nul + 1, colon);
      if (order === 0 && line >= last!.line) return;
      const entry: KeptLine = { path: previousPath, line, rest: Buffer.from(buffer.subarray(nul + 1, end)) };
      kept.splice(insertionIndex(kept, entry), 0, entry);
      if (kept.length > keep) kept.pop();
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
      unwatch();
      signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not run ripgrep (${rgPath}): ${error.message}`));
    });
    child.on('close', (code) => {
      unwatch();
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) {
        reject(new CancelledError());
        return;
      }
      if (trouble !== undefined) {
        reject(
          new ToolError(
            trouble.kind === 'memory'
              ? `ripgrep was stopped at ${byteSize(trouble.residentBytes)} of memory (an ignore file it read has no end)`
              : `ripgrep was stopped after ${Math.round(trouble.idleMs / 1000)} s without progress (an ignore file it opened never answered)`,
          ),
        );
        return;
      }
      if (carry !== undefined) takeLine(carry, 0, carry.length);
      countFile();
      // 0 = matches, 1 = none; 2 = an error, which with matches is only an unreadable file.
      if (code === 0 || code === 1 || (code === 2 && lines > 0)) {
        const beyondPreview: HitBeyondPreview[] = [];
        for (const entry of kept) decodeKept(entry, target, hits, beyondPreview);
        void snippetsBeyondPreview(beyondPreview, hits).then(() => resolve({ lines, files }));
      } else if (/regex parse error/u.test(stderr)) {
        // The reason is on the last line: "error: unclosed group".
        const reason = /^error: (.+)$/mu.exec(stderr)?.[1] ?? stderr.trim();
        reject(new InvalidPatternError(query.pattern, reason, query.isRegexp));
      } else reject(new ToolError(`ripgrep failed: ${stderr.slice(0, 4000).trim() || `exit code ${String(code)}`}`));
    });
  });
}

function hasControlByte(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte < 0x20 || byte === 0x7f) return true;
  return false;
}

/** Where a line goes in the kept list: after every line of a smaller path, or of its path with a smaller number. */
function insertionIndex(kept: readonly KeptLine[], entry: KeptLine): number {
  let low = 0;
  let high = kept.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = kept[middle]!;
    const order = other.path.compare(entry.path) || other.line - entry.line;
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A decimal number from ASCII digits, without decoding them to a string. */
function decimalAt(buffer: Buffer, start: number, end: number): number {
  let value = 0;
  for (let at = start; at < end; at += 1) value = value * 10 + (buffer[at]! - 0x30);
  return value;
}

/** The path as the tools print paths: relative, '/' separators (ripgrep prints `.\src\a.ts` on Windows). */
function displayPath(target: FolderSearchTarget, pathBytes: Buffer): string {
  const file = pathBytes.toString('utf8').replace(/^\.[\\/]/u, '');
  return target.prefix + (path.sep === '\\' ? file.split('\\').join('/') : file);
}

/** Decodes a kept line into a hit; one whose match ripgrep's preview cut off is noted to be read from its file. */
function decodeKept(entry: KeptLine, target: FolderSearchTarget, hits: TextSearchHit[], beyondPreview: HitBeyondPreview[]): void {
  const { rest } = entry;
  const colon = rest.indexOf(COLON);
  const columnEnd = rest.indexOf(COLON, colon + 1);
  if (columnEnd < 0) return;
  const display = displayPath(target, entry.path);
  // The column is the first match's byte offset in the line, 1-based.
  const byteColumn = Math.max(0, Number(rest.toString('latin1', colon + 1, columnEnd)) - 1);
  const textStart = columnEnd + 1;
  const printed = rest.toString('utf8', textStart);
  const preview = PREVIEW_END.exec(printed);
  const shown = preview === null ? printed : printed.slice(0, preview.index);
  if (preview !== null && byteColumn + MATCH_TAIL_BYTES > Buffer.byteLength(shown)) {
    const file = display.slice(target.prefix.length);
    beyondPreview.push({ index: hits.length, file: path.join(target.folder.real, file), line: entry.line, byteColumn });
  }
  const matchIndex = rest.toString('utf8', textStart, Math.min(rest.length, textStart + byteColumn)).length;
  hits.push({ path: display, line: entry.line, text: snippetAt(shown, matchIndex, preview !== null) });
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
