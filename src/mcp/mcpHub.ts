// The MCP hub: owns one connection per configured server, reconnects only
// what changed when the configuration changes, and offers every connected
// server's tools to the agent as `<server>__<tool>`. Plain Node, no vscode.
import type { Tool, ToolContext, ToolProvider, ToolResult } from '../tools/tool';
import type { McpServerDefinition } from './mcpConfig';
import { connectionKey, McpConnection, type McpConnectionOptions, type McpToolInfo } from './mcpConnection';
import type { McpServerStatus } from './mcpServerStatus';
import type { ClientIdentity } from './mcpSession';
import { assignToolNames } from './mcpToolName';
import { sanitizeToolSchema } from './mcpToolSchema';
import { definitionStamp, needsConsent } from './mcpServerTrust';
import type { McpPromptInfo } from './mcpPrompts';
import type { McpResourceInfo } from './mcpResources';
import { NO_TOOL_SWITCHES, ToolSwitchIndex, type McpServerRef, type McpToolSwitches } from './mcpToolSwitches';
import type { InputResolver } from './mcpVariables';

export interface McpHubOptions {
  /** Asks for `${input:id}` values; without one, servers that need inputs fail with a clear error. */
  readonly inputResolver?: InputResolver | undefined;
  /** Environment stdio servers inherit and `${env:NAME}` reads; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** Per-call timeout when a server sets no `timeout`; default 60 s. Progress resets it. */
  readonly defaultTimeoutMs?: number | undefined;
  /** Limit for a server's MCP handshake and tool listing; default 30 s. */
  readonly startTimeoutMs?: number | undefined;
  /** Delay before the one automatic restart of a crashed server; default 1 s. */
  readonly restartDelayMs?: number | undefined;
  /** How long a legacy SSE session must have worked for an idle stream cut to reconnect without counting as a crash; default 10 s. */
  readonly idleCutMinSessionMs?: number | undefined;
  readonly clientIdentity?: ClientIdentity | undefined;
  /** Sign-in and elicitation per server (absent: neither is offered). */
  readonly services?: McpConnectionOptions['services'];
  /** The workspace's folders, offered to every server as MCP roots (absent: roots are not offered). */
  readonly roots?: McpConnectionOptions['roots'];
}

export interface Disposable {
  dispose(): void;
}

/** Identifies a server: its name, and its source when two sources use the same name. */
export interface McpServerKey {
  readonly name: string;
  readonly source?: string | undefined;
}

export class McpHub implements ToolProvider {
  private readonly connections = new Map<string, McpConnection>();
  private readonly disabled = new Set<string>();
  private readonly statusListeners = new Set<(statuses: readonly McpServerStatus[]) => void>();
  private readonly toolListeners = new Set<() => void>();
  private cachedTools: readonly Tool[] | undefined;
  private toolSignature = '';
  private switches = new ToolSwitchIndex(NO_TOOL_SWITCHES);
  private disposed = false;

  constructor(private readonly options: McpHubOptions = {}) {}

  /**
   * Applies a configuration: starts new servers, restarts changed ones, stops
   * removed ones; unchanged servers keep running. Resolves when every started
   * server is connected or has failed. A server that failed before is tried
   * again with `retryFailed` (a changed configuration: perhaps its command was
   * just installed); a run starting leaves that to `restart`, unawaited.
   */
  async update(definitions: readonly McpServerDefinition[], retryFailed = true): Promise<void> {
    if (this.disposed) return;
    const wanted = new Map(definitions.map((definition) => [connectionKey(definition.name, definition.source), definition]));
    const work: Promise<void>[] = [];
    for (const [key, connection] of this.connections) {
      const definition = wanted.get(key);
      if (definition !== undefined && sameDefinition(definition, connection.definition)) {
        if (connection.status.state === 'error' && retryFailed) work.push(connection.start());
        continue;
      }
      this.connections.delete(key);
      work.push(connection.dispose());
    }
    for (const [key, definition] of wanted) {
      if (this.connections.has(key)) continue;
      const connection = this.createConnection(definition);
      this.connections.set(key, connection);
      if (this.disabled.has(key)) work.push(connection.stop('disabled'));
      else work.push(connection.start());
    }
    this.changed();
    await Promise.all(work);
  }

  statuses(): McpServerStatus[] {
    return [...this.connections.values()].map((connection) => connection.status);
  }

  onDidChangeStatus(listener: (statuses: readonly McpServerStatus[]) => void): Disposable {
    this.statusListeners.add(listener);
    return { dispose: () => this.statusListeners.delete(listener) };
  }

  onDidChangeTools(listener: () => void): Disposable {
    this.toolListeners.add(listener);
    return { dispose: () => this.toolListeners.delete(listener) };
  }

