// `tandem.importMcpServers`: picks a Claude-Desktop style JSON file and adds
// its `mcpServers` to a folder's `.vscode/mcp.json` (comments kept) or to the
// `tandem.mcp.servers` user setting. Existing names are never overwritten.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Log } from './outputLog';

export const IMPORT_MCP_SERVERS_COMMAND = 'tandem.importMcpServers';

/** Keeps an imported secret where `${input:id}` of that file will find it. */
export type StoreImportedSecret = (file: string, id: string, value: string) => Promise<void>;

export async function importMcpServers(log: Log, storeSecret: StoreImportedSecret): Promise<void> {
  const { importClaudeDesktopConfig, mergeServersIntoMcpJson } = await import('../mcp/claudeDesktopImport');
  const defaultFile = claudeDesktopConfigPath();
  const picked = await vscode.window.showOpenDialog({
    title: 'Import MCP servers from a Claude Desktop config',
    canSelectMany: false,
    filters: { JSON: ['json'] },
    ...(defaultFile === undefined ? {} : { defaultUri: vscode.Uri.file(defaultFile) }),
  });
  const file = picked?.[0];
  if (file === undefined) return;
  const imported = importClaudeDesktopConfig(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), file.fsPath);
  for (const fault of imported.errors) log.warn(`mcp import: ${fault}`);
  const names = Object.keys(imported.servers);
  if (names.length === 0) {
    void vscode.window.showWarningMessage(`Tandem: no MCP servers found in ${file.fsPath}.${imported.errors[0] === undefined ? '' : ` ${imported.errors[0]}`}`);
    return;
  }

  const targets = [
    ...(vscode.workspace.workspaceFolders ?? []).map((folder) => ({ label: `$(folder) ${folder.name}`, description: '.vscode/mcp.json', folder })),
    { label: '$(settings-gear) User settings', description: 'tandem.mcp.servers', folder: undefined },
  ];
  const target = targets.length === 1 ? targets[0] : await vscode.window.showQuickPick(targets, { title: `Add ${names.length} MCP server(s) where?` });
  if (target === undefined) return;

  let added: readonly string[];
  let skipped: readonly string[];
  if (target.folder !== undefined) {
    const uri = vscode.Uri.joinPath(target.folder.uri, '.vscode', 'mcp.json');
    const existing = await vscode.workspace.fs.readFile(uri).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => '',
    );
    const merged = mergeServersIntoMcpJson(existing, imported.servers, imported.inputs);
    // Secrets go to SecretStorage first: the file only names them as password inputs.
    await storeSecrets(imported.secrets, merged.added, uri.fsPath, imported.servers, storeSecret);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(merged.text));
    ({ added, skipped } = merged);
  } else {
    const configuration = vscode.workspace.getConfiguration('tandem');
    const current = { ...(configuration.inspect<Record<string, unknown>>('mcp.servers')?.globalValue ?? {}) };
    skipped = names.filter((name) => name in current);
    added = names.filter((name) => !(name in current));
    for (const name of added) current[name] = imported.servers[name];
    await storeSecrets(imported.secrets, added, 'settings', imported.servers, storeSecret);
    await configuration.update('mcp.servers', current, vscode.ConfigurationTarget.Global);
  }
  const message = `Tandem: imported ${added.length} MCP server(s)${added.length > 0 ? ` (${added.join(', ')})` : ''}${skipped.length > 0 ? `; kept the existing ${skipped.join(', ')}` : ''}.`;
  log.info(`mcp import from ${file.fsPath}: added ${added.join(', ') || 'none'}; skipped ${skipped.join(', ') || 'none'}`);
  void vscode.window.showInformationMessage(message);
}

async function storeSecrets(
  secrets: Readonly<Record<string, string>>,
  added: readonly string[],
  file: string,
  servers: Record<string, Record<string, unknown>>,
  storeSecret: StoreImportedSecret,
): Promise<void> {
  const used = JSON.stringify(added.map((name) => servers[name]));
  for (const [id, value] of Object.entries(secrets)) if (used.includes(`\${input:${id}}`)) await storeSecret(file, id, value);
}

/** Where Claude Desktop keeps its config on this OS (the dialog starts there). */
function claudeDesktopConfigPath(): string | undefined {
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (process.platform === 'win32') return process.env['APPDATA'] === undefined ? undefined : path.join(process.env['APPDATA'], 'Claude', 'claude_desktop_config.json');
  return path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
}
