// What a text search asks and what it finds, shared by the ripgrep runner and
// the JavaScript fallback so both answer the same question the same way.

import { ToolError } from '../common/errors';
import { quotedInput } from './quotedInput';
import type { ScopedFolder } from './pathScope';
import { escapeRegExp } from '../common/escapeRegExp';

export interface TextSearchQuery {
  readonly pattern: string;
  readonly isRegexp: boolean;
  readonly caseSensitive: boolean;
  /** gitignore-style globs; a file must match one of them (when any are given). */
  readonly include: readonly string[];
  /** gitignore-style globs; a matching file or folder is skipped. */
  readonly exclude: readonly string[];
  /** How many hits to keep (the first in path order, then line order); all are still counted. */
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
  /** Matching lines per file (display path), for where the matches of a capped search are. */
  readonly perFile: ReadonlyMap<string, number>;
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

/** The pattern is not a valid regular expression: the model's to fix, not a reason to try the other engine. */
export class InvalidPatternError extends ToolError {
  constructor(pattern: string, detail: string, isRegexp = true) {
    const reason = detail.replace(/\.$/u, '').slice(0, 1000);
    super(
      isRegexp
        ? `Invalid regular expression ${quotedInput(pattern)}: ${reason}. ` +
            'Escape the special characters (\\( \\) \\[ \\{ \\. \\* \\+ \\? \\| \\\\) to match them as text, or pass isRegexp:false to search for the query literally.'
        : `The query ${quotedInput(pattern)} cannot be searched for: ${reason}. Search for a shorter part of it.`,
    );
  }
}

/** A JavaScript RegExp for the query; an InvalidPatternError when the pattern is invalid. */
export function queryRegExp(query: TextSearchQuery): RegExp {
  const source = query.isRegexp ? query.pattern : escapeRegExp(query.pattern);
  try {
    const regexp = new RegExp(source, query.caseSensitive ? 'gm' : 'gim');
    // V8 compiles on first use: a pattern too large to compile (a 50,000-character query) fails here, not mid-search.
    regexp.test('');
    return regexp;
  } catch (error) {
    // "Invalid regular expression: /(x/gim: Unterminated group": the reason is after the last colon.
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidPatternError(query.pattern, message.slice(message.lastIndexOf(': ') + 2), query.isRegexp);
  }
}

/**
 * The globs as ripgrep must be given them to read them as gitignore does: a
 * glob that matches a folder covers everything in it ('lib', 'lib/', 'src/*'),
 * so each also stands for `<glob>/**`, anchored as the glob is (a glob with no
 * inner '/' matches at any depth).
 */
export function folderCoveringGlobs(globs: readonly string[]): string[] {
  const covering: string[] = [];
  for (const glob of globs) {
    covering.push(glob);
    const folder = glob.replace(/\/+$/u, '');
    if (glob.startsWith('!') || folder === '' || folder.endsWith('**')) continue;
    covering.push(folder.includes('/') ? `${folder}/**` : `**/${folder}/**`);
  }
  return covering;
}

/**
 * The query as one folder of a multi-root workspace reads it. The tools name
 * files there as `<folder>/<path>`, so a glob may start with a folder's name:
 * it then belongs to that folder alone, anchored at its root ('web/src' is
 * '/src' in web and nothing in api), and the name alone ('web', 'web/**')
 * covers the whole folder. Other globs apply in every folder as they are.
 * Undefined when nothing in this folder can match (excluded whole, or every
 * include belongs to another folder).
 */
export function queryInFolder(query: TextSearchQuery, folderName: string, folderNames: readonly string[]): TextSearchQuery | undefined {
  const ownerOf = (bare: string): string | undefined =>
    folderNames.filter((name) => bare === name || bare.startsWith(`${name}/`)).sort((a, b) => b.length - a.length)[0];
  const scope = (globs: readonly string[]): { globs: string[]; whole: boolean } => {
    const scoped: string[] = [];
    let whole = false;
    for (const glob of globs) {
      const bare = glob.replace(/\/+$/u, '');
      const owner = glob.startsWith('!') ? undefined : ownerOf(bare);
      if (owner === undefined) scoped.push(glob);
      else if (owner === folderName) {
        const rest = bare.slice(owner.length + 1);
        if (rest === '' || rest === '**') whole = true;
        else scoped.push(`/${rest}`);
      }
    }
    return { globs: scoped, whole };
  };
  const include = scope(query.include);
  const exclude = scope(query.exclude);
  if (exclude.whole || (!include.whole && query.include.length > 0 && include.globs.length === 0)) return undefined;
  return { ...query, include: include.whole ? [] : include.globs, exclude: exclude.globs };
}

/**
 * Path order for kept hits: the order of the paths' UTF-8 bytes, which is
 * how the ripgrep runner compares them. UTF-16 code units sort the same except
 * that surrogates (characters past U+FFFF) must come after U+E000–U+FFFF.
 */
export function comparePaths(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left !== right) return codePointRank(left) - codePointRank(right);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** A folder (ending in '/') or file and how many matching lines it holds. */
export interface MatchPlace {
  readonly place: string;
  readonly lines: number;
}

/**
 * Where most matches are, the busiest first: the top-level folders, and a
 * folder opened up while it holds more than half of all matching lines and
 * one part of it more than half of those ('vendor/' becomes 'vendor/openai/'
 * and 'vendor/other/'). At most `count` places, and how many more there are.
 */
export function busiestPlaces(perFile: ReadonlyMap<string, number>, count: number): { places: MatchPlace[]; more: number } {
  if (perFile.size === 0) return { places: [], more: 0 };
  let total = 0;
  for (const lines of perFile.values()) total += lines;
  let groups = groupByFolder([...perFile], 1);
  for (let opened = 0; opened < 8; opened += 1) {
    const busiest = groups.reduce((best, group) => (group.lines > best.lines ? group : best), groups[0]!);
    if (!busiest.place.endsWith('/') || busiest.lines * 2 <= total) break;
    const parts = groupByFolder(busiest.files, busiest.place.split('/').length);
    if (!parts.some((part) => part.lines * 2 > busiest.lines)) break;
    groups = [...groups.filter((group) => group !== busiest), ...parts];
  }
  groups.sort((a, b) => b.lines - a.lines || comparePaths(a.place, b.place));
  return { places: groups.slice(0, count).map(({ place, lines }) => ({ place, lines })), more: Math.max(0, groups.length - count) };
}

interface PlaceGroup extends MatchPlace {
  readonly files: [string, number][];
}

/** Files grouped by their first `depth` path segments (a file with no deeper folder stands for itself). */
function groupByFolder(files: readonly [string, number][], depth: number): PlaceGroup[] {
  const groups = new Map<string, { lines: number; files: [string, number][] }>();
  for (const [file, lines] of files) {
    const segments = file.split('/');
    const place = segments.length > depth ? `${segments.slice(0, depth).join('/')}/` : file;
    const group = groups.get(place) ?? { lines: 0, files: [] };
    group.lines += lines;
    group.files.push([file, lines]);
    groups.set(place, group);
  }
  return [...groups].map(([place, group]) => ({ place, ...group }));
}