  /** The tools of every connected server, named `<server>__<tool>`, unique. */
  tools(): readonly Tool[] {
    if (this.cachedTools !== undefined) return this.cachedTools;
    const entries: { connection: McpConnection; info: McpToolInfo }[] = [];
    for (const connection of this.connections.values()) for (const info of connection.tools) entries.push({ connection, info });
    // One order whatever the servers' start order: names (collision suffixes included) stay the
    // same across restarts, and the tool list is a stable prompt prefix for caching.
    entries.sort((a, b) => compareEntries(a.connection, a.info, b.connection, b.info));
    const names = assignToolNames(entries.map(({ connection, info }) => ({ server: connection.definition.name, tool: info.name })));
    // Names are given before tools switched off are left out, so switching one off renames no other.
    const tools = entries.flatMap(({ connection, info }, index) => {
      const server = serverRef(connection);
      if (!this.switches.isToolEnabled(server, info.name)) return [];
      return [mcpTool(names[index] ?? info.name, connection, info, this.switches.isTrusted(server))];
    });
    // No cap here: a run offers at most 128 tools in all, workspace tools first (agent/toolLimit.ts).
    this.cachedTools = tools;
    return this.cachedTools;
  }

  /** The user's tool switches (off tools, trusted read-only hints); the next tools() follows them. */
  setToolSwitches(switches: McpToolSwitches): void {
    this.switches = new ToolSwitchIndex(switches);
    this.changed();
  }

  toolSwitches(): ToolSwitchIndex {
    return this.switches;
  }

  /** Every tool a connected server lists, switched off or not, in name order. */
  serverTools(server: McpServerKey): readonly { readonly name: string; readonly title: string | undefined; readonly readOnlyHint: boolean; readonly enabled: boolean }[] {
    const connection = this.find(server);
    if (connection === undefined) return [];
    const ref = serverRef(connection);
    return [...connection.tools]
      .sort((a, b) => compareText(a.name, b.name))
      .map((info) => ({ name: info.name, title: info.title, readOnlyHint: info.annotations?.readOnlyHint === true, enabled: this.switches.isToolEnabled(ref, info.name) }));
  }

  /** Every connected server's prompts as slash commands `<server>.<prompt>`, sorted; the first of a duplicate wins. */
  promptCommands(): readonly McpPromptCommand[] {
    const commands = new Map<string, McpPromptCommand>();
    const connections = [...this.connections.values()].sort((a, b) => compareText(a.definition.name, b.definition.name) || compareText(a.definition.source, b.definition.source));
    for (const connection of connections) {
      for (const prompt of connection.prompts) {
        const command = `${commandPart(connection.definition.name)}.${commandPart(prompt.name)}`;
        if (!commands.has(command)) commands.set(command, { command, server: connection.definition.name, prompt });
      }
    }
    return [...commands.values()].sort((a, b) => compareText(a.command, b.command));
  }

  /** Every connected server's listed resources, by server then URI. */
  resources(): readonly McpServerResource[] {
    const result: McpServerResource[] = [];
    for (const connection of this.connections.values()) {
      for (const resource of connection.resources) result.push({ server: serverRef(connection), resource });
    }
    return result.sort((a, b) => compareText(a.server.name, b.server.name) || compareText(a.resource.uri, b.resource.uri));
  }

  /** One resource's contents as text, from the server that lists it. */
  async readResource(server: McpServerRef, uri: string, signal: AbortSignal): Promise<string> {
    const connection = this.find(server);
    if (connection === undefined) throw new Error(`MCP server "${server.name}" is not configured.`);
    return connection.readResource(uri, signal);
  }

  /** The text of the prompt behind a slash command, filled in with `args`. */
  async runPromptCommand(command: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<string> {
    const found = this.promptCommands().find((each) => each.command === command);
    if (found === undefined) throw new Error(`No MCP prompt /${command}.`);
    const connection = [...this.connections.values()].find((each) => each.definition.name === found.server && each.prompts.includes(found.prompt));
    if (connection === undefined) throw new Error(`MCP server "${found.server}" is not running.`);
    return connection.getPrompt(found.prompt.name, args, signal);
  }

  async restart(server: McpServerKey): Promise<void> {
    const connection = this.find(server);
    if (connection === undefined) return;
    this.disabled.delete(connection.key);
    await connection.start();
  }

  /** Resolves once none of `servers` is starting any more (restarting after a crash included). */
  async whenStarted(servers: readonly McpServerKey[]): Promise<void> {
    await Promise.all(servers.map((server) => this.find(server)?.settled()));
  }

  async setDisabled(server: McpServerKey, disabled: boolean): Promise<void> {
    const connection = this.find(server);
    if (connection === undefined) return;
    if (disabled) {
      this.disabled.add(connection.key);
      await connection.stop('disabled');
    } else {
      this.disabled.delete(connection.key);
      await connection.start();
    }
  }

  /** Servers to keep disabled across updates (the host restores them from workspace state). */
  setDisabledKeys(servers: readonly McpServerKey[]): void {
    for (const server of servers) if (server.source !== undefined) this.disabled.add(connectionKey(server.name, server.source));
  }

  /** The stdio server's process id, for diagnostics and fault tests. */
  processId(server: McpServerKey): number | undefined {
    return this.find(server)?.processId;
  }

  /** Ends every server. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.dispose()));
    this.statusListeners.clear();
    this.toolListeners.clear();
  }

  private find(server: McpServerKey): McpConnection | undefined {
    if (server.source !== undefined) return this.connections.get(connectionKey(server.name, server.source));
    return [...this.connections.values()].find((connection) => connection.definition.name === server.name);
  }

  private createConnection(definition: McpServerDefinition): McpConnection {
    return new McpConnection(definition, {
      env: this.options.env ?? process.env,
      inputResolver: this.options.inputResolver,
      identity: this.options.clientIdentity ?? { name: 'tandem', version: '0.1.0' },
      defaultTimeoutMs: this.options.defaultTimeoutMs ?? 60_000,
      startTimeoutMs: this.options.startTimeoutMs ?? 30_000,
      restartDelayMs: this.options.restartDelayMs ?? 1_000,
      idleCutMinSessionMs: this.options.idleCutMinSessionMs,
      log: this.options.log ?? (() => undefined),
      onDidChange: () => this.changed(),
      services: this.options.services,
      roots: this.options.roots,
    });
  }

  /** The workspace's folders changed: every connected server is told (it asks for the roots again). */
  async rootsChanged(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.rootsChanged()));
  }

  private changed(): void {
    if (this.disposed) return;
    this.cachedTools = undefined;
    const statuses = this.statuses();
    for (const listener of this.statusListeners) listener(statuses);
    const signature = this.tools()
      .map((tool) => tool.name)
      .join('\n');
    if (signature !== this.toolSignature) {
      this.toolSignature = signature;
      for (const listener of this.toolListeners) listener();
    }
  }
}

