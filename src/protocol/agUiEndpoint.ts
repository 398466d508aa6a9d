// Serves Tandem runs to any AG-UI client over HTTP + SSE: POST a
// RunAgentInput, read the run's events as `data:` lines. The client going away
// stops the run. Plain Node: the same loop the panel drives, without VS Code.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { AgentEvent } from './agentEvents';

export type RunFactory = (input: RunAgentInput, signal: AbortSignal) => AsyncIterable<AgentEvent>;

const MAX_BODY_BYTES = 4 * 1024 * 1024;

function reject(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: message }));
}

async function readBody(request: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(run: RunFactory, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST') return reject(response, 405, 'POST a RunAgentInput.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readBody(request));
  } catch (error) {
    return reject(response, 400, `The body is not JSON: ${(error as Error).message}`);
  }
  const input = RunAgentInputSchema.safeParse(parsed);
  if (!input.success) {
    const fault = input.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
    return reject(response, 400, `Not a RunAgentInput: ${fault}`);
  }

  const stop = new AbortController();
  // The client closing the stream (or its connection) is a Stop.
  response.on('close', () => stop.abort());
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for await (const event of run(input.data as RunAgentInput, stop.signal)) {
    if (response.destroyed) continue; // drain: the run winds down on the abort
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  response.end();
}

/** An HTTP server (not yet listening) that answers every POST with a run. */
export function createAgUiEndpoint(run: RunFactory): Server {
  return createServer((request, response) => {
    handle(run, request, response).catch((error: unknown) => {
      if (!response.headersSent) reject(response, 500, error instanceof Error ? error.message : String(error));
      else response.destroy();
    });
  });
}
