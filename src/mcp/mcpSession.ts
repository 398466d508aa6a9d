// Opens one MCP client session over stdio, Streamable HTTP or SSE. The SDK is
// imported on first use so that loading the extension stays cheap.
import { maskUrl } from './mcpRedaction';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** A server description with every variable already resolved. */
export type ResolvedServer =
  | {
      readonly type: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string | undefined;
    }
  | { readonly type: 'http' | 'sse'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export interface SessionHooks {
  /** One line of the server's stderr (stdio only). */
  onStderrLine(line: string): void;
  /** The connection ended (process exit, stream closed, or our own close). */
  onClose(): void;
  /** The server said its tool list changed. */
  onToolListChanged(): void;
  log(line: string): void;
}

export interface McpSession {
  readonly client: Client;
  readonly transport: McpTransportKind;
  /** The server process id (stdio only). */
  readonly processId: number | undefined;
  close(): Promise<void>;
}

export interface ClientIdentity {
  readonly name: string;
  readonly version: string;
}

export async function openSession(
  server: ResolvedServer,
  identity: ClientIdentity,
  hooks: SessionHooks,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<McpSession> {
  if (server.type === 'stdio') return connect(await stdioTransport(server, hooks), 'stdio', identity, hooks, timeoutMs, signal);
  if (server.type === 'sse') return connect(await sseTransport(server), 'sse', identity, hooks, timeoutMs, signal);
  const { StreamableHTTPError } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  try {
    return await connect(await streamableTransport(server), 'http', identity, hooks, timeoutMs, signal);
  } catch (error) {
    // Servers on the 2024-11-05 protocol answer the Streamable HTTP POST with a 4xx; they speak SSE.
    const status = error instanceof StreamableHTTPError ? error.code : undefined;
    if (status === undefined || status < 400 || status >= 500 || signal.aborted) throw error;
    hooks.log(`Streamable HTTP answered ${status}; trying SSE at ${maskUrl(server.url)}`);
    try {
      return await connect(await sseTransport(server), 'sse', identity, hooks, timeoutMs, signal);
    } catch (sseError) {
      throw new Error(`Streamable HTTP answered ${status} and SSE failed too: ${describeError(sseError)}`, { cause: sseError });
    }
  }
}

async function connect(
  transport: Transport & { readonly pid?: number | null },
  kind: McpTransportKind,
  identity: ClientIdentity,
  hooks: SessionHooks,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<McpSession> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client(
    { name: identity.name, version: identity.version },
    // autoRefresh off: the hub lists the tools itself (with pagination).
    { capabilities: {}, listChanged: { tools: { autoRefresh: false, debounceMs: 100, onChanged: () => hooks.onToolListChanged() } } },
  );
  client.onclose = () => hooks.onClose();
  client.onerror = (error) => hooks.log(`transport error: ${describeError(error)}`);
  const close = async (): Promise<void> => {
    // A Streamable HTTP session is ended explicitly (DELETE), so the server can free it.
    const terminate = (transport as { terminateSession?: () => Promise<void> }).terminateSession;
    if (kind === 'http' && terminate !== undefined) {
      await terminate.call(transport).catch((error: unknown) => hooks.log(`ending the HTTP session failed: ${describeError(error)}`));
    }
    await client.close().catch((error: unknown) => hooks.log(`close failed: ${describeError(error)}`));
  };
  try {
    await client.connect(transport, { timeout: timeoutMs, signal });
  } catch (error) {
    await close();
    throw error;
  }
  return { client, transport: kind, processId: transport.pid ?? undefined, close };
}

async function stdioTransport(server: Extract<ResolvedServer, { type: 'stdio' }>, hooks: SessionHooks): Promise<Transport> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    env: { ...server.env },
    stderr: 'pipe',
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  });
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    const lines = (pending + chunk.toString()).split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') hooks.onStderrLine(line);
  });
  transport.stderr?.on('end', () => {
    if (pending.trim() !== '') hooks.onStderrLine(pending);
    pending = '';
  });
  return transport;
}

async function streamableTransport(server: Extract<ResolvedServer, { type: 'http' | 'sse' }>): Promise<Transport> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { ...server.headers } } });
}

async function sseTransport(server: Extract<ResolvedServer, { type: 'http' | 'sse' }>): Promise<Transport> {
  const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
  return new SSEClientTransport(new URL(server.url), { requestInit: { headers: { ...server.headers } } });
}

/** A one-line reason, with the OS error code when there is one (ENOENT, ECONNREFUSED). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  let text = error.message;
  if (typeof code === 'string' && !text.includes(code)) text += ` (${code})`;
  if (cause !== undefined && !text.includes(cause.message)) text += `: ${cause.message}`;
  if (typeof causeCode === 'string' && !text.includes(causeCode)) text += ` (${causeCode})`;
  return text;
}
