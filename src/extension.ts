// Composition root: wires the pieces and nothing else. Activation stays cheap:
// the panel host (loop, model client, zod) loads on first use through dynamic
// imports, which esbuild keeps lazy inside the one bundle; MCP starts its
// servers after activation returns.
import * as vscode from 'vscode';
import type { ChatViewProvider } from './host/chatViewProvider';
import { registerCommands } from './host/commands';
import { createMcpHostService } from './host/mcpHostService';
import { OutputLog } from './host/outputLog';

export function activate(context: vscode.ExtensionContext): void {
  const log = new OutputLog();
  context.subscriptions.push(log);
  const mcp = createMcpHostService(context, log);
  context.subscriptions.push(mcp);

  let panel: Promise<ChatViewProvider> | undefined;
  const loadPanel = () =>
    (panel ??= (async () => {
      const [{ ChatViewProvider }, { createWorkspaceToolsForVscode }] = await Promise.all([
        import('./host/chatViewProvider'),
        import('./host/workspaceToolsEntry'),
      ]);
      const workspace = createWorkspaceToolsForVscode(context, (line) => log.info(line));
      const provider = await ChatViewProvider.create(context, log, {
        toolSources: () => ({
          tools: () => [...workspace.tools(), ...mcp.hub.tools()],
          approvalGateFor: (runId, policy) => workspace.approvalGateFor(runId, policy),
          editedFiles: (runId) => workspace.editedFiles(runId),
          revertRun: (runId) => workspace.revertRun(runId),
        }),
        mcp: mcp.hub,
      });
      context.subscriptions.push(provider);
      return provider;
    })());

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('tandem.chat', {
      resolveWebviewView: async (view) => (await loadPanel()).resolveWebviewView(view),
    }),
  );
  registerCommands(context, { panel: loadPanel, log, showMcpServers: () => mcp.showServers() });
}

export function deactivate(): void {}
