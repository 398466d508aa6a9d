// The workspace's files and folders for the prompt box's `@` picker: VS Code's
// file search (files.exclude and search.exclude apply), then the tools' own
// ignore rules (.gitignore, .tandemignore), so the picker offers nothing the
// agent would refuse to read. Capped, and kept for a few seconds while the
// user types.
import * as vscode from 'vscode';
import { IgnoreRules } from '../tools/ignoreRules';
import { scopeFolders } from '../tools/pathScope';
import { namedWorkspaceFolders } from './workspaceFolderNames';

/** VS Code's search stops after this many files. */
export const FILE_INDEX_MAX_FILES = 5_000;
const freshForMs = 5_000;

export interface IndexedPath {
  /** As the tools show it: relative, prefixed by the folder's name in a multi-root workspace. */
  readonly path: string;
  readonly kind: 'file' | 'folder';
}

export class WorkspaceFileIndex {
  private cached: { at: number; paths: Promise<readonly IndexedPath[]> } | undefined;

  paths(): Promise<readonly IndexedPath[]> {
    if (this.cached === undefined || Date.now() - this.cached.at > freshForMs) {
      const paths = listPaths();
      this.cached = { at: Date.now(), paths };
      paths.catch(() => (this.cached = undefined));
    }
    return this.cached.paths;
  }
}

async function listPaths(): Promise<readonly IndexedPath[]> {
  const folders = namedWorkspaceFolders();
  if (folders.length === 0) return [];
  const uris = await vscode.workspace.findFiles('**/*', searchExcludeGlob(), FILE_INDEX_MAX_FILES);
  const scoped = await scopeFolders(folders.map(({ folder, name }) => ({ name, path: folder.uri.fsPath })));
  const rules = new Map<string, IgnoreRules>();
  const files: IndexedPath[] = [];
  const folderPaths = new Set<string>();
  for (const uri of uris) {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const named = folders.find((each) => each.folder.uri.toString() === folder?.uri.toString());
    if (folder === undefined || named === undefined) continue;
    const relative = vscode.workspace.asRelativePath(uri, false);
    const real = scoped.find((each) => each.name === named.name)?.real ?? folder.uri.fsPath;
    let folderRules = rules.get(real);
    if (folderRules === undefined) rules.set(real, (folderRules = new IgnoreRules(real)));
    if (relative.split('/').some((segment) => segment === '.git') || (await folderRules.ignoredBy(relative, false)) !== undefined) continue;
    const prefix = folders.length > 1 ? `${named.name}/` : '';
    files.push({ path: `${prefix}${relative}`, kind: 'file' });
    // Every folder above a file that is offered.
    const parts = relative.split('/');
    for (let depth = 1; depth < parts.length; depth++) folderPaths.add(`${prefix}${parts.slice(0, depth).join('/')}`);
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return [...[...folderPaths].sort().map((each): IndexedPath => ({ path: each, kind: 'folder' })), ...files];
}

/** search.exclude's active globs as one pattern (files.exclude applies by itself); undefined when there are none. */
function searchExcludeGlob(): string | undefined {
  const excludes = vscode.workspace.getConfiguration('search').get<Record<string, unknown>>('exclude') ?? {};
  const globs = Object.entries(excludes)
    .filter(([glob, on]) => on === true && !glob.includes('{') && !glob.includes(','))
    .map(([glob]) => glob);
  return globs.length === 0 ? undefined : `{${globs.join(',')}}`;
}
