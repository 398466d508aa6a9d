// `tandem.showMcpServers`: a quick pick of every MCP server with its status,
// kept live while open; each item has restart and disable/enable buttons, and
// choosing one offers the same actions plus its tools (each switched on or
// off), trusting its read-only hints, its config file and the log.
import * as vscode from 'vscode';
import type { McpHub } from '../mcp/mcpHub';
import type { McpServerStatus } from '../mcp/mcpServerStatus';
import type { McpToolSwitches } from '../mcp/mcpToolSwitches';
import { IMPORT_MCP_SERVERS_COMMAND } from './mcpImport';

export interface McpPickerHost {
  readonly hub: McpHub;
  readonly configErrors: () => readonly string[];
  readonly showLog: () => void;
  /** Called after a server was disabled or enabled (the host persists the choice). */
  readonly afterToggle: () => Promise<void>;
  readonly clearInputs: () => Promise<void>;
  /** Attaches a resource to the next message (a context chip in the panel). */
  readonly attach: (item: { readonly server: { readonly name: string; readonly source: string }; readonly uri: string; readonly label: string }) => void;
  /** Starts the browser sign-in of a remote server. */
  readonly signIn: (server: { readonly name: string; readonly source: string }) => Promise<void>;
  /** Applies and persists the tool switches. */
  readonly setToolSwitches: (switches: McpToolSwitches) => Promise<void>;
}

type Action = 'signIn' | 'attach' | 'restart' | 'toggle' | 'tools' | 'trust' | 'openConfig' | 'showLog' | 'import' | 'clearInputs';

interface ServerItem extends vscode.QuickPickItem {
  readonly status?: McpServerStatus;
  readonly action?: Action;
}

const restartButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('debug-restart'), tooltip: 'Restart' };
const disableButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: 'Disable' };
const enableButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('play'), tooltip: 'Enable' };
const signInButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('sign-in'), tooltip: 'Sign in' };

export async function showMcpServersPicker(host: McpPickerHost): Promise<void> {
  const picker = vscode.window.createQuickPick<ServerItem>();
  picker.title = 'Tandem: MCP Servers';
  picker.placeholder = 'Choose a server for its actions';
  picker.matchOnDescription = true;
  const refresh = (): void => {
    picker.items = items(host.hub, host.configErrors());
  };
  refresh();
  const subscription = host.hub.onDidChangeStatus(refresh);

  const chosen = await new Promise<ServerItem | undefined>((resolve) => {
    picker.onDidTriggerItemButton(async ({ item, button }) => {
      if (item.status === undefined) return;
      await run(host, item.status, button === signInButton ? 'signIn' : button === restartButton ? 'restart' : 'toggle');
    });
    picker.onDidAccept(() => {
      resolve(picker.selectedItems[0]);
      picker.hide();
    });
    picker.onDidHide(() => resolve(undefined));
    picker.show();
  });
  subscription.dispose();
  picker.dispose();
  if (chosen === undefined) return;
  if (chosen.status === undefined) {
    if (chosen.action !== undefined) await runGeneral(host, chosen.action);
    return;
  }
  await showServerActions(host, chosen.status);
}

function items(hub: McpHub, configErrors: readonly string[]): ServerItem[] {
  const statuses = hub.statuses();
  const result: ServerItem[] = statuses.map((status) => ({
    label: `${icon(status)} ${status.name}`,
    description: describe(status, hub),
    detail: status.error === undefined ? status.source : `${status.error}${lastLine(status)}`,
    status,
    buttons: [...(status.state === 'signInRequired' ? [signInButton] : []), restartButton, status.state === 'disabled' ? enableButton : disableButton],
  }));
  if (statuses.length === 0) result.push({ label: 'No MCP servers are configured', description: 'add .vscode/mcp.json or the tandem.mcp.servers setting' });
  for (const fault of configErrors) result.push({ label: '$(warning) Configuration problem', detail: fault, action: 'showLog' });
  result.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(cloud-download) Import servers from a Claude Desktop config…', action: 'import' },
    { label: '$(key) Forget stored MCP input values', action: 'clearInputs' },
    { label: '$(output) Show the log', action: 'showLog' },
  );
  return result;
}

async function showServerActions(host: McpPickerHost, status: McpServerStatus): Promise<void> {
  const actions: (vscode.QuickPickItem & { action: Action })[] = [
    ...(status.state === 'signInRequired' ? [{ label: '$(sign-in) Sign in', description: 'opens the sign-in page in your browser', action: 'signIn' as const }] : []),
    { label: '$(debug-restart) Restart', action: 'restart' },
    status.state === 'disabled' ? { label: '$(play) Enable', action: 'toggle' } : { label: '$(circle-slash) Disable', action: 'toggle' },
  ];
  const server = { name: status.name, source: status.source };
  const tools = host.hub.serverTools(server);
  if (tools.length > 0) {
    const on = tools.filter((tool) => tool.enabled).length;
    actions.push({ label: '$(tools) Choose the tools offered to the model…', description: `${on} of ${tools.length} on`, action: 'tools' });
  }
  const resources = host.hub.resources().filter((each) => each.server.name === status.name && each.server.source === status.source);
  if (resources.length > 0) {
    actions.push({ label: '$(paperclip) Attach a resource to the next message…', description: `${resources.length} resource${resources.length === 1 ? '' : 's'}`, action: 'attach' });
  }
  actions.push(
    host.hub.toolSwitches().isTrusted(server)
      ? { label: '$(shield) Stop trusting its read-only hints', description: 'its tools ask again unless autoApprove says otherwise', action: 'trust' }
      : { label: '$(shield) Trust its read-only hints', description: 'tools it marks read-only run without asking under autoApprove "readOnly"', action: 'trust' },
    { label: '$(output) Show the log', action: 'showLog' },
  );
  if (status.source !== 'settings') actions.push({ label: '$(go-to-file) Open the configuration file', description: status.source, action: 'openConfig' });
  else actions.push({ label: '$(settings-gear) Open the tandem.mcp.servers setting', action: 'openConfig' });
  const tail = status.stderrTail.slice(-3).join(' | ');
  const picked = await vscode.window.showQuickPick(actions, {
    title: `MCP server "${status.name}": ${describe(status, host.hub)}`,
    placeHolder: status.error ?? (tail === '' ? undefined : `stderr: ${tail}`),
  });
  if (picked !== undefined) await run(host, status, picked.action);
}

