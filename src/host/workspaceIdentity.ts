// A stable key for the open workspace: a hash of its .code-workspace file or
// its folders. Conversations and trust decisions are kept under it rather than
// in `storageUri`, whose identity changed between two starts of code-server
// on the same folder.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';

export function workspaceKey(): string {
  const identity =
    vscode.workspace.workspaceFile?.toString() ??
    (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString()).join('|');
  return identity ? createHash('sha256').update(identity).digest('hex').slice(0, 24) : 'no-workspace';
}
