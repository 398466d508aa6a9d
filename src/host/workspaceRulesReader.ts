// The rules of the open workspace: every folder on disk, each named in a
// multi-root workspace. The panel's runs and the AG-UI endpoint's read them alike.
import type { RulesRoot } from '../tools/rulesFiles';
import { readWorkspaceRules, type WorkspaceRules } from '../tools/workspaceRules';
import { namedWorkspaceFolders } from './workspaceFolderNames';

export function workspaceRulesNow(patterns: readonly string[]): Promise<WorkspaceRules> {
  const folders = namedWorkspaceFolders();
  const roots: RulesRoot[] = folders.map(({ folder, name }) => ({ folder: folder.uri.fsPath, label: folders.length > 1 ? name : '' }));
  return readWorkspaceRules(roots, patterns);
}
