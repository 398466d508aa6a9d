// The extension's host services, bundled apart from src/extension.ts (as
// dist/host.js) so that activation only parses a few kilobytes. Loaded right
// after activate() returns: it wires the services and starts the AG-UI
// endpoint when it is on; the MCP servers start on the first agent run, and
// the panel host is built on first use.
import * as vscode from 'vscode';
import { createAgUiHostService, type AgUiHostService } from './agUiHostService';
import type { ChatViewProvider } from './chatViewProvider';
import { ContextAttachments } from './contextAttachments';
import { ContextPicker } from './contextPicker';
import { TerminalHistory } from './terminalHistory';
import { FixCodeActions } from './fixCodeActions';
import { fixRequest } from './fixRequest';
import { createMcpHostService, type McpHostService } from './mcpHostService';
import { mcpStartNotices } from '../mcp/mcpStartNotices';
import type { OutputLog } from './outputLog';
import { McpTrustStore } from './mcpTrustStore';
import { SettingsConsentStore } from './settingsConsentStore';
import { readSettings, workspaceMcpServersSetting } from './settingsReader';
import { workspaceValueApplies } from '../agent/settingsConsent';
import { createWorkspaceToolsForVscode } from './workspaceToolsEntry';

export interface HostServices {
  readonly mcp: McpHostService;
  /** The AG-UI endpoint (`tandem.agui.*`). */
  readonly agui: AgUiHostService;
  /** What is attached to the next message (context chips) and how items get there. */
  readonly context: ContextPicker;
  /** Fix with Tandem's message (fixRequest.ts). */
  readonly fixRequest: typeof fixRequest;
  panel(): Promise<ChatViewProvider>;
  dispose(): Promise<void>;
}

export function startHost(context: vscode.ExtensionContext, log: OutputLog): HostServices {
  const settingsConsent = new SettingsConsentStore(context.globalState);
  // Open Setting on a warning shows the tab whose value is in force: an unconsented guarded workspace value is not.
  log.workspaceValueInForce = (key) => workspaceValueApplies(key, readSettings(() => undefined, (fingerprint) => settingsConsent.isAllowed(fingerprint)).ignored);
  // One list of context chips: files, selections and MCP resources alike.
  const attachments = new ContextAttachments();
  const mcp = createMcpHostService(context, log, {
    attachments,
    trust: new McpTrustStore(context.globalState),
    workspaceSettingServers: () => workspaceMcpServersSetting((fingerprint) => settingsConsent.isAllowed(fingerprint)),
  });
  const workspace = createWorkspaceToolsForVscode(context, (line) => log.info(line));
  // What the user's terminals print, from now on: "Terminal" in the @ picker attaches the last command's.
  const terminals = new TerminalHistory(vscode.window);
  context.subscriptions.push(terminals);
  // "Fix with Tandem" in the lightbulb of every problem in a file (the command is registered at activation).
  context.subscriptions.push(vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixCodeActions(), { providedCodeActionKinds: FixCodeActions.kinds }));
  // Attached files are read under the workspace tools' scope and ignore rules.
  const picker = new ContextPicker(attachments, workspace.host, terminals);
  const agui = createAgUiHostService(
    {
      secrets: context.secrets,
      tools: () => [...workspace.tools(), ...mcp.hub.tools()],
      settingsAllowed: (fingerprint) => settingsConsent.isAllowed(fingerprint),
      // As in the panel: MCP servers start on the first agent run.
      beforeRun: async (settings, notice) => {
        // The client hears of a slow or failed server as the panel does (a VS Code command means nothing to it).
        if (settings.mode === 'agent') await mcp.startForRun(mcpStartNotices((code, message, level) => notice(code, message, level)));
      },
    },
    log,
  );
  let panel: Promise<ChatViewProvider> | undefined;
  return {
    mcp,
    agui,
    context: picker,
    fixRequest,
    panel: () =>
      (panel ??= (async () => {
        const { ChatViewProvider } = await import('./chatViewProvider');
        const { PromptFileCommands } = await import('./promptFileCommands');
        const promptFiles = new PromptFileCommands((line) => log.warn(line));
        context.subscriptions.push(promptFiles);
        const provider = await ChatViewProvider.create(context, log, {
          toolSources: () => ({
            // Restricted Mode: the read-only workspace tools only; no edits, commands or MCP.
            tools: () => (vscode.workspace.isTrusted ? [...workspace.tools(), ...mcp.hub.tools()] : workspace.tools().filter((tool) => tool.readOnly && tool.network !== true)),
            approverFor: (runId) => workspace.approverFor(runId),
            editedFiles: (runId) => workspace.editedFiles(runId),
            runEditsSnapshot: (runId) => workspace.runEditsSnapshot(runId),
            revertRun: (runId, stored) => workspace.revertRun(runId, stored),
          }),
          mcp,
          promptFiles,
          context: {
            attachments,
            suggestions: (query) => picker.suggestions(query),
            attachPick: (kind, path) => picker.attachPick(kind, path),
            attachDropped: (uris) => picker.attachDropped(uris),
          },
          settingsConsent,
          // MCP servers start on the first agent run, not at activation or when the panel opens.
          beforeRun: async (settings, notice) => {
            if (settings.mode === 'agent') await mcp.startForRun(mcpStartNotices(notice));
          },
        });
        context.subscriptions.push(provider);
        return provider;
      })()),
    dispose: async () => {
      // The panel, disposed with the extension's subscriptions, stores what arrived since the last save (they come every
      // 1.5 s during a run): the host waits for that write, so a reload loses none of what the panel showed.
      await panel?.then((provider) => provider.settled()).catch((error: unknown) => log.error(`could not store the conversation before closing: ${error instanceof Error ? error.message : String(error)}`));
      agui.dispose();
      await agui.settled();
      workspace.dispose();
      await mcp.dispose();
    },
  };
}
