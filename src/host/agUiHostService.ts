// The AG-UI endpoint inside VS Code: `tandem.agui.enabled` starts it on
// 127.0.0.1:`tandem.agui.port`, a setting change restarts or stops it, and
// dispose closes it. The bearer token is generated once and kept in
// SecretStorage; `tandem.copyAgUiEndpoint` copies the URL and the token.
// Runs are the panel's loop with the same settings, keys, workspace tools
// and MCP tools; approvals become interrupts for the AG-UI client.
import { randomBytes } from 'node:crypto';
import type { AgUiServer } from '../agui/agUiServer';
import * as vscode from 'vscode';
import { AGUI_SETTING_KEYS, resolveAgUiSettings, type AgUiSettingKey, type AgUiSettings } from '../agui/agUiSettings';
import type { AgentSettings } from '../agent/agentSettings';
import type { AgUiRunner, PrepareNotice } from '../agui/agUiRunner';
import type { Tool } from '../tools/tool';
import type { OutputLog } from './outputLog';
import { ApiKeys } from './secrets';
import { readSettings, withApiKeys } from './settingsReader';

export const COPY_AGUI_ENDPOINT_COMMAND = 'tandem.copyAgUiEndpoint';
const TOKEN_SECRET = 'tandem.agui.token';

export interface AgUiHostService extends vscode.Disposable {
  /** The endpoint's URL while it listens. */
  url(): string | undefined;
  /** Copies the URL and the token (the command); resolves with the URL (never the token), undefined when off. */
  copyEndpoint(): Promise<{ url: string } | undefined>;
  /** Resolves when the last start or stop has settled (tests, deactivate). */
  settled(): Promise<void>;
}

export interface AgUiHostContext {
  readonly secrets: vscode.SecretStorage;
  /** Workspace tools and MCP tools for a run. */
  tools(): readonly Tool[];
  /** Runs before each new AG-UI run (MCP servers start on the first agent run). */
  /** Runs before each run (MCP servers start); what it says reaches the client as notices. */
  readonly beforeRun?: ((settings: AgentSettings, notice: PrepareNotice) => Promise<void>) | undefined;
  /** Whether the user allowed this workspace's guarded setting values (by fingerprint); never asks. */
  readonly settingsAllowed?: ((fingerprint: string) => boolean) | undefined;
}

/**
 * Only the user's own settings count: a workspace must not open a port or
 * widen the allowed origins (the manifest declares these `application` scope).
 */
function readAgUiSettings(log: OutputLog): AgUiSettings {
  const configuration = vscode.workspace.getConfiguration('tandem');
  const raw: Partial<Record<AgUiSettingKey, unknown>> = {};
  for (const key of AGUI_SETTING_KEYS) {
    const value = configuration.inspect(key)?.globalValue;
    if (value !== undefined) raw[key] = value;
  }
  const { settings, warnings } = resolveAgUiSettings(raw);
  for (const warning of warnings) log.warnOnce(warning);
  return settings;
}

/** Restricted Mode (untrusted workspace): read-only workspace tools only, no MCP, no writes. */
function toolsForTrust(tools: readonly Tool[]): readonly Tool[] {
  return vscode.workspace.isTrusted ? tools : tools.filter((tool) => tool.readOnly && tool.network !== true && tool.source.kind === 'workspace');
}

async function tokenFrom(secrets: vscode.SecretStorage): Promise<string> {
  const stored = await secrets.get(TOKEN_SECRET);
  if (stored) return stored;
  const token = randomBytes(32).toString('base64url');
  await secrets.store(TOKEN_SECRET, token);
  return token;
}

