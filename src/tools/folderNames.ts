// Names that tell a workspace's folders apart. The tools' paths start with a
// folder's name in a multi-root workspace, and VS Code lets two folders share
// one (api/src and web/src are both "src"): then a path named either, and a
// write meant for the second landed in the first.
import * as path from 'node:path';

/**
 * The folders' names, each shared one followed by its parent folder's name
 * ("src (api)", "src (web)"), or by a number when that is shared too.
 */
export function distinctFolderNames(folders: readonly { readonly name: string; readonly path: string }[]): string[] {
  const shared = (names: readonly string[], name: string) => names.indexOf(name) !== names.lastIndexOf(name);
  const given = folders.map((folder) => folder.name);
  const byParent = folders.map((folder) => (shared(given, folder.name) ? `${folder.name} (${path.basename(path.dirname(folder.path))})` : folder.name));
  const counted = new Map<string, number>();
  return byParent.map((name, index) => {
    if (!shared(byParent, name)) return name;
    const count = (counted.get(name) ?? 0) + 1;
    counted.set(name, count);
    return `${folders[index]!.name} (${count})`;
  });
}
