// Composition root: wires the pieces and nothing else. Activation stays cheap
// (its own share, logged as "Activated: own share N ms", is a few ms; what VS
// Code counts besides it is in src/host/activationTiming.ts): activate()
// only registers the view and the commands, and awaits nothing; everything else
// lives in dist/host.js, a bundle of its own that is loaded in a later task,
// after activate() returns: the AG-UI endpoint starts then when enabled, the
// MCP servers on the first agent run, and the panel host (loop, model client,
// zod) on first use. onStartupFinished stays the activation event: AG-UI
// autostart, and a changed tandem.agui.* setting starting or stopping the
// endpoint, need Tandem running without the view being opened, and VS Code has
// no activation event for a setting.
// First import: it timestamps the start of this module's evaluation.
import { codeLoadingLine, extensionHostMarks, moduleLoads, ownActivationLine } from './host/activationTiming';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCommands } from './host/commands';
import type { HostServices } from './host/hostMain';
import { OutputLog } from './host/outputLog';

let host: Promise<HostServices> | undefined;

/** dist/host.js, resolved at run time so esbuild keeps it out of this bundle. */
function loadHostModule(): Promise<typeof import('./host/hostMain')> {
  const file = path.join(__dirname, 'host.js');
  return new Promise((resolve) => resolve(require(file) as typeof import('./host/hostMain')));
}

/** When this module's imports and body finished evaluating. */
const moduleEnd = performance.now();

export function activate(context: vscode.ExtensionContext): void {
  const activateStart = performance.now();
  const log = new OutputLog();
  context.subscriptions.push(log);
  const services = () =>
    (host ??= loadHostModule().then((module) => module.startHost(context, log)));

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('tandem.chat', {
      resolveWebviewView: async (view) => (await (await services()).panel()).resolveWebviewView(view),
    }),
  );
  registerCommands(context, {
    panel: async () => (await services()).panel(),
    log,
    showMcpServers: async () => (await services()).mcp.showServers(),
    resetMcpTrust: async () => (await services()).mcp.resetTrust(),
    copyAgUiEndpoint: async () => (await services()).agui.copyEndpoint(),
    addContext: async (target, targets) => (await services()).context.addContext(target, targets),
    fixRequest: async (uri, range) => (await services()).fixRequest(uri, range),
  });
  const activateEnd = performance.now();
  // Load the host services (AG-UI autostart, the approval commands) without delaying activation.
  setTimeout(() => {
    log.info(ownActivationLine(moduleEnd, activateStart, activateEnd));
    const marks = extensionHostMarks();
    log.info(codeLoadingLine(marks && moduleLoads(marks), context.extension.id));
    services().catch((error: unknown) => log.error(`Tandem failed to start: ${error instanceof Error ? error.message : String(error)}`));
  }, 0);
}

/** Ends the MCP server processes; VS Code awaits the promise. */
export async function deactivate(): Promise<void> {
  const running = host;
  host = undefined;
  if (running) await (await running).dispose();
}
