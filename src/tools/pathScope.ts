// Every path a tool touches goes through here: it must land, after realpath,
// inside one of the workspace folders and outside `.git/`. The syntax check
// refuses tricks outright rather than trying to interpret them, so there is
// no decoding step an attacker could exploit.

import { lstat, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { quotedInput } from './quotedInput';
import type { WorkspaceFolderInfo } from './workspaceHost';

export const NO_FOLDER_MESSAGE =
  'No workspace folder is open, so there is nothing to read or change. Ask the user to open a folder (File > Open Folder) and try again.';

export interface ScopedFolder {
  readonly name: string;
  /** The folder's real path (symlinks resolved). */
  readonly real: string;
  /** The path as the host gave it (may differ from `real` when it contains a symlink). */
  readonly given: string;
}

export interface ScopedPath {
  readonly ok: true;
  /** Real absolute path (the nearest existing ancestor realpath'd, the rest appended). */
  readonly absolute: string;
  readonly folder: ScopedFolder;
  /** Path inside the folder with '/' separators; '' for the folder itself. */
  readonly relative: string;
  /** The path as written, inside its folder, before symbolic links are followed (sensitive-path checks test both). */
  readonly lexical: string;
  /** What the model and the user see: relative, prefixed by the folder name in a multi-root workspace. */
  readonly display: string;
  readonly exists: boolean;
  /**
   * A path with no folder name, found in no folder of a multi-root workspace,
   * is taken in the first: the other folders it was looked for in.
   */
  readonly alsoLookedIn?: readonly string[];
}

export interface ScopeRefusal {
  readonly ok: false;
  readonly message: string;
}

// Characters that look like '/', '\' or '.' and could fool a reader or another layer.
const LOOKALIKES = /[\u2024\u2044\u2215\u2216\u29f8\u29f9\uff0e\uff0f\uff3c\ufe52\ufe68]/u;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/** A name no tool accepts as a path (a newline, a tab, an escape…): the tools leave such files out of their listings. */
export function hasControlCharacter(name: string): boolean {
  return CONTROL.test(name);
}

/** Returns why a path's text is refused, or undefined when it may be resolved. Pure. */
export function pathSyntaxProblem(input: string): string | undefined {
  if (input.length === 0) return 'the path is empty';
  if (input.length > 4096) return 'the path is too long';
  if (CONTROL.test(input)) return 'it contains a NUL byte or another control character';
  if (/%[0-9a-fA-F]{2}/u.test(input)) return 'URL-encoded characters (such as %2e or %2f) are not accepted; give the plain path';
  if (input.startsWith('~')) return "'~' (a home directory) is outside the workspace";
  if (input.startsWith('\\\\') || input.startsWith('//')) return 'UNC and network paths are not accepted';
  if (/^[a-zA-Z]:/u.test(input)) return 'drive letters are not accepted; give a path relative to the workspace folder';
  if (input.includes(':')) return "':' is not accepted in paths (URIs, drive letters and stream names are refused)";
  if (LOOKALIKES.test(input)) return "it contains a character that looks like '/', '\\' or '.'";
  for (const segment of input.replace(/\\/gu, '/').split('/')) {
    const trimmed = segment.replace(/[ .]+$/u, '');
    if (segment !== '.' && segment !== '' && trimmed === '') return "'..' (or a run of dots) is not accepted in paths";
    if (isGitSegment(segment)) return 'the .git folder is off limits';
  }
  return undefined;
}

function isGitSegment(segment: string): boolean {
  const trimmed = segment.replace(/[ .]+$/u, '').toLowerCase();
  return trimmed === '.git' || /^git~\d+$/u.test(trimmed);
}

/** Realpaths the folders once per call; folders that no longer exist are dropped. */
export async function scopeFolders(folders: readonly WorkspaceFolderInfo[]): Promise<ScopedFolder[]> {
  const scoped: ScopedFolder[] = [];
  for (const folder of folders) {
    try {
      scoped.push({ name: folder.name, given: path.resolve(folder.path), real: await realpath(folder.path) });
    } catch {
      // A folder that was deleted while open cannot hold anything.
    }
  }
  return scoped;
}

export function refusal(input: string, reason: string): ScopeRefusal {
  return { ok: false, message: `Refused path ${quotedInput(input)}: ${reason}.` };
}

/** Resolves a tool's path argument into a workspace folder, or says why not. */
export async function resolveScopedPath(
  input: string,
  folders: readonly ScopedFolder[],
): Promise<ScopedPath | ScopeRefusal> {
  if (folders.length === 0) return { ok: false, message: NO_FOLDER_MESSAGE };
  if (typeof input !== 'string') return refusal(String(input), 'the path must be a string');
  const problem = pathSyntaxProblem(input);
  if (problem !== undefined) return refusal(input, problem);

  const normalised = input.replace(/\\/gu, '/');
  const picked = await pickCandidate(normalised, folders);
  if (picked === undefined) return refusal(input, 'it is outside every workspace folder');
  const { candidate, defaulted } = picked;

  let real: { path: string; exists: boolean };
  try {
    real = await realpathOfNearestExisting(await asNamedOnDisk(candidate));
  } catch (error) {
    return refusal(input, error instanceof Error ? error.message : String(error));
  }
  const folder = folders.find((f) => isInside(f.real, real.path));
  if (folder === undefined) return refusal(input, 'it resolves (through a symbolic link) to a place outside the workspace');
  const relative = toPosix(path.relative(folder.real, real.path));
  if (relative.split('/').some(isGitSegment)) return refusal(input, 'the .git folder is off limits');
  return {
    ok: true,
    absolute: real.path,
    folder,
    relative,
    lexical: lexicalRelative(candidate, folders) ?? relative,
    display: displayPath(folder, relative, folders.length),
    exists: real.exists,
    ...(defaulted && !real.exists && { alsoLookedIn: folders.filter((other) => other !== folder).map((other) => other.name) }),
  };
}

/**
 * The path with each missing segment replaced by an entry of its folder that
 * differs only in Unicode normalization: a model writes café in one form (NFC),
 * a file may be stored in the other (NFD, as macOS tools often save it), and
 * the two would otherwise read as "does not exist" and then as a second file.
 */
async function asNamedOnDisk(candidate: string): Promise<string> {
  if (isAscii(candidate) || (await lstat(candidate).then(() => true, () => false))) return candidate;
  const { root } = path.parse(candidate);
  let current = root;
  for (const segment of candidate.slice(root.length).split(path.sep)) {
    const next = path.join(current, segment);
    if (isAscii(segment) || (await lstat(next).then(() => true, () => false))) {
      current = next;
      continue;
    }
    const wanted = segment.normalize('NFC');
    const entries = await readdir(current).catch((): string[] => []);
    current = path.join(current, entries.find((entry) => entry.normalize('NFC') === wanted) ?? segment);
  }
  return current;
}

function isAscii(text: string): boolean {
  return !/[^\u0000-\u007f]/u.test(text);
}

function lexicalRelative(candidate: string, folders: readonly ScopedFolder[]): string | undefined {
  for (const folder of folders) {
    for (const root of [folder.real, folder.given]) {
      if (isInside(root, candidate)) return toPosix(path.relative(root, candidate));
    }
  }
  return undefined;
}

export function displayPath(folder: ScopedFolder, relative: string, folderCount: number): string {
  if (folderCount <= 1) return relative === '' ? '.' : relative;
  return relative === '' ? folder.name : `${folder.name}/${relative}`;
}

/** Where a path points; `defaulted` when it names no folder and is in none, so the first is taken. */
async function pickCandidate(normalised: string, folders: readonly ScopedFolder[]): Promise<{ candidate: string; defaulted: boolean } | undefined> {
  if (path.isAbsolute(normalised)) {
    const absolute = path.resolve(normalised);
    const owner = folders.find((f) => isInside(f.given, absolute) || isInside(f.real, absolute));
    return owner === undefined ? undefined : { candidate: absolute, defaulted: false };
  }
  const trimmed = normalised.replace(/^(\.\/)+/u, '');
  if (folders.length > 1) {
    const [first, ...rest] = trimmed.split('/');
    const named = folders.find((f) => f.name === first);
    if (named !== undefined) return { candidate: path.join(named.real, ...rest), defaulted: false };
    for (const folder of folders) {
      const candidate = path.join(folder.real, trimmed);
      if (await exists(candidate)) return { candidate, defaulted: false };
    }
  }
  // Folders are non-empty here (checked by the caller).
  return { candidate: path.join(folders[0]!.real, trimmed), defaulted: folders.length > 1 };
}

/**
 * realpath of the path, or for a path that does not exist yet, realpath of
 * its nearest existing ancestor with the missing tail appended. A dangling
 * symbolic link is refused: writing through it would create its target.
 */
export async function realpathOfNearestExisting(absolute: string): Promise<{ path: string; exists: boolean }> {
  const tail: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const resolved = await realpath(current);
      return { path: tail.length === 0 ? resolved : path.join(resolved, ...tail.reverse()), exists: tail.length === 0 };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new Error('a part of the path is a file, not a folder');
      if (code !== 'ENOENT') throw new Error(`it cannot be resolved (${code ?? 'unknown error'})`);
      if (await isLink(current)) throw new Error('it is a symbolic link whose target does not exist');
      const parent = path.dirname(current);
      if (parent === current) throw new Error('no part of it exists');
      tail.push(path.basename(current));
      current = parent;
    }
  }
}

export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function toPosix(relative: string): string {
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}

async function exists(candidate: string): Promise<boolean> {
  try {
    await lstat(candidate);
    return true;
  } catch {
    return false;
  }
}

async function isLink(candidate: string): Promise<boolean> {
  try {
    return (await lstat(candidate)).isSymbolicLink();
  } catch {
    return false;
  }
}
