// "Always allow" from an approval card: adds the key to the user's own
// (global) `tandem.tools.alwaysAllow`, never to a workspace's settings, which
// the user does not carry to other folders and a repository could ship.
import * as vscode from 'vscode';

export async function addToAlwaysAllow(key: string): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('tandem');
  const current = configuration.inspect<unknown>('tools.alwaysAllow')?.globalValue;
  const entries = Array.isArray(current) ? current.filter((entry): entry is string => typeof entry === 'string') : [];
  if (entries.includes(key)) return;
  await configuration.update('tools.alwaysAllow', [...entries, key], vscode.ConfigurationTarget.Global);
}
