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

export function snippetOf(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > SNIPPET_CHARS ? `${trimmed.slice(0, SNIPPET_CHARS)}…` : trimmed;
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
