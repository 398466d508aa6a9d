// MCP in VS Code: reads `.vscode/mcp.json` in every workspace folder and the
// `tandem.mcp.servers` setting, watches both, and hands the result to the hub,
// which reconnects only what changed. Activation stays cheap: the config
// parser (zod, jsonc-parser) and the MCP SDK load after activation returns.
import * as vscode from 'vscode';
import type { McpServerDefinition } from '../mcp/mcpConfig';
import { McpHub, type McpServerKey } from '../mcp/mcpHub';
import { IMPORT_MCP_SERVERS_COMMAND, importMcpServers } from './mcpImport';
import { VscodeInputResolver } from './mcpInputs';
import { showMcpServersPicker } from './mcpServersPicker';
import type { Log } from './outputLog';

const disabledStateKey = 'tandem.mcpDisabledServers';
const reloadDelayMs = 150;

export interface McpHostService {
  readonly hub: McpHub;
  /** The `tandem.showMcpServers` quick pick (status, restart, disable, import). */
  showServers(): Promise<void>;
  /** Reads the configuration again now (also done on every change). */
  reload(): Promise<void>;
  /** Config faults of the last load (file and fault named), for the panel or a test. */
  configErrors(): readonly string[];
  /** Ends every server; the promise settles when their processes are gone (deactivate may await it). */
  dispose(): Promise<void>;
}

/** The parts of the ExtensionContext MCP uses. */
export type McpHostContext = Pick<vscode.ExtensionContext, 'subscriptions' | 'secrets' | 'workspaceState'>;

export function createMcpHostService(context: McpHostContext, log: Log): McpHostService {
  const inputs = new VscodeInputResolver(context.secrets, context.workspaceState);
  const manifest = vscode.extensions.getExtension('tandem-dev.tandem')?.packageJSON as { version?: unknown } | undefined;
  const version = String(manifest?.version ?? '0.0.0');
  const hub = new McpHub({ inputResolver: inputs, log: (line) => log.info(`mcp: ${line}`), clientIdentity: { name: 'tandem', version } });
  hub.setDisabledKeys(context.workspaceState.get<McpServerKey[]>(disabledStateKey) ?? []);
  const disposables: vscode.Disposable[] = [];
  let watchers: vscode.Disposable[] = [];
  let errors: readonly string[] = [];
  const shownErrors = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let loading: Promise<void> = Promise.resolve();
  let disposed = false;
  /** The servers of each file's last readable version: saving a half-edited file does not stop them. */
  const lastGood = new Map<string, readonly McpServerDefinition[]>();

  const load = async (): Promise<void> => {
    const { parseMcpConfigText, parseMcpServersSetting } = await import('../mcp/mcpConfig');
    const folders = vscode.workspace.workspaceFolders ?? [];
    const definitions: McpServerDefinition[] = [];
    const faults: string[] = [];
    if (vscode.workspace.isTrusted) {
      for (const folder of folders) {
        const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
        let text: string | undefined;
        try {
          text = await readText(uri);
        } catch (error) {
          faults.push(`${uri.fsPath}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (text === undefined) {
          lastGood.delete(uri.fsPath);
          continue;
        }
        const file = parseMcpConfigText(text, uri.fsPath, folder.uri.fsPath);
        const unreadable = file.servers.length === 0 && file.errors.length > 0;
        if (!unreadable) lastGood.set(uri.fsPath, file.servers);
        else if (lastGood.has(uri.fsPath)) faults.push(`${uri.fsPath}: keeping its previous servers until the file is fixed.`);
        definitions.push(...(unreadable ? (lastGood.get(uri.fsPath) ?? []) : file.servers));
        faults.push(...file.errors);
      }
    } else if (folders.length > 0) {
      log.info('mcp: the workspace is not trusted; servers from .vscode/mcp.json are not started.');
    }
    // Only the user's own value: a workspace's tandem.mcp.servers needs the user's consent like its mcp.json.
    const userServers = vscode.workspace.getConfiguration('tandem').inspect('mcp.servers')?.globalValue;
    const setting = parseMcpServersSetting(userServers, folders[0]?.uri.fsPath);
    // Restricted Mode: no MCP server at all, not even the user's own.
    if (vscode.workspace.isTrusted) {
      definitions.push(...setting.servers);
      faults.push(...setting.errors);
    }
    errors = faults;
    reportFaults(faults, definitions);
    if (!disposed) await hub.update(definitions);
  };

  // A fault is shown once until it goes away; it stays in the log and the quick pick.
  const reportFaults = (faults: readonly string[], definitions: readonly McpServerDefinition[]): void => {
    const current = new Set([...faults, ...definitions.flatMap((definition) => (definition.type === 'invalid' ? [definition.error] : []))]);
    for (const fault of current) {
      log.warn(`mcp: ${fault}`);
      if (!shownErrors.has(fault)) void vscode.window.showWarningMessage(`Tandem MCP: ${fault}`);
    }
    shownErrors.clear();
    for (const fault of current) shownErrors.add(fault);
  };

  const reload = (): Promise<void> => {
    loading = loading.then(load).catch((error: unknown) => log.error(`mcp: loading the configuration failed: ${String(error)}`));
    return loading;
  };
  const scheduleReload = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void reload();
    }, reloadDelayMs);
  };

  const watchFolders = (): void => {
    for (const watcher of watchers) watcher.dispose();
    watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.vscode/mcp.json'));
      watcher.onDidCreate(scheduleReload);
      watcher.onDidChange(scheduleReload);
      watcher.onDidDelete(scheduleReload);
      return watcher;
    });
  };
  watchFolders();

  disposables.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('tandem.mcp.servers')) scheduleReload();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watchFolders();
      scheduleReload();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(scheduleReload),
  );
  registerImportCommand(disposables, log, () => reload());

  const persistDisabled = async (): Promise<void> => {
    const disabled = hub.statuses().filter((status) => status.state === 'disabled');
    await context.workspaceState.update(disabledStateKey, disabled.map((status) => ({ name: status.name, source: status.source })));
  };

  // Start after activation returns: nothing of this is on the activation path.
  timer = setTimeout(() => {
    timer = undefined;
    void reload();
  }, 0);

  const service: McpHostService = {
    hub,
    reload,
    configErrors: () => errors,
    showServers: () =>
      showMcpServersPicker({
        hub,
        configErrors: () => errors,
        showLog: () => log.show(),
        afterToggle: persistDisabled,
        clearInputs: () => inputs.clear(),
      }),
    dispose: async () => {
      if (disposed) return hub.dispose();
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const disposable of [...disposables, ...watchers]) disposable.dispose();
      await hub.dispose();
    },
  };
  context.subscriptions.push(service);
  return service;
}

/**
 * Registers the import command unless this extension host already has it (a
 * second service, as in the extension-host tests, shares the first one's).
 */
function registerImportCommand(disposables: vscode.Disposable[], log: Log, reload: () => Promise<void>): void {
  try {
    disposables.push(
      vscode.commands.registerCommand(IMPORT_MCP_SERVERS_COMMAND, async () => {
        try {
          await importMcpServers(log);
          await reload();
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.error(`mcp: import failed: ${message}`);
          void vscode.window.showErrorMessage(`Tandem: ${message}`);
        }
      }),
    );
  } catch (error) {
    log.debug(`mcp: ${IMPORT_MCP_SERVERS_COMMAND} is already registered: ${String(error)}`);
  }
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}
