// MCP in VS Code: reads `.vscode/mcp.json` in every workspace folder and the
// `tandem.mcp.servers` setting, watches both, and hands the result to the hub,
// which reconnects only what changed. Activation stays cheap: the config
// parser (zod, jsonc-parser) and the MCP SDK load after activation returns.
// Nothing starts before the first agent run (startForRun), and a server a
// workspace defines starts only once the user allowed its exact definition.
import * as vscode from 'vscode';
import { boundedFileRefusal, FileRefusal } from '../common/boundedFile';
import type { McpServerDefinition } from '../mcp/mcpConfig';
import { McpHub, type McpServerKey } from '../mcp/mcpHub';
import { McpSignIn } from '../mcp/mcpSignIn';
import { McpRunStart, type McpStartProgress } from '../mcp/mcpRunStart';
import { secretOAuthStore } from './mcpOAuthSecrets';
import { expandSlashCommand } from './mcpPromptCommands';
import type { ContextAttachments } from './contextAttachments';
import { mcpResourceAttachment } from './mcpResourceAttachments';
import type { SlashCommand } from '../protocol/webviewMessages';
import { maskUrlsIn } from '../mcp/mcpRedaction';
import type { McpServerStatus } from '../mcp/mcpServerStatus';
import { parseToolSwitches, type McpToolSwitches } from '../mcp/mcpToolSwitches';
import { needsConsent, WORKSPACE_SETTINGS_SOURCE, type StartableDefinition } from '../mcp/mcpServerTrust';
import { IMPORT_MCP_SERVERS_COMMAND, importMcpServers } from './mcpImport';
import { VscodeInputResolver } from './mcpInputs';
import { showMcpServersPicker } from './mcpServersPicker';
import type { Log } from './outputLog';
import { rootsOf } from '../mcp/mcpRoots';

const disabledStateKey = 'tandem.mcpDisabledServers';
const toolSwitchesStateKey = 'tandem.mcpToolSwitches';
const reloadDelayMs = 150;

export interface McpHostService {
  readonly hub: McpHub;
  /** The `tandem.showMcpServers` quick pick (status, restart, disable, import). */
  showServers(): Promise<void>;
  /** Reads the configuration again now (also done on every change). */
  reload(): Promise<void>;
  /** Config faults of the last load (file and fault named), for the panel or a test. */
  configErrors(): readonly string[];
  /**
   * Starts the servers before an agent run: the user's own at once, each
   * workspace-defined one after asking (once per definition). Later reloads
   * start only what was allowed; a new or changed definition waits for the next run.
   * The run waits for servers starting for the first time (each up to its start
   * timeout); one that failed before is tried again without the run waiting.
   */
  startForRun(progress?: McpStartProgress): Promise<void>;
  /** The prompt-box slash commands of the connected servers' prompts. */
  slashCommands(): readonly SlashCommand[];
  /** A `/<server>.<prompt>` line as the prompt's text (asking for arguments); undefined: not one; null: cancelled. */
  expandSlashCommand(text: string): Promise<string | undefined | null>;
  /** Signs in to a remote server (browser, then back through the loopback redirect); resolves when it is up or failed. */
  signIn(server: { readonly name: string; readonly source: string }): Promise<void>;
  /** Forgets every MCP trust decision and stops the workspace's servers (`tandem.resetMcpTrust`). */
  resetTrust(): Promise<void>;
  /** The hub's statuses plus the servers held back: waiting for consent (`stopped`) or not allowed (`disabled`). */
  statuses(): readonly McpServerStatus[];
  onDidChangeStatus(listener: () => void): { dispose(): unknown };
  /** Ends every server; the promise settles when their processes are gone (deactivate may await it). */
  dispose(): Promise<void>;
}

export type { McpStartProgress } from '../mcp/mcpRunStart';

/** The parts of the ExtensionContext MCP uses. */
export type McpHostContext = Pick<vscode.ExtensionContext, 'subscriptions' | 'secrets' | 'workspaceState'>;