export function createAgUiHostService(context: AgUiHostContext, log: OutputLog): AgUiHostService {
  const keys = new ApiKeys(context.secrets);
  let running: { server: AgUiServer; runner: AgUiRunner; url: string; signature: string } | undefined;
  let work: Promise<void> = Promise.resolve();

  const stop = async () => {
    const current = running;
    running = undefined;
    if (!current) return;
    current.server.endOpenRuns('The AG-UI endpoint stopped (its settings changed, or VS Code is closing); the run was stopped.');
    current.runner.dispose();
    current.server.closeAllConnections();
    await new Promise<void>((resolve) => current.server.close(() => resolve()));
    log.info(`agui: stopped ${current.url}`);
  };

  const start = async (settings: AgUiSettings) => {
    const { AgUiRunner } = await import('../agui/agUiRunner');
    const { createAgUiServer, listenOnLoopback } = await import('../agui/agUiServer');
    const token = await tokenFrom(context.secrets);
    const runner = new AgUiRunner({
      serverToolNames: () => new Set(context.tools().map((tool) => tool.name)),
      prepare: async (_input, notice) => {
        const { createModelFor } = await import('./modelFactory');
        const { workspaceRulesNow } = await import('./workspaceRulesReader');
        const { withCustomAgent } = await import('../tools/customAgents');
        const agentSettings = await withApiKeys(readSettings((warning) => log.warnOnce(warning), context.settingsAllowed ?? (() => false)), keys);
        // As the panel's welcome view: a run that can only fail sends nothing, and the client reads why.
        const { problemsKnownBeforeRequests } = await import('../models/modelUsability');
        const problems = problemsKnownBeforeRequests(agentSettings);
        if (problems.length > 0) {
          throw new Error(problems.map((problem) => `${problem.message}${problem.reason === 'noKey' ? ' In VS Code, run "Tandem: Set API Key", or point the base URL at another server.' : ''}`).join(' '));
        }
        await context.beforeRun?.(agentSettings, notice);
        const functionCallModel = createModelFor(agentSettings.functionCallModel, agentSettings.maxExecutionSeconds);
        const answerModel = agentSettings.singleModel ? functionCallModel : createModelFor(agentSettings.answerModel, agentSettings.maxExecutionSeconds);
        // The panel's custom agent works here too: its text in the rules, its tools the only ones.
        const { customAgentForRun } = await import('../agent/customAgentRun');
        const { workspaceCustomAgent } = await import('./workspaceCustomAgents');
        const agent = await customAgentForRun(agentSettings, agentSettings.mode === 'chat' ? [] : toolsForTrust(context.tools()), workspaceCustomAgent, notice);
        return {
          settings: agent.settings,
          functionCallModel,
          answerModel,
          tools: agent.tools,
          policy: agentSettings.autoApprove,
          rules: withCustomAgent(agent.agent, await workspaceRulesNow(agentSettings.rulesFiles)),
          log: agentSettings.verbose ? (line: string) => log.trace(line) : undefined,
        };
      },
      log: (line) => log.info(line),
    });
    const server = createAgUiServer({ token, allowedOrigins: settings.allowedOrigins, runner, log: (line) => log.info(line) });
    try {
      const { url } = await listenOnLoopback(server, settings.port);
      running = { server, runner, url, signature: JSON.stringify(settings) };
      log.info(`agui: listening on ${url}`);
    } catch (error) {
      runner.dispose();
      const message = `Tandem: the AG-UI endpoint could not listen on 127.0.0.1:${settings.port}: ${error instanceof Error ? error.message : String(error)}. Pick another tandem.agui.port.`;
      log.error(message);
      void vscode.window.showErrorMessage(message);
    }
  };

  /** Brings the endpoint in line with the settings, one change at a time. */
  const apply = () => {
    work = work.then(async () => {
      const settings = readAgUiSettings(log);
      const signature = JSON.stringify(settings);
      if (running && settings.enabled && running.signature === signature) return;
      await stop();
      if (settings.enabled) await start(settings);
    });
    work = work.catch((error: unknown) => log.error(`agui: ${error instanceof Error ? error.message : String(error)}`));
    return work;
  };

  const watcher = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('tandem.agui')) void apply();
  });
  void apply();

  return {
    url: () => running?.url,
    settled: () => work,
    copyEndpoint: async () => {
      await work;
      if (!running) {
        const choice = await vscode.window.showInformationMessage('Tandem: the AG-UI endpoint is off (tandem.agui.enabled).', 'Enable');
        if (choice !== 'Enable') return undefined;
        await vscode.workspace.getConfiguration('tandem').update('agui.enabled', true, vscode.ConfigurationTarget.Global);
        await apply();
        if (!running) return undefined;
      }
      const { url } = running;
      const token = await tokenFrom(context.secrets);
      await vscode.env.clipboard.writeText(`${url}\nAuthorization: Bearer ${token}\n`);
      void vscode.window.showInformationMessage(`Tandem: copied the AG-UI endpoint ${url} and its bearer token.`);
      return { url };
    },
    dispose: () => {
      watcher.dispose();
      work = work.then(stop);
    },
  };
}
