/** Lifecycle of one MCP server as the hub sees it. */
/** `signInRequired`: a remote server answered 401 and nobody has signed in yet (Sign in starts the browser step). */
export type McpServerState = 'starting' | 'connected' | 'error' | 'disabled' | 'stopped' | 'signInRequired';

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