/** A resource and the server that lists it. */
export interface McpServerResource {
  readonly server: McpServerRef;
  readonly resource: McpResourceInfo;
}

/** A server's prompt offered in the prompt box as `/<command>`. */
export interface McpPromptCommand {
  readonly command: string;
  readonly server: string;
  readonly prompt: McpPromptInfo;
}

/** A name as one word of a slash command: whitespace becomes '-'. */
function commandPart(name: string): string {
  return name.trim().replace(/\s+/g, '-');
}

function serverRef(connection: McpConnection): McpServerRef {
  return { name: connection.definition.name, source: connection.definition.source };
}

function mcpTool(name: string, connection: McpConnection, info: McpToolInfo, trusted: boolean): Tool {
  const definition = connection.definition;
  const server = definition.name;
  const fromWorkspace = definition.type !== 'invalid' && needsConsent(definition);
  return {
    name,
    description: capDescription(info.description ?? info.title ?? `Tool "${info.name}" of the MCP server "${server}".`),
    parameters: sanitizeToolSchema(info.inputSchema),
    // MCP tools may change things; a server's read-only hint counts only when the user trusts that server.
    readOnly: trusted && info.annotations?.readOnlyHint === true,
    cacheable: definition.cacheable === true,
    source: { kind: 'mcp', server },
    approval: {
      summary: `Run "${displayName(info.name)}" of the MCP server "${server}"${fromWorkspace ? ` (from ${definition.source})` : ''}`,
      // A workspace's server is allowed by its exact definition, as its consent is: another server
      // that takes the same name (in this workspace or another) does not inherit "Always allow".
      alwaysAllowKey: fromWorkspace ? `${name}@${definitionStamp(definition)}` : undefined,
    },
    run: (args: unknown, context: ToolContext): Promise<ToolResult> => connection.callTool(info.name, args, context),
  };
}

/**
 * Characters of an MCP tool's description sent to the model. The server's
 * text goes into every function-call request: without a bound, one server
 * could fill the context window (and the bill) of every run.
 */
export const MCP_DESCRIPTION_CHARS = 4_000;

function capDescription(text: string): string {
  return text.length > MCP_DESCRIPTION_CHARS ? `${text.slice(0, MCP_DESCRIPTION_CHARS)}… (description cut at ${MCP_DESCRIPTION_CHARS} characters)` : text;
}

/**
 * A server's tool name as the approval summary shows it: letters (not modifier letters such as ʺ, nor the
 * Hangul fillers that draw as blanks), digits and `_ . - / :` only, so no quote look-alike, line break or
 * invisible format character (a bidi override reorders what the user reads) passes for the summary's own words.
 * Cut short.
 */
function displayName(name: string): string {
  const plain = name
    .replace(/[^\p{Lu}\p{Ll}\p{Lt}\p{Lo}\p{Nd}_.\-/: ]|[\u115F\u1160\u3164\uFFA0]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 60 ? `${plain.slice(0, 59)}…` : plain;
}

/** Hex characters of the definition hash in a workspace server's always-allow entry (`name@hash`). */

/**
 * The user's own servers first: when a workspace's server has the same name, the user's keeps the
 * plain tool names (and what their always-allow entries cover); the workspace's get the `_2` suffixes.
 */
function compareEntries(a: McpConnection, aTool: McpToolInfo, b: McpConnection, bTool: McpToolInfo): number {
  return (
    Number(needsConsent(a.definition)) - Number(needsConsent(b.definition)) ||
    compareText(a.definition.name, b.definition.name) ||
    compareText(a.definition.source, b.definition.source) ||
    compareText(aTool.name, bTool.name)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameDefinition(a: McpServerDefinition, b: McpServerDefinition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
