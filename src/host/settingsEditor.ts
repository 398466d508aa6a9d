// Opens the Settings editor at a setting, on the tab where its value comes
// from: a value the workspace sets wins over the user's, so showing the User
// tab would offer to fix a value that is not the one in force.
import * as vscode from 'vscode';

/** Whether the workspace's value of a key it sets is in force (a guarded value may be ignored: settingsConsent.ts). */
export type WorkspaceValueInForce = (key: string) => boolean;

/**
 * `query` is a full key (`tandem.functionCallModel.baseUrl`) or a prefix
 * (`tandem.`), which opens the User tab. Without `inForce`, a value the
 * workspace sets counts as in force.
 */
export async function openSettingWhereSet(query: string, inForce?: WorkspaceValueInForce): Promise<void> {
  const setByWorkspace = query.startsWith('tandem.') && query.length > 'tandem.'.length && setInWorkspace(query) && (inForce?.(query) ?? true);
  await vscode.commands.executeCommand(setByWorkspace ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openSettings', query);
}

function setInWorkspace(key: string): boolean {
  // In Restricted Mode the workspace's values of Tandem's restricted settings are not read: the user's is in force.
  if (!vscode.workspace.isTrusted) return false;
  const found = vscode.workspace.getConfiguration().inspect(key);
  return found?.workspaceValue !== undefined || found?.workspaceFolderValue !== undefined;
}
