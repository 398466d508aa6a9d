// The workspace's custom agents (src/tools/customAgents.ts), read from its
// local folders as they are now: for the picker, and at the start of each run
// (the panel's and the AG-UI endpoint's).
import * as vscode from 'vscode';
import { loadCustomAgent, loadCustomAgents, type CustomAgent } from '../tools/customAgents';

function localFolders(): { path: string; name: string }[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => ({ path: folder.uri.fsPath, name: folder.name }));
}

export function workspaceCustomAgents(): Promise<CustomAgent[]> {
  return loadCustomAgents(localFolders());
}

export function workspaceCustomAgent(name: string): Promise<CustomAgent | undefined> {
  return loadCustomAgent(localFolders(), name);
}
