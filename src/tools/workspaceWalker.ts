// Depth-first walk of a workspace folder that honours the ignore rules the
// way ripgrep does: ignored folders are not entered, `.git` never, symbolic
// links are reported but not followed.

import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { CancelledError } from '../common/errors';
import { GIT_IGNORE_FILE, IgnoreRules, type IgnoreLayer } from './ignoreRules';
import { hasControlCharacter, type ScopedFolder } from './pathScope';

export type WalkEntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface WalkEntry {
  /** Relative to the folder, '/' separators. */
  readonly relative: string;
  readonly absolute: string;
  readonly kind: WalkEntryKind;
  /** 1 for the start folder's direct children. */
  readonly depth: number;
}

/** 'skip' does not enter a directory; 'stop' ends the walk. */
export type WalkDecision = 'skip' | 'stop' | undefined | void;

export interface WalkOptions {
  readonly signal: AbortSignal;
  /** Folder to start from, relative ('' for the root). */
  readonly start?: string;
  /** Deepest level reported (1 = direct children only). */
  readonly maxDepth?: number;
  /** false: .gitignore files are not applied (a walk the user allowed inside an ignored folder); .tandemignore always is. */
  readonly gitignore?: boolean;
  readonly onEntry: (entry: WalkEntry) => WalkDecision;
  /** Told of each entry left out because no tool could open it by name (control characters, bytes not UTF-8). */
  readonly onUnopenableName?: () => void;
}

export async function walkFolder(folder: ScopedFolder, rules: IgnoreRules, options: WalkOptions): Promise<void> {
  const start = options.start ?? '';
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const tandem = await rules.tandem();
  const gitignore = options.gitignore !== false;
  const startLayers = gitignore ? await rules.layersFor(start) : [];
  let stopped = false;

  // `inherited` holds the rules of the parent folders; this folder's own .gitignore is added once its listing shows one.
  const visit = async (dirRelative: string, inherited: readonly IgnoreLayer[], depth: number, ownLoaded: boolean): Promise<void> => {
    if (options.signal.aborted) throw new CancelledError();
    let dirents;
    try {
      dirents = await readdir(path.join(folder.real, dirRelative), { withFileTypes: true });
    } catch {
      return; // Unreadable or vanished folders are skipped, as ripgrep does.
    }
    const hasGitignore = gitignore && !ownLoaded && dirents.some((d) => d.name === GIT_IGNORE_FILE && d.isFile());
    const layers = hasGitignore ? await rules.childLayers(inherited, dirRelative, true) : inherited;
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const dirent of dirents) {
      if (stopped) return;
      const name = dirent.name;
      if (isGitName(name)) continue;
      const relative = dirRelative === '' ? name : `${dirRelative}/${name}`;
      // A name that is not UTF-8 reaches here with U+FFFD for its bad bytes: joined to a path, it would name another
      // entry (perhaps a link of that name leading out of the folder), so it is left out. So is a name with a control
      // character: no tool takes it as a path, and a newline in it would pass for another line of a listing
      // (`a\n2. b.ts` as a second hit). Those the ignore files would show are counted.
      if (name.includes('\uFFFD') || hasControlCharacter(name)) {
        if (IgnoreRules.matchIn(layers, tandem, relative, dirent.isDirectory()) === undefined) options.onUnopenableName?.();
        continue;
      }
      const kind: WalkEntryKind = dirent.isDirectory()
        ? 'directory'
        : dirent.isFile()
          ? 'file'
          : dirent.isSymbolicLink()
            ? 'symlink'
            : 'other';
      if (IgnoreRules.matchIn(layers, tandem, relative, kind === 'directory') !== undefined) continue;
      const decision = options.onEntry({ relative, absolute: path.join(folder.real, relative), kind, depth });
      if (decision === 'stop') {
        stopped = true;
        return;
      }
      if (kind === 'directory' && decision !== 'skip' && depth < maxDepth) subdirs.push(relative);
    }
    for (const sub of subdirs) {
      if (stopped) return;
      await visit(sub, layers, depth + 1, false);
    }
  };

  await visit(start, startLayers, 1, true);
}

export function isGitName(name: string): boolean {
  return name.replace(/[ .]+$/u, '').toLowerCase() === '.git';
}
