// What a text search asks and what it finds, shared by the ripgrep runner and
// the JavaScript fallback so both answer the same question the same way.

import type { ScopedFolder } from './pathScope';

export interface TextSearchQuery {
  readonly pattern: string;
  readonly isRegexp: boolean;
  readonly caseSensitive: boolean;
  /** gitignore-style globs; a file must match one of them (when any are given). */
  readonly include: readonly string[];
  /** gitignore-style globs; a matching file or folder is skipped. */
  readonly exclude: readonly string[];
  /** How many hits to keep; all are still counted. */
  readonly maxHits: number;
}

export interface TextSearchHit {
  /** Display path (folder-name prefixed in a multi-root workspace). */
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

export interface TextSearchOutcome {
  readonly hits: readonly TextSearchHit[];
  /** Matching lines in all files. */
  readonly total: number;
  /** Files with at least one matching line. */
  readonly files: number;
  readonly engine: 'ripgrep' | 'javascript';
}

export interface FolderSearchTarget {
  readonly folder: ScopedFolder;
  /** Display prefix for paths in this folder: '' or 'name/'. */
  readonly prefix: string;
}

/** Files larger than this are skipped by both engines. */
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;
/** Snippets are cut to this many characters. */
export const SNIPPET_CHARS = 240;

/** Characters shown before a match that lies beyond the start of a long line. */
const SNIPPET_LEAD_CHARS = 60;

export function snippetOf(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > SNIPPET_CHARS ? `${trimmed.slice(0, SNIPPET_CHARS)}…` : trimmed;
}

/**
 * A line's snippet that shows its match: the line's start when the match is
 * near it, else a window from a little before the match (a hit deep in a
 * minified line is useless as the line's first characters).
 * `cutAfter`: the line goes on past `line` (only a part of it was read).
 */
export function snippetAt(line: string, matchIndex: number, cutAfter = false): string {
  const lead = line.length - line.trimStart().length;
  if (matchIndex - lead < SNIPPET_CHARS - SNIPPET_LEAD_CHARS * 2) {
    const snippet = snippetOf(line);
    return cutAfter && !snippet.endsWith('…') ? `${snippet}…` : snippet;
  }
  const start = matchIndex - SNIPPET_LEAD_CHARS;
  const window = line.slice(start, start + SNIPPET_CHARS);
  const more = cutAfter || start + SNIPPET_CHARS < line.trimEnd().length;
  return `…${window.trimEnd()}${more ? '…' : ''}`;
}

/** A JavaScript RegExp for the query, or an error message when the pattern is invalid. */
export function queryRegExp(query: TextSearchQuery): RegExp | string {
  const source = query.isRegexp ? query.pattern : query.pattern.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  try {
    return new RegExp(source, query.caseSensitive ? 'gm' : 'gim');
  } catch (error) {
    return `Invalid regular expression ${JSON.stringify(query.pattern)}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
