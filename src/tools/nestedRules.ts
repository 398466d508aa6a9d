// Rules files below the workspace root: for each bare file name in
// `tandem.agent.rulesFiles` (`AGENTS.md` by default; an entry with a folder or
// a `*` is read at the root only), the nearest such file above a file the run
// touches. A monorepo's `packages/api/AGENTS.md` then joins once the run reads
// or edits something under `packages/api/`. Only files whose real path stays
// inside the same workspace folder are read.
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { IgnoreRules, TANDEM_IGNORE_FILE } from './ignoreRules';
import { readRuleText, type RuleFile, type RulesRoot } from './rulesFiles';

/** A rules file found for a touched file. */
export interface NestedRule {
  readonly rule: RuleFile;
  /** The touched file it was found for, as shown to the user. */
  readonly near: string;
}

export interface NestedRulesFinder {
  /** The nearest rules file of each listed name above `absolutePath` (at most one per name); [] outside the workspace. */
  rulesFor(absolutePath: string): Promise<NestedRule[]>;
}

/** The entries of the list that are looked up above touched files: plain file names. */
export function nestedRuleNames(patterns: readonly string[]): string[] {
  const names = patterns.map((pattern) => pattern.trim().replace(/^\.[/\\]/, '')).filter((name) => name !== '' && !/[/\\*]/.test(name) && name !== '.' && name !== '..');
  return [...new Set(names)];
}

export function createNestedRulesFinder(roots: readonly RulesRoot[], patterns: readonly string[]): NestedRulesFinder {
  const names = nestedRuleNames(patterns);
  let realRoots: Promise<{ root: RulesRoot; real: string }[]> | undefined;
  const resolveRoots = () =>
    (realRoots ??= Promise.all(roots.map(async (root) => ({ root, real: await realpath(root.folder).catch(() => path.resolve(root.folder)) }))));
  return {
    async rulesFor(absolutePath) {
      if (names.length === 0) return [];
      const owned = await ownerOf(await resolveRoots(), absolutePath);
      if (!owned) return [];
      const { owner, file } = owned;
      const shown = (absolute: string) => (owner.root.label ? `${owner.root.label}/` : '') + path.relative(owner.real, absolute).split(path.sep).join('/');
      const found: NestedRule[] = [];
      for (const name of names) {
        for (let folder = path.dirname(file); isInside(owner.real, folder); folder = path.dirname(folder)) {
          const candidate = path.join(folder, name);
          if (await isRegularFileInside(candidate, owner.real)) {
            const read = await readRuleText(candidate);
            // The whole text read: the run's rules cut it to what is left of their room.
            if (read !== undefined && read.text.trim()) found.push({ rule: { path: shown(candidate), text: read.text, ...(read.fileBytes !== undefined && { fileBytes: read.fileBytes }) }, near: shown(file) });
            break;
          }
          if (folder === owner.real) break;
        }
      }
      return found;
    },
  };
}

/** A file inside `root` once links are followed, and not kept out by .tandemignore (by its own path or the one it leads to). */
async function isRegularFileInside(candidate: string, root: string): Promise<boolean> {
  let real: string;
  try {
    if (!(await stat(candidate)).isFile()) return false;
    real = await realpath(candidate);
  } catch {
    return false;
  }
  if (!isInside(root, real)) return false;
  const rules = new IgnoreRules(root);
  for (const each of new Set([path.relative(root, candidate), path.relative(root, real)])) {
    if ((await rules.ignoredBy(each.split(path.sep).join('/'), false)) === TANDEM_IGNORE_FILE) return false;
  }
  return true;
}

/** The root that owns a touched file (the innermost, in a multi-root workspace with nested folders), and the file's real path. */
export async function ownerOf<T extends { readonly real: string }>(roots: readonly T[], absolutePath: string): Promise<{ owner: T; file: string } | undefined> {
  const file = await realpath(absolutePath).catch(() => path.resolve(absolutePath));
  const owner = roots.filter(({ real }) => isInside(real, file)).sort((a, b) => b.real.length - a.real.length)[0];
  return owner === undefined ? undefined : { owner, file };
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** Several finders as one: each touched file is asked of every finder, in order. */
export function joinFinders(...finders: readonly NestedRulesFinder[]): NestedRulesFinder {
  return {
    async rulesFor(absolutePath) {
      const found: NestedRule[] = [];
      for (const finder of finders) found.push(...(await finder.rulesFor(absolutePath)));
      return found;
    },
  };
}
