// Opens one MCP client session over stdio, Streamable HTTP or SSE. The SDK is
// imported on first use so that loading the extension stays cheap.
import { maskUrl } from './mcpRedaction';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CancelledError } from '../common/errors';
import { descendants, endProcesses } from '../common/processTree';
import { SignInRequiredError, withAuthorization } from './mcpAuthRetry';
import type { ElicitationHandler } from '../tools/elicitation';
import type { SamplingHandler } from '../tools/sampling';
import { answerSampling } from './mcpSamplingRequest';
import { answerElicitation } from './mcpElicitationRequest';
import type { McpRoot } from './mcpRoots';
import { ResponseStreamWatch } from './responseStreamWatch';
import { endSessionOnEventStreamDrop } from './eventStreamDrop';

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
  /** The server said its prompt list changed. */
  onPromptListChanged?(): void;
  /** The server said its resource list changed. */
  onResourceListChanged?(): void;
  /** The transport failed to read or send a message (over stdio: a line on stdout that is not JSON-RPC). */
  onTransportError?(error: Error): void;
  /** A legacy SSE event stream dropped with nothing waiting on it (an idle proxy's cut): the close that follows is no crash. */
  onIdleStreamDrop?(): void;
  log(line: string): void;
}

/** What a session offers the server besides tools: sign-in and questions to the user. */
export interface SessionServices {
  readonly serverName: string;
  /** OAuth for remote servers; a McpOAuthProvider also waits for the browser step. */
  readonly authProvider?: OAuthClientProvider | undefined;
  /** Answers elicitation/create; without it the client does not offer elicitation. */
  readonly elicitation?: ElicitationHandler | undefined;
  /** Answers sampling/createMessage; without it the client does not offer sampling. */
  readonly sampling?: SamplingHandler | undefined;
  /** Answers roots/list (the workspace's folders); without it the client does not offer roots. */
  readonly roots?: (() => readonly McpRoot[]) | undefined;
}

export interface McpSession {
  readonly client: Client;
  /** Runs a request, signing in again (bounded) when the server asks for it mid-session. */
  authorized<T>(request: () => Promise<T>, signal: AbortSignal | undefined): Promise<T>;
  /** Tells the server the roots changed (when roots are offered); it asks for them again. */
  rootsChanged(): Promise<void>;
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
  services: SessionServices = { serverName: identity.name },
): Promise<McpSession> {
  const session = { identity, hooks, timeoutMs, signal, services };
  if (server.type === 'stdio') return connect(await stdioTransport(server, hooks), 'stdio', session);
  const authProvider = services.authProvider;
  if (server.type === 'sse') return connectWithAuth(() => sseTransport(server, authProvider, hooks), 'sse', session);
  const { StreamableHTTPError } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  try {
    return await connectWithAuth(() => streamableTransport(server, authProvider), 'http', session);
  } catch (error) {
    // Servers on the 2024-11-05 protocol answer the Streamable HTTP POST with a 4xx; they speak SSE.
    // 401 is not that: the server wants a sign-in.
    const status = error instanceof StreamableHTTPError ? error.code : undefined;
    if (status === 401) throw new SignInRequiredError('the server answered 401 (Unauthorized).', { cause: error });
    if (status === undefined || status < 400 || status >= 500 || signal.aborted) throw error;
    hooks.log(`Streamable HTTP answered ${status}; trying SSE at ${maskUrl(server.url)}`);
    try {
      return await connectWithAuth(() => sseTransport(server, authProvider, hooks), 'sse', session);
    } catch (sseError) {
      throw new Error(`Streamable HTTP answered ${status} and SSE failed too: ${describeError(sseError)}`, { cause: sseError });
    }
  }
}

interface SessionSetup {
  readonly identity: ClientIdentity;
  readonly hooks: SessionHooks;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly services: SessionServices;
}

type RemoteTransport = Transport & { finishAuth(code: string): Promise<void> };