async function run(host: McpPickerHost, status: McpServerStatus, action: Action): Promise<void> {
  const key = { name: status.name, source: status.source };
  switch (action) {
    case 'signIn':
      await host.signIn({ name: status.name, source: status.source });
      return;
    case 'restart':
      await host.hub.restart(key);
      return;
    case 'toggle':
      await host.hub.setDisabled(key, status.state !== 'disabled');
      await host.afterToggle();
      return;
    case 'tools':
      await chooseTools(host, status);
      return;
    case 'attach':
      await chooseResource(host, status);
      return;
    case 'trust': {
      const server = { name: status.name, source: status.source };
      const index = host.hub.toolSwitches();
      await host.setToolSwitches(index.withTrust(server, !index.isTrusted(server)));
      return;
    }
    case 'openConfig':
      if (status.source === 'settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'tandem.mcp.servers');
      else await vscode.window.showTextDocument(vscode.Uri.file(status.source));
      return;
    default:
      await runGeneral(host, action);
  }
}

/** A pick of the server's resources; the chosen one becomes a context chip. */
async function chooseResource(host: McpPickerHost, status: McpServerStatus): Promise<void> {
  const resources = host.hub.resources().filter((each) => each.server.name === status.name && each.server.source === status.source);
  const picked = await vscode.window.showQuickPick(
    resources.map((each) => ({ label: each.resource.title ?? each.resource.name, description: each.resource.uri, detail: each.resource.mimeType, item: each })),
    { title: `MCP server "${status.name}": attach a resource to the next message`, matchOnDescription: true },
  );
  if (picked === undefined) return;
  host.attach({ server: picked.item.server, uri: picked.item.resource.uri, label: picked.label });
}

/** A multi-select of the server's tools: ticked ones are offered to the model. */
async function chooseTools(host: McpPickerHost, status: McpServerStatus): Promise<void> {
  const server = { name: status.name, source: status.source };
  const tools = host.hub.serverTools(server);
  const trusted = host.hub.toolSwitches().isTrusted(server);
  const items = tools.map((tool) => ({
    label: tool.name,
    description: [tool.title, tool.readOnlyHint ? (trusted ? 'read-only' : 'says read-only (server not trusted)') : undefined].filter(Boolean).join(' · '),
    picked: tool.enabled,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `MCP server "${status.name}": tools offered to the model`,
    placeHolder: 'Ticked tools are offered; the others are never sent to the model',
    canPickMany: true,
  });
  if (picked === undefined) return;
  const enabled = new Set(picked.map((item) => item.label));
  await host.setToolSwitches(host.hub.toolSwitches().withEnabledTools(server, tools.map((tool) => tool.name), enabled));
}

async function runGeneral(host: McpPickerHost, action: Action): Promise<void> {
  if (action === 'showLog') host.showLog();
  if (action === 'import') await vscode.commands.executeCommand(IMPORT_MCP_SERVERS_COMMAND);
  if (action === 'clearInputs') {
    await host.clearInputs();
    void vscode.window.showInformationMessage('Tandem: stored MCP input values were forgotten; servers ask again when they restart.');
  }
}

function icon(status: McpServerStatus): string {
  switch (status.state) {
    case 'connected':
      return '$(pass-filled)';
    case 'starting':
      return '$(loading~spin)';
    case 'error':
      return '$(error)';
    case 'disabled':
      return '$(circle-slash)';
    case 'signInRequired':
      return '$(lock)';
    default:
      return '$(circle-outline)';
  }
}

function describe(status: McpServerStatus, hub: McpHub): string {
  const parts: string[] = [status.state === 'signInRequired' ? 'sign-in required' : status.state];
  if (status.transport !== undefined) parts.push(status.transport);
  if (status.toolCount !== undefined) parts.push(`${status.toolCount} tool${status.toolCount === 1 ? '' : 's'}`);
  const server = { name: status.name, source: status.source };
  const off = hub.serverTools(server).filter((tool) => !tool.enabled).length;
  if (off > 0) parts.push(`${off} off`);
  if (hub.toolSwitches().isTrusted(server)) parts.push('read-only hints trusted');
  return parts.join(' · ');
}

function lastLine(status: McpServerStatus): string {
  const line = status.stderrTail.at(-1);
  return line === undefined || status.error?.includes(line) ? '' : ` — ${line}`;
}
