// The AG-UI endpoint without VS Code: the workspace tools on one folder (plain
// Node host), the MCP servers of its .vscode/mcp.json and of the settings
// file only when allowed (the headless form of consent), approvals by policy
// with everything that would ask turned into an interrupt.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { AutoApprovePolicy } from '../agent/policyApprovalGate';
import { readBoundedTextFile } from '../common/boundedFile';
import { ConfigurationError } from '../common/errors';
import { AgUiRunner } from '../agui/agUiRunner';
import { createAgUiServer, listenOnLoopback } from '../agui/agUiServer';
import type { McpHub } from '../mcp/mcpHub';
import { McpRunStart } from '../mcp/mcpRunStart';
import { mcpStartNotices } from '../mcp/mcpStartNotices';
import { problemsKnownBeforeRequests } from '../models/modelUsability';
import { createChatModel, firstByteTimeoutFor } from '../models/openAiChatModel';
import { EditJournal } from '../tools/editJournal';
import { NodeWorkspaceHost } from '../tools/nodeWorkspaceHost';
import type { Tool } from '../tools/tool';
import { readWorkspaceRules } from '../tools/workspaceRules';
import { customAgentForRun } from '../agent/customAgentRun';
import { loadCustomAgent, withCustomAgent } from '../tools/customAgents';
import { createWorkspaceTools } from '../tools/workspaceTools';
import { createFetchUrlTool } from '../tools/fetchUrlTool';
import { loadSettingsFile } from './settingsFile';
import { rootsOf } from '../mcp/mcpRoots';

export interface HeadlessOptions {
  readonly folder: string;
  readonly port?: number | undefined;
  readonly settingsFile?: string | undefined;
  readonly token?: string | undefined;
  readonly allowMcp?: boolean | undefined;
  readonly approve?: AutoApprovePolicy | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Diagnostics (stderr in the CLI); never the token. */
  readonly log?: ((line: string) => void) | undefined;
}

export interface HeadlessAgent {
  readonly url: string;
  readonly token: string;
  /** True when the token was generated (the CLI prints it). */
  readonly generatedToken: boolean;
  close(): Promise<void>;
}

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

async function startMcp(folder: string, servers: Record<string, unknown>, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<McpHub> {
  const { McpHub } = await import('../mcp/mcpHub');
  const { MCP_CONFIG_BYTE_LIMIT, parseMcpConfigText, parseMcpServersSetting } = await import('../mcp/mcpConfig');
  const hub = new McpHub({ env, log: (line) => log(`mcp: ${line}`), clientIdentity: { name: 'tandem-headless', version: '0.1.0' }, roots: () => rootsOf([{ path: folder }]) });
  const file = path.join(folder, '.vscode', 'mcp.json');
  const definitions = [];
  const faults: string[] = [];
  const text = await readBoundedTextFile(file, MCP_CONFIG_BYTE_LIMIT, 'an mcp.json').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') faults.push(`${file}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  if (text !== undefined) {
    const parsed = parseMcpConfigText(text, file, folder);
    definitions.push(...parsed.servers);
    faults.push(...parsed.errors);
  }
  const fromSettings = parseMcpServersSetting(servers, folder);
  definitions.push(...fromSettings.servers);
  faults.push(...fromSettings.errors);
  for (const fault of faults) log(`mcp: ${fault}`);
  await hub.update(definitions);
  for (const status of hub.statuses()) log(`mcp: ${status.name}: ${status.state}${status.error ? ` (${status.error})` : ''}`);
  return hub;
}

const NO_KEY_HINT =
  ' Set OPENAI_API_KEY in the environment of `npm run agui`, or point tandem.functionCallModel.baseUrl (in the --settings file) at an OpenAI-compatible server, e.g. Ollama at http://127.0.0.1:11434/v1.';