/** Connects; when the server asks for sign-in, waits for it and connects again on a fresh transport. */
async function connectWithAuth(open: () => Promise<RemoteTransport>, kind: McpTransportKind, setup: SessionSetup): Promise<McpSession> {
  let transport = await open();
  return withAuthorization(
    setup.services.authProvider,
    async (code) => {
      await transport.finishAuth(code);
      transport = await open();
    },
    () => connect(transport, kind, setup),
    setup.signal,
  );
}

async function connect(transport: Transport & { readonly pid?: number | null }, kind: McpTransportKind, setup: SessionSetup): Promise<McpSession> {
  const { identity, hooks, timeoutMs, signal, services } = setup;
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client(
    { name: identity.name, version: identity.version },
    {
      capabilities: {
        ...(services.elicitation !== undefined && { elicitation: { form: {}, url: {} } }),
        ...(services.sampling !== undefined && { sampling: {} }),
        ...(services.roots !== undefined && { roots: { listChanged: true } }),
      },
      // autoRefresh off: the hub lists the tools itself (with pagination).
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 100, onChanged: () => hooks.onToolListChanged() },
        prompts: { autoRefresh: false, debounceMs: 100, onChanged: () => hooks.onPromptListChanged?.() },
        resources: { autoRefresh: false, debounceMs: 100, onChanged: () => hooks.onResourceListChanged?.() },
      },
    },
  );
  const elicitation = services.elicitation;
  if (elicitation !== undefined) await answerElicitation(client, services.serverName, elicitation);
  const sampling = services.sampling;
  if (sampling !== undefined) await answerSampling(client, services.serverName, sampling);
  const roots = services.roots;
  if (roots !== undefined) {
    const { ListRootsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots().map((root) => ({ ...root })) }));
  }
  client.onclose = () => hooks.onClose();
  client.onerror = (error) => {
    hooks.log(`transport error: ${describeError(error)}`);
    hooks.onTransportError?.(error);
  };
  const close = async (): Promise<void> => {
    // A Streamable HTTP session is ended explicitly (DELETE), so the server can free it.
    const terminate = (transport as { terminateSession?: () => Promise<void> }).terminateSession;
    if (kind === 'http' && terminate !== undefined) {
      // A server that never answers the DELETE must not hold up a stop or a reload: closing the transport below aborts it.
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, SESSION_END_WAIT_MS)));
      const ended = terminate.call(transport).catch((error: unknown) => hooks.log(`ending the HTTP session failed: ${describeError(error)}`));
      await Promise.race([ended, gaveUp.then(() => hooks.log(`ending the HTTP session: no answer in ${SESSION_END_WAIT_MS} ms; closing without it`))]);
      clearTimeout(timer);
    }
    // What a stdio server's process started (a wrapper's server) is noted first: the SDK ends only that process.
    const started = kind === 'stdio' && transport.pid ? await descendants(transport.pid) : [];
    await client.close().catch((error: unknown) => hooks.log(`close failed: ${describeError(error)}`));
    if (started.length > 0) await endProcesses(started, DESCENDANT_GRACE_MS);
  };
  // No signal for the handshake: initialize must never be cancelled; stopping closes the transport instead.
  const onAbort = (): void => void close();
  signal.addEventListener('abort', onAbort, { once: true });
  // Nor a timeout of the SDK's: when one fires it sends notifications/cancelled for initialize. Ours closes the transport.
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void close();
  }, timeoutMs);
  const handshakeTimeout = async () => {
    const { ErrorCode, McpError } = await import('@modelcontextprotocol/sdk/types.js');
    return new McpError(ErrorCode.RequestTimeout, `The MCP handshake took longer than ${timeoutMs} ms`);
  };
  try {
    await client.connect(transport, { timeout: timeoutMs + HANDSHAKE_SDK_SLACK_MS });
    // An answer that came while the timeout was closing the connection: the session is closing, so it timed out.
    if (timedOut) throw await handshakeTimeout();
  } catch (error) {
    await close();
    if (signal.aborted) throw new CancelledError();
    if (timedOut) throw await handshakeTimeout();
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  const finishAuth = (transport as Partial<RemoteTransport>).finishAuth;
  return {
    client,
    transport: kind,
    processId: transport.pid ?? undefined,
    close,
    authorized: (request, requestSignal) =>
      finishAuth === undefined ? request() : withAuthorization(services.authProvider, (code) => finishAuth.call(transport, code), request, requestSignal),
    rootsChanged: async () => {
      if (roots !== undefined) await client.sendRootsListChanged();
    },
  };
}

