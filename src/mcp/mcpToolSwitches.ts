// The user's switches for MCP tools, kept by the host per workspace: tools
// turned off (never offered to the model) and servers whose `readOnlyHint`
// the user trusts. A server's own word that a tool only reads is a claim by an
// untrusted party: it lets a call run unasked (and be cached) only for a
// server the user marked trusted.

/** One server by name and source (the config file, or 'settings'). */
export interface McpServerRef {
  readonly name: string;
  readonly source: string;
}

export interface McpToolSwitches {
  /** Servers whose read-only hints count for auto-approval. */
  readonly trustedServers: readonly McpServerRef[];
  /** Tools not offered to the model, by the server's own tool name. */
  readonly disabledTools: readonly { readonly server: McpServerRef; readonly tool: string }[];
}

export const NO_TOOL_SWITCHES: McpToolSwitches = { trustedServers: [], disabledTools: [] };

/** Reads stored switches, dropping whatever does not have the right shape (storage is not trusted to be current). */
export function parseToolSwitches(value: unknown): McpToolSwitches {
  if (typeof value !== 'object' || value === null) return NO_TOOL_SWITCHES;
  const record = value as Record<string, unknown>;
  const trustedServers = Array.isArray(record['trustedServers']) ? record['trustedServers'].filter(isServerRef) : [];
  const disabledTools = Array.isArray(record['disabledTools'])
    ? record['disabledTools'].filter(
        (item): item is McpToolSwitches['disabledTools'][number] =>
          typeof item === 'object' && item !== null && isServerRef((item as Record<string, unknown>)['server']) && typeof (item as Record<string, unknown>)['tool'] === 'string',
      )
    : [];
  return { trustedServers, disabledTools };
}

function isServerRef(value: unknown): value is McpServerRef {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['name'] === 'string' && typeof record['source'] === 'string';
}

/** Fast lookups over the switches. */
export class ToolSwitchIndex {
  private readonly trusted: Set<string>;
  private readonly disabled: Set<string>;

  constructor(readonly switches: McpToolSwitches) {
    this.trusted = new Set(switches.trustedServers.map(serverId));
    this.disabled = new Set(switches.disabledTools.map((item) => toolId(item.server, item.tool)));
  }

  isTrusted(server: McpServerRef): boolean {
    return this.trusted.has(serverId(server));
  }

  isToolEnabled(server: McpServerRef, tool: string): boolean {
    return !this.disabled.has(toolId(server, tool));
  }

  /** The switches with `server` trusted or not. */
  withTrust(server: McpServerRef, trusted: boolean): McpToolSwitches {
    const others = this.switches.trustedServers.filter((item) => serverId(item) !== serverId(server));
    return { ...this.switches, trustedServers: trusted ? [...others, { name: server.name, source: server.source }] : others };
  }

  /** The switches with exactly `enabled` of the server's `all` tools on. */
  withEnabledTools(server: McpServerRef, all: readonly string[], enabled: ReadonlySet<string>): McpToolSwitches {
    const others = this.switches.disabledTools.filter((item) => serverId(item.server) !== serverId(server));
    const off = all.filter((tool) => !enabled.has(tool)).map((tool) => ({ server: { name: server.name, source: server.source }, tool }));
    return { ...this.switches, disabledTools: [...others, ...off] };
  }
}

function serverId(server: McpServerRef): string {
  return `${server.source}\u0000${server.name}`;
}

function toolId(server: McpServerRef, tool: string): string {
  return `${serverId(server)}\u0000${tool}`;
}
