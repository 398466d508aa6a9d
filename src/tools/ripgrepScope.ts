// Where ripgrep starts in a folder, what it is told, and which of the paths
// it prints are kept.
//
// Two of ripgrep's rules would let a repository or a query reach what the
// ignore files hide, so neither is trusted alone:
// - a .gitignore's `!negation` outranks an --ignore-file: `!.env` in a
//   repository's .gitignore would let it read a .env that .tandemignore keeps
//   out. .tandemignore's lines go to it as exclusions (--glob=!line, which
//   outrank every ignore file), or are checked on its output when they have
//   negations of their own;
// - an include (--glob=src/**) outranks every ignore file too: it saves
//   reading the files no include names, but whatever ripgrep prints under one
//   is checked against .gitignore and .tandemignore here, level by level, as
//   the JavaScript walker reads them.
// For an include such as `src/**` ripgrep starts in `src` rather than walking
// the whole folder; the check above covers the ignore files above `src`,
// which it does not read there (--no-ignore-parent).

import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { GIT_IGNORE_FILE, IgnoreRules, loadRulesSync, startsWithByteOrderMarkSync, type IgnoreLayer } from './ignoreRules';
import { folderCoveringGlobs, type TextSearchQuery } from './textSearchQuery';
import { isGitName } from './workspaceWalker';

const GLOB_SYNTAX = /[*?[\]{}!\\]/u;
/** A .tandemignore longer than this is checked on the output rather than passed as arguments (Windows allows 32K characters a command). */
const MAX_TANDEM_EXCLUSION_CHARS = 16_000;

/**
 * .tandemignore's rules as ripgrep exclusions, the same gitignore lines with
 * a `!` before them; undefined when a line is a negation, which as a --glob
 * would include instead (only what it names would be searched).
 */
export function tandemExclusions(text: string): string[] | undefined {
  // A byte order mark is not part of the first rule (the ignore library drops it; ripgrep 13 does not).
  const lines = text
    .replace(/^\uFEFF/u, '')
    .split(/\r?\n/u)
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (text.length > MAX_TANDEM_EXCLUSION_CHARS || lines.some((line) => line.startsWith('!'))) return undefined;
  return lines.map((line) => `--glob=!${line}`);
}

/**
 * The literal folder a glob starts in ('src' for 'src/**\/*.ts'), or undefined
 * when it can match anywhere: a glob with no slash but a trailing one matches
 * at any depth, as in .gitignore.
 */
export function literalFolderOf(glob: string): string | undefined {
  const trimmed = glob.replace(/\/+$/u, '');
  const anchored = trimmed.startsWith('/') ? trimmed.slice(1) : trimmed;
  if (anchored === trimmed && !trimmed.includes('/')) return undefined;
  const parts = anchored.split('/');
  parts.pop(); // The last part names what matches, a file or a folder.
  const literal: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || GLOB_SYNTAX.test(part)) break;
    literal.push(part);
  }
  return literal.length > 0 ? literal.join('/') : undefined;
}

/**
 * The folders ripgrep starts in, relative with '/' ('' for the whole
 * folder): the whole folder unless every include starts in a literal folder.
 * A folder that is missing or ignored (nothing under it can be searched, as
 * git reads it) is left out, so the list may be empty. A folder reached
 * through a link searches the whole folder instead: ripgrep follows a link it
 * is given, which could lead out of the workspace.
 */
export async function searchRoots(folderReal: string, include: readonly string[], rules: IgnoreRules): Promise<string[]> {
  if (include.length === 0) return [''];
  const literal = include.map(literalFolderOf);
  if (literal.some((folder) => folder === undefined)) return [''];
  // One start per folder, none inside another.
  const sorted = [...new Set(literal as string[])].sort();
  const distinct = sorted.filter((folder, index) => !sorted.slice(0, index).some((outer) => folder.startsWith(`${outer}/`)));
  const roots: string[] = [];
  for (const relative of distinct) {
    const absolute = path.join(folderReal, ...relative.split('/'));
    let real: string;
    try {
      if (!(await stat(absolute)).isDirectory()) continue;
      real = await realpath(absolute);
    } catch {
      continue; // Nothing there to search.
    }
    if (real !== absolute) return [''];
    if ((await rules.ignoredBy(relative, true)) === undefined) roots.push(relative);
  }
  return roots;
}

/** The includes as ripgrep globs: they spare it reading other files; what it prints is checked (printedPathFilter). */
export function includeGlobs(include: readonly string[]): string[] {
  return folderCoveringGlobs(include).map((glob) => `--glob=${glob}`);
}