async function stdioTransport(server: Extract<ResolvedServer, { type: 'stdio' }>, hooks: SessionHooks): Promise<Transport> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    env: { ...server.env },
    stderr: 'pipe',
    maxBufferSize: STDIO_MESSAGE_BYTES,
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  });
  // A server's stderr is its own: each line is cut short, and a line that never ends is not held whole.
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    const lines = (pending + chunk.toString()).split(/\r?\n/);
    pending = lines.pop() ?? '';
    if (pending.length > STDERR_LINE_CHARS) pending = pending.slice(0, STDERR_LINE_CHARS + 1);
    for (const line of lines) if (line.trim() !== '') hooks.onStderrLine(cutLine(line));
  });
  transport.stderr?.on('end', () => {
    if (pending.trim() !== '') hooks.onStderrLine(cutLine(pending));
    pending = '';
  });
  return transport;
}

type RemoteServer = Extract<ResolvedServer, { type: 'http' | 'sse' }>;

async function streamableTransport(server: RemoteServer, authProvider: OAuthClientProvider | undefined): Promise<RemoteTransport> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  // A request whose response stream dropped ends at once, not at its timeout (responseStreamWatch.ts).
  const watch = new ResponseStreamWatch({ deliver: (message) => transport.onmessage?.(message) });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { ...server.headers } },
    fetch: watch.fetch,
    ...(authProvider === undefined ? {} : { authProvider }),
  });
  const closeTransport = transport.close.bind(transport);
  transport.close = async () => {
    watch.dispose();
    await closeTransport();
  };
  return transport;
}

async function sseTransport(server: RemoteServer, authProvider: OAuthClientProvider | undefined, hooks: SessionHooks): Promise<RemoteTransport> {
  const { SSEClientTransport, SseError } = await import('@modelcontextprotocol/sdk/client/sse.js');
  const transport = new SSEClientTransport(new URL(server.url), { requestInit: { headers: { ...server.headers } }, ...(authProvider === undefined ? {} : { authProvider }) });
  // A dropped event stream ends the session and what waited on it at once, not at their timeouts (eventStreamDrop.ts).
  endSessionOnEventStreamDrop(transport, { isStreamError: (error) => error instanceof SseError, log: (line) => hooks.log(line), onIdleDrop: () => hooks.onIdleStreamDrop?.() });
  return transport;
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

/** How much later than Tandem's own handshake limit the SDK's would fire (it never should). */
const HANDSHAKE_SDK_SLACK_MS = 60_000;

/** Characters of one stderr line kept (for the log, the status and a failed call's text). */
export const STDERR_LINE_CHARS = 1_000;

function cutLine(line: string): string {
  return line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}… (line cut at ${STDERR_LINE_CHARS} characters)` : line;
}

/**
 * The largest message read from a stdio server: the SDK's default, said
 * here so the call can name it. Not raised: the SDK joins a message's chunks
 * by copying all of them each time, so the time grows with the square of the
 * size (10 MiB took about 1 s here, 33 MiB 10 s, in the extension host's own
 * thread). A longer one closes the connection (the SDK cannot skip it), which
 * the call then reports as too large rather than as a crash.
 */
export const STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The SDK's error for a message past `maxBufferSize`. */
export function isOversizedMessage(error: unknown): boolean {
  return error instanceof Error && /ReadBuffer exceeded maximum size/.test(error.message);
}

/** How long a stdio server's own children get after SIGTERM before SIGKILL, once the server itself is stopped. */
const DESCENDANT_GRACE_MS = 2_000;

/** How long closing an HTTP session waits for the server to answer its DELETE. */
export const SESSION_END_WAIT_MS = 2_000;
