// Which of the files a language service named may be shown to the model:
// those inside the workspace and not excluded by the ignore files, each with
// the path the tools print (workspace-relative, named by folder in a
// multi-root workspace). get_diagnostics and find_usages filter with it.
import * as path from 'node:path';
import { GIT_IGNORE_FILE, IgnoreRules } from './ignoreRules';
import { isInside, resolveScopedPath, type ScopedFolder } from './pathScope';

/**
 * The shown path of each file (absolute paths) that may be shown; the others are left out.
 * `insideAllowedIgnored`: all of them lie in a .gitignore'd folder the user allowed, so only .tandemignore leaves any out.
 */
export async function shownPaths(files: Iterable<string>, folders: readonly ScopedFolder[], insideAllowedIgnored = false): Promise<Map<string, string>> {
  const ignoreRules = new Map<string, IgnoreRules>();
  const shown = new Map<string, string>();
  for (const file of new Set(files)) {
    const input = workspaceRelative(file, folders);
    if (input === undefined) continue;
    const target = await resolveScopedPath(input, folders);
    if (!target.ok) continue;
    const rules = ignoreRules.get(target.folder.real) ?? new IgnoreRules(target.folder.real);
    ignoreRules.set(target.folder.real, rules);
    const by = await rules.ignoredBy(target.relative, false);
    if (by !== undefined && !(insideAllowedIgnored && by === GIT_IGNORE_FILE)) continue;
    shown.set(file, target.display);
  }
  return shown;
}

/** The path as a tool argument (relative, named by folder in a multi-root workspace), so it is checked like any other. */
function workspaceRelative(file: string, folders: readonly ScopedFolder[]): string | undefined {
  for (const folder of folders) {
    for (const root of [folder.given, folder.real]) {
      if (!isInside(root, file)) continue;
      const relative = path.relative(root, file).split(path.sep).join('/');
      if (relative === '') return undefined;
      return folders.length > 1 ? `${folder.name}/${relative}` : relative;
    }
  }
  return undefined;
}
