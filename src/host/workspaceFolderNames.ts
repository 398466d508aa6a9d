// The workspace's folders on disk under the names the tools give them
// (distinctFolderNames), so the @-picker, the rules, the terminals and the
// tools all name a file the same way, and a path any of them prints works in
// every other.
import * as vscode from 'vscode';
import { distinctFolderNames } from '../tools/folderNames';

export interface NamedFolder {
  readonly folder: vscode.WorkspaceFolder;
  readonly name: string;
}

export function namedWorkspaceFolders(): NamedFolder[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  const names = distinctFolderNames(folders.map((folder) => ({ name: folder.name, path: folder.uri.fsPath })));
  return folders.map((folder, index) => ({ folder, name: names[index]! }));
}

/** The name the tools give `folder`. */
export function toolNameOf(folder: vscode.WorkspaceFolder): string {
  return namedWorkspaceFolders().find((named) => named.folder.uri.toString() === folder.uri.toString())?.name ?? folder.name;
}

/** A file's path as the tools print it: relative to its folder, after the folder's name in a multi-root workspace. */
export function toolPathOf(uri: vscode.Uri): string {
  const owner = vscode.workspace.getWorkspaceFolder(uri);
  const relative = vscode.workspace.asRelativePath(uri, false);
  if (owner === undefined || (vscode.workspace.workspaceFolders?.length ?? 0) <= 1) return relative;
  return `${toolNameOf(owner)}/${relative}`;
}
