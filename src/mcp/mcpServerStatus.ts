/** Lifecycle of one MCP server as the hub sees it. */
export type McpServerState = 'starting' | 'connected' | 'error' | 'disabled' | 'stopped';

/** A snapshot of one server's status; the panel and the quick pick render it. */
export interface McpServerStatus {
  readonly name: string;
  readonly state: McpServerState;
  readonly transport: 'stdio' | 'http' | 'sse' | undefined;
  readonly toolCount: number | undefined;
  readonly error: string | undefined;
  readonly stderrTail: readonly string[];
  /** The config file path the server came from, or 'settings'. */
  readonly source: string;
}