/**
 * Which printed paths (`./`-prefixed UTF-8, as ripgrep prints them) are kept:
 * what the includes match and no ignore file hides. Without includes
 * ripgrep's own choice stands, except where it misreads a .gitignore (a byte
 * order mark before its first rule) and, with `checkIgnoreFiles`
 * (.tandemignore could not be given to it as exclusions), everywhere.
 */
export function printedPathFilter(folderReal: string, query: TextSearchQuery, tandem: Ignore | undefined, checkIgnoreFiles: boolean): (printed: Buffer) => boolean {
  const include = query.include.length > 0 ? ignore({ ignorecase: false }).add(folderCoveringGlobs(query.include)) : undefined;
  const levels = new IgnoreLevels(folderReal, tandem);
  const check = (printed: string): boolean => {
    const relative = relativeOf(printed);
    return (include === undefined || include.ignores(relative)) && levels.kept(relative);
  };
  if (include !== undefined || checkIgnoreFiles) return (printed) => check(printed.toString('utf8'));
  // Mostly nothing is checked: then a printed path costs a look at its folder's bytes. ripgrep prints a folder's
  // files together, so that is mostly a comparison with the last folder.
  let lastFolder: Buffer | undefined;
  let lastMisread = false;
  return (printed) => {
    const end = Math.max(0, printed.lastIndexOf(SEPARATOR));
    if (lastFolder === undefined || end !== lastFolder.length || printed.compare(lastFolder, 0, end, 0, end) !== 0) {
      lastFolder = Buffer.from(printed.subarray(0, end));
      lastMisread = levels.misreadIn(relativeOf(lastFolder.toString('utf8')));
    }
    return !lastMisread || check(printed.toString('utf8'));
  };
}

const SEPARATOR = path.sep.charCodeAt(0);

/** A path as ripgrep prints it ('./src/a.ts', '.') relative with '/' ('src/a.ts', ''). */
function relativeOf(printed: string): string {
  return printed.replace(/^\.(?:[\\/]|$)/u, '').split(path.sep).join('/');
}

/**
 * .gitignore and .tandemignore read level by level as the walker reads them
 * (a path is hidden when a folder above it is), with each folder's verdict
 * and rules kept: ripgrep prints each file's lines together and files by
 * folder, so a folder is looked at once. Its .gitignore is read synchronously
 * because the check runs inside the output's stream handler; that is one
 * small read per folder printed.
 */
class IgnoreLevels {
  private readonly layers = new Map<string, readonly IgnoreLayer[]>();
  private readonly folders = new Map<string, boolean>([['', true]]);
  private readonly misread = new Map<string, boolean>();

  constructor(
    private readonly folderReal: string,
    private readonly tandem: Ignore | undefined,
  ) {}

  kept(relative: string): boolean {
    if (relative === '' || relative.split('/').some(isGitName)) return false;
    const parent = parentOf(relative);
    return this.keptFolder(parent) && IgnoreRules.matchIn(this.layersIn(parent), this.tandem, relative, false) === undefined;
  }

  /** Whether ripgrep misreads a .gitignore that applies inside this folder (one 3-byte read a folder). */
  misreadIn(relative: string): boolean {
    const known = this.misread.get(relative);
    if (known !== undefined) return known;
    const verdict =
      (relative !== '' && this.misreadIn(parentOf(relative))) ||
      startsWithByteOrderMarkSync(path.join(this.folderReal, ...relative.split('/'), GIT_IGNORE_FILE));
    this.misread.set(relative, verdict);
    return verdict;
  }

  private keptFolder(relative: string): boolean {
    const known = this.folders.get(relative);
    if (known !== undefined) return known;
    const parent = parentOf(relative);
    const verdict = this.keptFolder(parent) && IgnoreRules.matchIn(this.layersIn(parent), this.tandem, relative, true) === undefined;
    this.folders.set(relative, verdict);
    return verdict;
  }

  /** The .gitignore rules that apply inside a folder, root first. */
  private layersIn(relative: string): readonly IgnoreLayer[] {
    const known = this.layers.get(relative);
    if (known !== undefined) return known;
    const above = relative === '' ? [] : this.layersIn(parentOf(relative));
    const own = loadRulesSync(path.join(this.folderReal, ...relative.split('/'), GIT_IGNORE_FILE));
    const layers = own === undefined ? above : [...above, { base: relative, rules: own }];
    this.layers.set(relative, layers);
    return layers;
  }
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}
