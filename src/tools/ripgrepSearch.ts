// Runs ripgrep over workspace folders and reads its output as bytes: every
// matching line is counted, only the first hits are decoded.

import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import * as path from 'node:path';
import { CancelledError, ToolError } from '../common/errors';
import { TANDEM_IGNORE_FILE } from './ignoreRules';
import {
  MAX_SEARCH_FILE_BYTES,
  snippetOf,
  type FolderSearchTarget,
  type TextSearchHit,
  type TextSearchOutcome,
  type TextSearchQuery,
} from './textSearchQuery';

const NEWLINE = 0x0a;
const NUL = 0x00;

/** The arguments, without the ignore file; shared with the benchmark so both run the same search. */
export function ripgrepArguments(query: TextSearchQuery): string[] {
  const args = [
    '--no-config',
    '--no-heading',
    '--with-filename',
    '--line-number',
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

    const takeLine = (buffer: Buffer, start: number, end: number): void => {
      const nul = buffer.indexOf(NUL, start);
      if (nul < 0 || nul >= end) return; // Not a match line (ripgrep prints nothing else with these flags).
      lines += 1;
      if (previousPath === undefined || previousPath.compare(buffer, start, nul) !== 0) {
        files += 1;
        previousPath = Buffer.from(buffer.subarray(start, nul));
      }
      if (left <= 0) return;
      const colon = buffer.indexOf(0x3a, nul + 1);
      if (colon < 0 || colon >= end) return;
      left -= 1;
      let file = buffer.toString('utf8', start, nul);
      if (file.startsWith('./')) file = file.slice(2);
      hits.push({
        path: target.prefix + file,
        line: Number(buffer.toString('latin1', nul + 1, colon)),
        text: snippetOf(buffer.toString('utf8', colon + 1, end)),
      });
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
      if (code === 0 || code === 1 || (code === 2 && lines > 0)) resolve({ lines, files });
      else reject(new ToolError(`ripgrep failed: ${stderr.trim() || `exit code ${String(code)}`}`));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
