// The repository's files that are known by their name (prompt files, custom
// agents): found by patterns in each workspace folder and read as rules files
// are (inside the folder after links, not what .tandemignore keeps out,
// capped). Of two files with one name, the first pattern's, then the first
// folder's, wins.
import * as path from 'node:path';
import { expandRulePattern, readRuleText } from './rulesFiles';

export interface NamedFile {
  readonly name: string;
  /** The workspace-relative path with `/`, after the folder's name in a multi-root workspace. */
  readonly file: string;
  readonly text: string;
}

/** A name the prompt box and the settings can hold: one word, no slash. */
const NAME = /^[\w.-]{1,64}$/;

/** `nameOf(relative)`: the name a file goes by (its base name without its suffix). */
export async function loadNamedFiles(
  folders: readonly { readonly path: string; readonly name?: string | undefined }[],
  patterns: readonly string[],
  nameOf: (relative: string) => string,
): Promise<NamedFile[]> {
  const found = new Map<string, NamedFile>();
  for (const folder of folders) {
    for (const pattern of patterns) {
      for (const relative of await expandRulePattern(folder.path, pattern)) {
        const name = nameOf(relative);
        if (!NAME.test(name) || found.has(name)) continue;
        const read = await readRuleText(path.join(folder.path, relative));
        if (read === undefined) continue;
        const file = (folders.length > 1 && folder.name ? `${folder.name}/${relative}` : relative).split(path.sep).join('/');
        found.set(name, { name, file, text: read.text });
      }
    }
  }
  return [...found.values()];
}

/** A file's base name without the first of `suffixes` it ends with. */
export function baseNameWithout(relative: string, suffixes: readonly string[]): string {
  const base = path.basename(relative);
  const suffix = suffixes.find((each) => base.endsWith(each));
  return suffix ? base.slice(0, -suffix.length) : base;
}
