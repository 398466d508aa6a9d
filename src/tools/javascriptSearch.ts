// The search used when no ripgrep is available: the ignore-aware walker plus
// a RegExp over each text file, with the same rules as the ripgrep runner.

import { open } from 'node:fs/promises';
import ignore from 'ignore';
import { IgnoreRules } from './ignoreRules';
import {
  comparePaths,
  folderCoveringGlobs,
  MAX_SEARCH_FILE_BYTES,
  queryRegExp,
  snippetAt,
  type FolderSearchTarget,
  type TextSearchHit,
  type TextSearchOutcome,
  type TextSearchQuery,
} from './textSearchQuery';
import { walkFolder } from './workspaceWalker';

const READ_CONCURRENCY = 16;
const BINARY_SNIFF_BYTES = 8192;

export async function javascriptSearch(
  targets: readonly FolderSearchTarget[],
  query: TextSearchQuery,
  signal: AbortSignal,
): Promise<TextSearchOutcome> {
  const regexp = queryRegExp(query);
  // ripgrep's --glob uses gitignore syntax; the same library reads it here (and the same folder-covering globs).
  const include = query.include.length > 0 ? ignore({ ignorecase: false }).add(folderCoveringGlobs(query.include)) : undefined;
  const exclude = query.exclude.length > 0 ? ignore({ ignorecase: false }).add(folderCoveringGlobs(query.exclude)) : undefined;

  const hits: TextSearchHit[] = [];
  const perFile = new Map<string, number>();
  let total = 0;
  let files = 0;
  for (const target of targets) {
    const paths: string[] = [];
    await walkFolder(target.folder, new IgnoreRules(target.folder.real), {
      signal,
      onEntry: (entry) => {
        if (exclude?.ignores(entry.kind === 'directory' ? `${entry.relative}/` : entry.relative) === true) return 'skip';
        if (entry.kind === 'file' && (include === undefined || include.ignores(entry.relative))) paths.push(entry.relative);
        return undefined;
      },
    });
    // Hits are kept in path order, as the ripgrep runner keeps them; files are read concurrently but reported in that order.
    paths.sort(comparePaths);
    const hitsOf: (TextSearchHit[] | undefined)[] = new Array(paths.length);
    const counts: number[] = new Array(paths.length).fill(0);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const index = next;
        next += 1;
        if (index >= paths.length) return;
        const relative = paths[index]!;
        const found = await searchFile(`${target.folder.real}/${relative}`, regexp, target.prefix + relative, query.maxHits);
        if (found !== undefined) {
          counts[index] = found.count;
          hitsOf[index] = found.hits;
        }
        if (signal.aborted) return;
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
    signal.throwIfAborted();
    for (let index = 0; index < paths.length; index += 1) {
      const count = counts[index]!;
      if (count === 0) continue;
      total += count;
      files += 1;
      perFile.set(target.prefix + paths[index]!, count);
      for (const hit of hitsOf[index] ?? []) {
        if (hits.length < query.maxHits) hits.push(hit);
      }
    }
  }
  return { hits, total, files, perFile, engine: 'javascript' };
}

async function searchFile(
  absolute: string,
  regexp: RegExp,
  display: string,
  keep: number,
): Promise<{ count: number; hits: TextSearchHit[] } | undefined> {
  let bytes: Buffer;
  try {
    // The size is looked at on the open file before it is read: a 1.5 GB data file would otherwise be read whole to
    // be skipped, at every search.
    const handle = await open(absolute, 'r');
    try {
      if ((await handle.stat()).size > MAX_SEARCH_FILE_BYTES) return undefined;
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  if (bytes.length > MAX_SEARCH_FILE_BYTES || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  const text = bytes.toString('utf8');
  // Files are searched one at a time per worker, but workers interleave at awaits, so each needs its own lastIndex.
  const pattern = new RegExp(regexp.source, regexp.flags);
  const hits: TextSearchHit[] = [];
  let count = 0;
  let line = 1;
  let scanned = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    line += countNewlines(text, scanned, match.index);
    const lineStart = text.lastIndexOf('\n', match.index - 1) + 1;
    let lineEnd = text.indexOf('\n', match.index + Math.max(match[0].length, 1) - 1);
    if (lineEnd < 0) lineEnd = text.length;
    count += 1;
    // Only the first hits of a file are kept; the caller keeps fewer still.
    if (hits.length < keep) hits.push({ path: display, line, text: snippetAt(text.slice(lineStart, lineEnd).replace(/\r$/u, ''), match.index - lineStart) });
    // One hit per line, as ripgrep counts lines.
    line += countNewlines(text, match.index, lineEnd);
    scanned = lineEnd;
    pattern.lastIndex = lineEnd + 1;
    if (lineEnd >= text.length) break;
  }
  return { count, hits };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index >= 0 && index < to; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}
