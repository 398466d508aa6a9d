// Composition root: wires the pieces and nothing else. Activation stays cheap:
// the panel host (loop, model client, zod) loads on first use through dynamic
// imports, which esbuild keeps lazy inside the one bundle.
import * as vscode from 'vscode';
import type { ChatViewProvider } from './host/chatViewProvider';
import { registerCommands } from './host/commands';
import { OutputLog } from './host/outputLog';

export function activate(context: vscode.ExtensionContext): void {
  const log = new OutputLog();
  context.subscriptions.push(log);

  let panel: Promise<ChatViewProvider> | undefined;
  const loadPanel = () =>
    (panel ??= (async () => {
      const [{ ChatViewProvider }, { createWorkspaceToolsForVscode }] = await Promise.all([
        import('./host/chatViewProvider'),
        import('./host/workspaceToolsEntry'),
      ]);
      const workspaceTools = createWorkspaceToolsForVscode(context, (line) => log.info(line));
      const provider = await ChatViewProvider.create(context, log, { toolSources: () => workspaceTools });
      context.subscriptions.push(provider);
      return provider;
    })());

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('tandem.chat', {
      resolveWebviewView: async (view) => (await loadPanel()).resolveWebviewView(view),
    }),
  );
  registerCommands(context, {
    panel: loadPanel,
    log,
    showMcpServers: async () => {
      void vscode.window.showInformationMessage('Tandem: no MCP servers are configured.');
    },
  });
}

export function deactivate(): void {}