/** The user's decisions about workspace-defined servers (McpTrustStore in the extension). */
export interface McpServerTrust {
  decision(definition: StartableDefinition): 'allow' | 'deny' | undefined;
  ask(definition: StartableDefinition): Promise<boolean>;
  reset(): Promise<void>;
}

export interface McpHostOptions {
  readonly trust: McpServerTrust;
  /** A workspace's `tandem.mcp.servers` value, when the user allowed the workspace's settings. */
  readonly workspaceSettingServers?: (() => unknown) | undefined;
  /** The next message's context chips, where an attached resource goes. */
  readonly attachments?: ContextAttachments | undefined;
}

export function createMcpHostService(context: McpHostContext, log: Log, options: McpHostOptions): McpHostService {
  const inputs = new VscodeInputResolver(context.secrets, context.workspaceState);
  const manifest = vscode.extensions.getExtension('tandem-dev.tandem')?.packageJSON as { version?: unknown } | undefined;
  const version = String(manifest?.version ?? '0.0.0');
  // Resolved URLs may carry credentials or tokens: the log never shows them.
  const signIn = new McpSignIn({
    clientName: 'Tandem',
    storeFor: (definition) => secretOAuthStore(context.secrets, definition),
    openBrowser: async (url) => {
      if (!(await vscode.env.openExternal(vscode.Uri.parse(url.toString(), true)))) throw new Error('the browser was not opened');
    },
    log: (line) => log.info(`mcp: ${line}`),
  });
  const hub = new McpHub({
    inputResolver: inputs,
    log: (line) => log.info(`mcp: ${maskUrlsIn(line)}`),
    clientIdentity: { name: 'tandem', version },
    services: (definition) => signIn.services(definition),
    // The workspace's folders on this machine, as MCP roots: a server such as the filesystem server works on them.
    roots: () => rootsOf((vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => ({ path: folder.uri.fsPath, name: folder.name }))),
  });
  hub.setDisabledKeys(context.workspaceState.get<McpServerKey[]>(disabledStateKey) ?? []);
  const storedSwitches = parseToolSwitches(context.workspaceState.get(toolSwitchesStateKey));
  hub.setToolSwitches(storedSwitches);
  if (storedSwitches.trustedServers.length + storedSwitches.disabledTools.length > 0) {
    log.info(`mcp: tool switches restored: ${storedSwitches.trustedServers.length} server(s) trusted, ${storedSwitches.disabledTools.length} tool(s) off`);
  }
  const disposables: vscode.Disposable[] = [];
  let watchers: vscode.Disposable[] = [];
  let errors: readonly string[] = [];
  const shownErrors = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let loading: Promise<void> = Promise.resolve();
  let disposed = false;
  /** The servers of each file's last readable version: saving a half-edited file does not stop them. */
  const lastGood = new Map<string, readonly McpServerDefinition[]>();
  /** Every definition of the last load; `apply` decides which of them run. */
  let configured: readonly McpServerDefinition[] = [];
  /** False until the first agent run: nothing starts at activation or when the panel opens. */
  let started = false;
  /** Workspace servers not started, shown next to the hub's statuses. */
  let heldBack: readonly McpServerStatus[] = [];
  const statusListeners = new Set<() => void>();
  /** Servers whose failure a run was told of, until they connect. */
  const runStart = new McpRunStart(hub);

  const load = async (retryFailed = true): Promise<void> => {
    const { MCP_CONFIG_BYTE_LIMIT, parseMcpConfigText, parseMcpServersSetting } = await import('../mcp/mcpConfig');
    const folders = vscode.workspace.workspaceFolders ?? [];
    const definitions: McpServerDefinition[] = [];
    const faults: string[] = [];
    if (vscode.workspace.isTrusted) {
      for (const folder of folders) {
        const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
        let text: string | undefined;
        let unreadable = false;
        try {
          text = await readMcpConfig(uri, MCP_CONFIG_BYTE_LIMIT);
        } catch (error) {
          unreadable = true;
          faults.push(`${uri.fsPath}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (text === undefined) {
          // A file that is there but cannot be read is treated as one that cannot be parsed; a deleted one takes its servers with it.
          const previous = unreadable ? lastGood.get(uri.fsPath) : undefined;
          if (previous !== undefined) {
            faults.push(`${uri.fsPath}: keeping its previous servers until the file is fixed.`);
            definitions.push(...previous);
          } else lastGood.delete(uri.fsPath);
          continue;
        }
        const file = parseMcpConfigText(text, uri.fsPath, folder.uri.fsPath);
        const unparsable = file.servers.length === 0 && file.errors.length > 0;
        if (!unparsable) lastGood.set(uri.fsPath, file.servers);
        else if (lastGood.has(uri.fsPath)) faults.push(`${uri.fsPath}: keeping its previous servers until the file is fixed.`);
        definitions.push(...(unparsable ? (lastGood.get(uri.fsPath) ?? []) : file.servers));
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
      const workspaceSetting = options.workspaceSettingServers?.();
      if (workspaceSetting !== undefined) {
        const fromWorkspace = parseMcpServersSetting(workspaceSetting, folders[0]?.uri.fsPath);
        definitions.push(...fromWorkspace.servers.map((definition) => ({ ...definition, source: WORKSPACE_SETTINGS_SOURCE })));
        faults.push(...fromWorkspace.errors.map((fault) => fault.replace(/^settings:/, `${WORKSPACE_SETTINGS_SOURCE}:`)));
      }
    }
    errors = faults;
    reportFaults(faults, definitions);
    configured = definitions;
    if (!disposed && started) await apply(false, retryFailed);
    else if (!started) showNotStarted();
  };

  /** Before the first agent run every configured server is shown as not started yet. */
  const showNotStarted = (): void => {
    heldBack = configured.flatMap((definition): McpServerStatus[] =>
      definition.type === 'invalid'
        ? []
        : [
            {
              name: definition.name,
              state: 'stopped',
              transport: definition.type,
              toolCount: undefined,
              error: needsConsent(definition) ? 'Starts on the first agent run, once you allow it.' : 'Starts on the first agent run.',
              stderrTail: [],
              source: definition.source,
            },
          ],
    );
    for (const listener of statusListeners) listener();
  };

  /** Hands the hub what may start: user servers, and workspace servers the user allowed (asking when `ask`). */
  const apply = async (ask: boolean, retryFailed = true): Promise<void> => {
    const allowed: McpServerDefinition[] = [];
    const held: McpServerStatus[] = [];
    const hold = (definition: StartableDefinition, state: 'stopped' | 'disabled', error: string): void => {
      held.push({ name: definition.name, state, transport: definition.type, toolCount: undefined, error, stderrTail: [], source: definition.source });
    };
    for (const definition of configured) {
      if (definition.type === 'invalid' || !needsConsent(definition)) {
        allowed.push(definition);
        continue;
      }
      let decision = options.trust.decision(definition);
      if (decision === undefined && ask) decision = (await options.trust.ask(definition)) ? 'allow' : options.trust.decision(definition);
      if (decision === 'allow') allowed.push(definition);
      else if (decision === undefined) {
        log.info(`mcp: "${definition.name}" from ${definition.source} waits for your consent; Tandem asks on the next agent run.`);
        hold(definition, 'stopped', 'Waits for your consent: Tandem asks on the next agent run.');
      } else {
        log.info(`mcp: "${definition.name}" from ${definition.source} is not allowed; not started (Tandem: Reset MCP Server Trust to be asked again).`);
        hold(definition, 'disabled', 'Not allowed by you; run "Tandem: Reset MCP Server Trust" to be asked again.');
      }
    }
    heldBack = held;
    for (const listener of statusListeners) listener();
    if (!disposed) await hub.update(allowed, retryFailed);
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

  const reload = (retryFailed = true): Promise<void> => {
    loading = loading.then(() => load(retryFailed)).catch((error: unknown) => log.error(`mcp: loading the configuration failed: ${String(error)}`));
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
      // A consent given for the workspace's settings is picked up by the next run's reload.
      if (event.affectsConfiguration('tandem.mcp.servers')) scheduleReload();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watchFolders();
      scheduleReload();
      void hub.rootsChanged();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(scheduleReload),
  );
  registerImportCommand(disposables, log, () => reload(), (file, id, value) => inputs.storeSecret(file, id, value));

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
    statuses: () => [...hub.statuses(), ...heldBack],
    onDidChangeStatus: (listener) => {
      statusListeners.add(listener);
      const fromHub = hub.onDidChangeStatus(() => listener());
      return {
        dispose: () => {
          statusListeners.delete(listener);
          fromHub.dispose();
        },
      };
    },
    startForRun: async (progress) => {
      if (disposed || !vscode.workspace.isTrusted) return;
      started = true;
      await runStart.forRun(async () => {
        // Reading the configuration starts what is new or changed, and the run waits for it.
        await reload(false);
        loading = loading.then(() => apply(true, false)).catch((error: unknown) => log.error(`mcp: starting the servers failed: ${String(error)}`));
        await loading;
      }, progress);
    },
    slashCommands: () =>
      hub.promptCommands().map(({ command, prompt }) => ({
        command,
        description: prompt.description ?? prompt.title,
        arguments: prompt.arguments.map((argument) => argument.name),
      })),
    expandSlashCommand: (text) => expandSlashCommand(hub, text),
    signIn: async (server) => {
      await signIn.signIn(hub, server);
      const status = hub.statuses().find((each) => each.name === server.name && each.source === server.source);
      if (status?.state === 'connected') void vscode.window.showInformationMessage(`Tandem: signed in to MCP server "${server.name}".`);
      else if (status !== undefined) void vscode.window.showWarningMessage(`Tandem: signing in to MCP server "${server.name}" did not complete: ${status.error ?? status.state}`);
    },
    resetTrust: async () => {
      await options.trust.reset();
      if (started) await reload();
    },
    showServers: () =>
      showMcpServersPicker({
        hub,
        configErrors: () => errors,
        showLog: () => log.show(),
        afterToggle: persistDisabled,
        setToolSwitches: async (switches: McpToolSwitches) => {
          hub.setToolSwitches(switches);
          await context.workspaceState.update(toolSwitchesStateKey, switches);
          log.info(`mcp: tool switches: ${switches.trustedServers.length} server(s) trusted, off: ${switches.disabledTools.map((item) => `${item.server.name}/${item.tool}`).join(', ') || 'none'}`);
        },
        clearInputs: () => inputs.clear(),
        attach: (item) => options.attachments?.attach(mcpResourceAttachment(item, hub)),
        signIn: (server) => service.signIn(server),
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
function registerImportCommand(
  disposables: vscode.Disposable[],
  log: Log,
  reload: () => Promise<void>,
  storeSecret: (file: string, id: string, value: string) => Promise<void>,
): void {
  try {
    disposables.push(
      vscode.commands.registerCommand(IMPORT_MCP_SERVERS_COMMAND, async () => {
        try {
          await importMcpServers(log, storeSecret);
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

/** mcp.json's text, undefined when it does not exist; a repository's FIFO or /dev/zero link there is refused before the read (`limit`: mcpConfig.ts, imported lazily). */
async function readMcpConfig(uri: vscode.Uri, limit: number): Promise<string | undefined> {
  try {
    const info = await vscode.workspace.fs.stat(uri);
    const refusal = boundedFileRefusal((info.type & vscode.FileType.File) !== 0, info.size, limit, 'an mcp.json');
    if (refusal !== undefined) throw new FileRefusal(refusal);
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}
