// Opens a workspace file a link in the panel names (the answer's
// `[app.js](lib/app.js#L12)`): in an editor at that line, or a folder in the
// Explorer. The path is the model's text, so it is held to the tools' scope:
// nothing outside the workspace folders is opened.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { resolveScopedPath, scopeFolders } from '../tools/pathScope';
import { VscodeWorkspaceHost } from './workspaceVscodeHost';

export async function openWorkspaceLink(target: string, line: number | undefined): Promise<void> {
  const scoped = await resolveScopedPath(target, await scopeFolders(new VscodeWorkspaceHost().folders()));
  if (!scoped.ok) {
    void vscode.window.showInformationMessage(`Tandem: the link does not open: ${scoped.message}`);
    return;
  }
  if (!scoped.exists) {
    // A path naming no folder was looked for in each of them.
    const missing = scoped.alsoLookedIn === undefined ? `${scoped.display} does not exist in the workspace` : `${scoped.relative} is in no workspace folder`;
    void vscode.window.showInformationMessage(`Tandem: ${missing}.`);
    return;
  }
  const uri = vscode.Uri.file(scoped.absolute);
  if ((await stat(scoped.absolute)).isDirectory()) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(uri, { preview: true, selection: line === undefined ? undefined : new vscode.Range(position, position) });
}
