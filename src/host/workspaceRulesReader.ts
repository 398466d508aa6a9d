// The rules of the open workspace: every folder on disk, each named in a
// multi-root workspace. The panel's runs and the AG-UI endpoint's read them alike.
import * as vscode from 'vscode';
import type { RulesRoot } from '../tools/rulesFiles';
import { readWorkspaceRules, type WorkspaceRules } from '../tools/workspaceRules';

export function workspaceRulesNow(patterns: readonly string[]): Promise<WorkspaceRules> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  const roots: RulesRoot[] = folders.map((folder) => ({ folder: folder.uri.fsPath, label: folders.length > 1 ? folder.name : '' }));
  return readWorkspaceRules(roots, patterns);
}
