// The AG-UI endpoint over HTTP: POST a RunAgentInput to /agui with a bearer
// token, read the run's events as SSE — or in @ag-ui/encoder's binary framing
// when the Accept header names its media type. Listens on 127.0.0.1 only.
// Refusals: 401 token, 403 host/origin, 404/405 route, 413 size, 400 input.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGUI_MEDIA_TYPE, EventEncoder } from '@ag-ui/encoder';
import type { AgentEvent } from '../protocol/agentEvents';
import type { AgUiRunner } from './agUiRunner';
import { checkBearer, checkHost, corsHeaders, HttpRefusal, readBody, sendJson, sendRefusal } from './httpGuards';
import { parseRunInput } from './runInput';

export const AGUI_PATH = '/agui';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface AgUiServerOptions {
  readonly token: string;
  readonly allowedOrigins: readonly string[];
  readonly runner: Pick<AgUiRunner, 'run' | 'serverToolNames'>;
  readonly maxBodyBytes?: number;
  readonly log?: ((line: string) => void) | undefined;
  /** An SSE comment goes out after this long without an event (default 15 s). */
  readonly keepAliveMs?: number;
}

/**
 * A quiet SSE stream (a run waiting on an approval or a long tool) is kept
 * open with comment lines, which clients skip: proxies and HTTP clients drop
 * a response with no bytes for a while (Node's fetch after 300 s).
 */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** An AG-UI server that can end the runs it is streaming with a RUN_ERROR before it closes. */
export interface AgUiServer extends Server {
  /** Ends every open run's stream with RUN_ERROR `SERVER_SHUTDOWN` and `message`, so no client is left with a cut stream. */
  endOpenRuns(message: string): void;
}

async function stream(
  runner: AgUiServerOptions['runner'],
  request: IncomingMessage,
  response: ServerResponse,
  text: string,
  cors: Record<string, string>,
  log: AgUiServerOptions['log'],
  open: Set<(message: string) => void>,
  keepAliveMs: number,
): Promise<void> {
  const input = parseRunInput(text, runner.serverToolNames());
  const accept = String(request.headers.accept ?? '');
  // Only an explicit request gets the binary framing (`*/*` from curl stays SSE).
  const binary = accept.includes(AGUI_MEDIA_TYPE);
  const encoder = new EventEncoder(binary ? { accept } : undefined);
  response.writeHead(200, { ...cors, 'content-type': encoder.getContentType(), 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  response.flushHeaders();
  const left = new AbortController();
  response.on('close', () => {
    if (!response.writableEnded) left.abort();
  });
  let ended = false;
  let lastWrite = Date.now();
  // The binary framing has no comment to send; its clients are told apart by their Accept header.
  const keepAlive = binary
    ? undefined
    : setInterval(() => {
        if (response.destroyed || response.writableEnded || Date.now() - lastWrite < keepAliveMs) return;
        lastWrite = Date.now();
        response.write(': keep-alive\n\n');
      }, Math.max(1, Math.floor(keepAliveMs / 2)));
  const send = (event: AgentEvent) => {
    if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') ended = true;
    if (response.destroyed || response.writableEnded) return;
    let frame: string | Uint8Array;
    try {
      frame = binary ? encoder.encodeBinary(event) : `data: ${JSON.stringify(event)}\n\n`;
    } catch (error) {
      // One event the framing cannot carry must not end the run for the client.
      log?.(`agui: could not encode a ${event.type} event: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    lastWrite = Date.now();
    response.write(frame);
  };
  const endForShutdown = (message: string) => {
    if (!ended) send({ type: 'RUN_ERROR', message, code: 'SERVER_SHUTDOWN', timestamp: Date.now() } as AgentEvent);
    if (!response.destroyed) response.end();
    left.abort();
  };
  open.add(endForShutdown);
  try {
    await runner.run(input, send, left.signal);
  } catch (error) {
    // The runner ends every run itself; should it throw, the stream still ends well-formed.
    if (!ended) send({ type: 'RUN_ERROR', message: error instanceof Error ? error.message : String(error), code: 'INTERNAL_ERROR', timestamp: Date.now() } as AgentEvent);
  } finally {
    clearInterval(keepAlive);
    open.delete(endForShutdown);
  }
  if (!response.destroyed) response.end();
}

/** An HTTP server (not yet listening) for the AG-UI endpoint. */
export function createAgUiServer(options: AgUiServerOptions): AgUiServer {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const open = new Set<(message: string) => void>();
  const server = createServer((request, response) => {
    let cors: Record<string, string> = {};
    const handle = async () => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== AGUI_PATH) throw new HttpRefusal(404, `Nothing here; POST a RunAgentInput to ${AGUI_PATH}.`);
      checkHost(request);
      cors = corsHeaders(request, options.allowedOrigins);
      if (request.method === 'OPTIONS') {
        response.writeHead(204, cors);
        response.end();
        return;
      }
      if (request.method !== 'POST') throw new HttpRefusal(405, 'POST a RunAgentInput.');
      checkBearer(request, options.token);
      const text = await readBody(request, maxBodyBytes);
      await stream(options.runner, request, response, text, cors, options.log, open, options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
    };
    handle().catch((error: unknown) => {
      if (error instanceof HttpRefusal) {
        const extra: Record<string, string> = { ...cors };
        if (error.status === 405) extra['allow'] = 'POST, OPTIONS';
        if (error.status === 401) extra['www-authenticate'] = 'Bearer realm="tandem-agui"';
        if (error.status === 413) extra['connection'] = 'close';
        if (error.status !== 400) options.log?.(`agui: ${request.method} ${request.url} refused with ${error.status}: ${error.message}`);
        sendRefusal(response, error, extra);
        // The rest of an oversized body is not read; the connection closes after the answer.
        if (error.status === 413) response.on('finish', () => request.destroy());
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      options.log?.(`agui: internal error: ${message}`);
      if (!response.headersSent) sendJson(response, 500, { error: message }, cors);
      else response.end();
    });
  });
  return Object.assign(server, {
    endOpenRuns(message: string) {
      for (const end of [...open]) end(message);
    },
  });
}

/** Listens on 127.0.0.1 (`port` 0 = any free port); resolves with the endpoint's URL. */
export function listenOnLoopback(server: Server, port: number): Promise<{ url: string; port: number }> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const actual = (server.address() as AddressInfo).port;
      resolve({ url: `http://127.0.0.1:${actual}${AGUI_PATH}`, port: actual });
    });
  });
}
