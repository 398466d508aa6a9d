// The workspace's custom agents (src/tools/customAgents.ts), read from its
// local folders as they are now: for the picker, and at the start of each run
// (the panel's and the AG-UI endpoint's).
import * as vscode from 'vscode';
import { loadCustomAgents, type CustomAgent } from '../tools/customAgents';

export function workspaceCustomAgents(): Promise<CustomAgent[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  return loadCustomAgents(folders.map((folder) => ({ path: folder.uri.fsPath, name: folder.name })));
}

export async function workspaceCustomAgent(name: string): Promise<CustomAgent | undefined> {
  return (await workspaceCustomAgents()).find((agent) => agent.name === name);
}