export async function startHeadlessAgent(options: HeadlessOptions): Promise<HeadlessAgent> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const folder = path.resolve(options.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`--folder ${options.folder} is not a directory.`);
  const loaded = loadSettingsFile(options.settingsFile, env);
  for (const warning of loaded.warnings) log(`settings: ${warning}`);
  const settings = loaded.agent;
  for (const model of [settings.functionCallModel, settings.answerModel]) {
    // VS Code's language models exist only inside VS Code.
    if (model.provider === 'vscode') throw new ConfigurationError('provider "vscode" (VS Code\'s language models) works only inside VS Code; set provider "openai" and a baseUrl for the headless server.');
  }
  const apiKey = env['OPENAI_API_KEY'] || undefined;
  // Said at start, and again to each run's client, before any request: a run can only fail until it is fixed.
  const modelProblems = problemsKnownBeforeRequests({ ...settings, functionCallModel: { ...settings.functionCallModel, apiKey }, answerModel: { ...settings.answerModel, apiKey } });
  const modelsUnusable = modelProblems.length === 0 ? undefined : modelProblems.map((problem) => `${problem.message}${problem.reason === 'noKey' ? NO_KEY_HINT : ''}`).join(' ');
  if (modelsUnusable) log(`models: ${modelsUnusable}`);
  const host = new NodeWorkspaceHost({ folders: [folder], ripgrep: 'path', sensitivePaths: [...settings.sensitivePaths, ...settings.rulesFiles], log: (line) => log(`tools: ${line}`) });
  // fetch_url as in a trusted VS Code workspace (the folder is the one the user chose to serve): each site asks first.
  const workspaceTools: readonly Tool[] = [...createWorkspaceTools(host, new EditJournal(host)), createFetchUrlTool({ isTrusted: () => true })];
  let hub: McpHub | undefined;
  let runStart: McpRunStart | undefined;
  if (options.allowMcp) hub = await startMcp(folder, settings.mcpServers, env, log);
  else if (existsSync(path.join(folder, '.vscode', 'mcp.json')) || Object.keys(settings.mcpServers).length > 0) {
    log('mcp: servers are configured but not started; pass --allow-mcp to start them.');
  }
  const tools = (): readonly Tool[] => (settings.mode === 'chat' ? [] : [...workspaceTools, ...(hub?.tools() ?? [])]);
  const policy = options.approve ?? settings.autoApprove;
  const runner = new AgUiRunner({
    serverToolNames: () => new Set([...workspaceTools, ...(hub?.tools() ?? [])].map((tool) => tool.name)),
    prepare: async (_input, notice) => {
      // Before anything starts for a run that can only fail.
      if (modelsUnusable) throw new ConfigurationError(modelsUnusable);
      // As in VS Code: a run waits for a server restarting after a crash, retries one that failed, and hears of a failure once.
      if (hub !== undefined && settings.mode !== 'chat') await (runStart ??= new McpRunStart(hub)).forRun(async () => undefined, mcpStartNotices((code, message, level) => notice(code, message, level)));
      const modelOptions = { firstByteTimeoutMs: firstByteTimeoutFor(settings.maxExecutionSeconds) };
      const functionCallModel = createChatModel({ ...settings.functionCallModel, apiKey }, modelOptions);
      const answerModel = settings.singleModel ? functionCallModel : createChatModel({ ...settings.answerModel, apiKey }, modelOptions);
      // The repository's rules and custom agent, as the panel reads them: read anew for each run.
      const agent = await customAgentForRun(settings, tools(), (name) => loadCustomAgent([{ path: folder }], name), notice);
      const rules = withCustomAgent(agent.agent, await readWorkspaceRules([{ folder, label: '' }], settings.rulesFiles));
      return { settings: agent.settings, functionCallModel, answerModel, tools: agent.tools, policy, rules, log: settings.verbose ? log : undefined };
    },
    log,
  });
  const token = options.token ?? generateToken();
  const server = createAgUiServer({ token, allowedOrigins: loaded.agui.allowedOrigins, runner, log });
  const { url } = await listenOnLoopback(server, options.port ?? (loaded.aguiPortSet ? loaded.agui.port : 0));
  return {
    url,
    token,
    generatedToken: options.token === undefined,
    close: async () => {
      server.endOpenRuns('The AG-UI server is shutting down; the run was stopped.');
      runner.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await hub?.dispose();
    },
  };
}
