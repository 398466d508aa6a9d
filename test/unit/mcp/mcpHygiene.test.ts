// Tandem's MCP layer against an in-process Streamable HTTP server that records
// every JSON-RPC message: cancellation only for requests in flight (never for
// finished ones, never for initialize), elicitation with schema defaults, and a
// 401 reported as sign-in required instead of an SSE fallback.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { CancelledError } from '../../../src/common/errors';
import type { ElicitationRequest } from '../../../src/tools/elicitation';
import { McpHub } from '../../../src/mcp/mcpHub';
import { remoteServer, toolContext, waitFor } from './mcpTestSupport';

interface Recorder {
  readonly url: string;
  readonly messages: { method?: string; params?: Record<string, unknown> }[];
  close(): Promise<void>;
}

async function startRecordingServer(): Promise<Recorder> {
  const messages: Recorder['messages'] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const server = http.createServer(async (request, response) => {
    if (request.headers.authorization === 'Bearer nobody' || request.url === '/locked') {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    let body: unknown;
    if (request.method === 'POST') {
      let text = '';
      for await (const chunk of request) text += String(chunk);
      body = JSON.parse(text);
      for (const message of Array.isArray(body) ? body : [body]) messages.push(message as Recorder['messages'][number]);
    }
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), onsessioninitialized: (id) => void transports.set(id, transport!) });
      await mcpServer().connect(transport);
    }
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'recorder', version: '1.0.0' });
  server.registerTool('quick', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'done' }] }));
  server.registerTool('slow', { inputSchema: {} }, async (_args, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      extra.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
    });
    return { content: [{ type: 'text', text: 'slow done' }] };
  });
  server.registerTool('ask', { inputSchema: { note: z.string().optional() } }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Who are you?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', default: 'Ada' }, age: { type: 'integer', default: 36 } },
        required: ['name'],
      },
    });
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  });
  return server;
}

describe('MCP request hygiene', () => {
  let recorder: Recorder;
  const asked: ElicitationRequest[] = [];
  const hub = new McpHub({
    services: () => ({
      elicitation: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { age: 40 } };
      },
    }),
  });
  before(async () => {
    recorder = await startRecordingServer();
    await hub.update([remoteServer('rec', 'http', recorder.url)]);
  });
  after(async () => {
    await hub.dispose();
    await recorder.close();
  });

  const cancellations = (): unknown[] => recorder.messages.filter((message) => message.method === 'notifications/cancelled').map((message) => message.params?.['requestId']);

  it('sends no cancellation for finished requests, initialize included', async () => {
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const run = new AbortController();
    const quick = hub.tools().find((tool) => tool.name === 'rec__quick');
    assert.equal((await quick?.run({}, toolContext(run.signal)))?.text, 'done');
    run.abort();
    await hub.restart({ name: 'rec' });
    assert.equal(hub.statuses()[0]?.state, 'connected');
    assert.deepEqual(cancellations(), []);
  });

  it('cancels a request in flight, once', async () => {
    const run = new AbortController();
    const slow = hub.tools().find((tool) => tool.name === 'rec__slow');
    const call = slow?.run({}, toolContext(run.signal));
    await waitFor(() => recorder.messages.some((message) => message.method === 'tools/call' && message.params?.['name'] === 'slow'), 5_000, 'the slow call');
    run.abort();
    await assert.rejects(call!, CancelledError);
    await waitFor(() => cancellations().length === 1, 5_000, 'the cancellation');
    const slowCall = recorder.messages.find((message) => message.method === 'tools/call' && message.params?.['name'] === 'slow') as { id?: unknown };
    assert.deepEqual(cancellations(), [slowCall.id]);
  });

  it('offers elicitation, passes the schema, and fills defaults the answer left out', async () => {
    const initialize = recorder.messages.find((message) => message.method === 'initialize');
    assert.deepEqual((initialize?.params?.['capabilities'] as Record<string, unknown>)['elicitation'], { form: {}, url: {} });
    const ask = hub.tools().find((tool) => tool.name === 'rec__ask');
    const result = await ask?.run({}, toolContext());
    assert.deepEqual(JSON.parse(result?.text ?? '{}'), { action: 'accept', content: { age: 40, name: 'Ada' } });
    assert.equal(asked[0]?.mode, 'form');
    assert.equal(asked[0]?.serverName, 'rec');
    assert.equal(asked[0]?.message, 'Who are you?');
  });

  it('reports a 401 as sign-in required, without trying SSE', async () => {
    const logs: string[] = [];
    const locked = new McpHub({ log: (line) => logs.push(line) });
    try {
      await locked.update([remoteServer('locked', 'http', recorder.url.replace('/mcp', '/locked'))]);
      const status = locked.statuses()[0];
      assert.equal(status?.state, 'signInRequired');
      assert.match(status?.error ?? '', /^Sign-in required: the server answered 401/);
      assert.ok(!logs.some((line) => /trying SSE/.test(line)), logs.join('\n'));
    } finally {
      await locked.dispose();
    }
  });
});
