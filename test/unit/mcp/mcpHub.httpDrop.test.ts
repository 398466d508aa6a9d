// A Streamable HTTP server whose response stream ends before it answers (it
// crashed, a proxy cut the connection): the call ends then, with a reason,
// instead of waiting out its timeout. A server that sends event ids (the
// everything server keeps them, so the SDK tries to resume) fails once the
// resumption fails; one that sends none fails at once. A slow answer that
// arrives in odd pieces is not taken for a drop.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CancelledError } from '../../../src/common/errors';
import { McpHub } from '../../../src/mcp/mcpHub';
import { SESSION_END_WAIT_MS } from '../../../src/mcp/mcpSession';
import type { ToolProgress } from '../../../src/tools/tool';
import { remoteServer, startHttpEverything, toolContext, waitFor } from './mcpTestSupport';

/** Long enough that a call still waiting for it is plainly not ended by the watch. */
const CALL_TIMEOUT_MS = 60_000;

describe('a Streamable HTTP server that stops mid-call (the everything server, killed)', () => {
  let server: Awaited<ReturnType<typeof startHttpEverything>>;
  const hub = new McpHub();
  before(async () => {
    server = await startHttpEverything('streamableHttp');
    await hub.update([{ ...remoteServer('remote', 'http', `http://127.0.0.1:${server.port}/mcp`), timeoutMs: CALL_TIMEOUT_MS }]);
  });
  after(async () => {
    await hub.dispose();
    await server.stop();
  });

  it('ends the call once resuming its stream fails, with the reason, long before the timeout', async () => {
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const tool = hub.tools().find((candidate) => candidate.name === 'remote__trigger-long-running-operation');
    assert.ok(tool);
    const progress: ToolProgress[] = [];
    const call = tool.run({ duration: 40, steps: 40 }, toolContext(undefined, progress));
    await waitFor(() => progress.length >= 1, 10_000, 'progress before the crash');
    const killed = Date.now();
    await server.stop();
    const result = await call.then(
      (value) => value.text,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const waited = Date.now() - killed;
    assert.match(result, /^MCP server "remote" did not answer "trigger-long-running-operation": the response stream closed first and could not be resumed \(the server stopped, or the connection dropped\)\. The tool may or may not have run\.$/);
    assert.ok(waited < 25_000, `ended ${waited} ms after the crash (the call's timeout is ${CALL_TIMEOUT_MS} ms)`);
  });
});

/** The least of Streamable HTTP by hand: JSON replies, except tools/call, whose SSE stream each tool ends its own way. */
function rawStreamableServer(options: { hangOnDelete?: boolean } = {}): http.Server {
  // The streams of "hang" calls, by request id: a cancellation ends one unanswered, as a server may.
  const hanging = new Map<number | string, http.ServerResponse>();
  // The "resumable" call the server owes an answer, replayed on the GET that resumes its stream.
  let owed: number | undefined;
  return http.createServer((request, response) => {
    if (request.method === 'GET' && request.headers['last-event-id'] === 'p1' && owed !== undefined) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`id: p2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: owed, result: { content: [{ type: 'text', text: 'resumable answered' }] } })}\n\n`);
      owed = undefined;
      return;
    }
    if (request.method === 'DELETE' && options.hangOnDelete) return;
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string; protocolVersion?: string; requestId?: number } };
      if (message.method === 'notifications/cancelled' && message.params?.requestId !== undefined) {
        hanging.get(message.params.requestId)?.end();
        hanging.delete(message.params.requestId);
      }
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const reply = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'raw-session' });
        response.end(reply({ protocolVersion: message.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw-http', version: '1.0.0' } }));
        return;
      }
      if (message.method === 'tools/list') {
        const tool = (name: string) => ({ name, description: name, inputSchema: { type: 'object' } });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(reply({ tools: [tool('cut'), tool('closed'), tool('pieces'), tool('hang'), tool('resumable'), tool('forged')] }));
        return;
      }
      if (message.method !== 'tools/call') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(reply({}));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const name = message.params?.name;
      const answer = `event: message\r\ndata: ${reply({ content: [{ type: 'text', text: `${name} answered` }] })}\r\n\r\n`;
      if (name === 'cut') {
        // A comment, so the stream is open and read, then the connection drops.
        response.write(': working\n\n');
        setTimeout(() => response.socket?.destroy(), 200);
      } else if (name === 'resumable') {
        // A priming event with an id (the stream may be resumed), then the connection drops; the answer waits for the GET.
        owed = message.id;
        response.write('id: p1\ndata: \n\n');
        setTimeout(() => response.socket?.destroy(), 200);
      } else if (name === 'forged') {
        // An error whose data copies what Tandem's own watch would put there.
        response.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: 1, message: 'the real failure', data: { reason: 'tandem/responseStreamClosed', resumeFailed: true } } })}\n\n`);
      } else if (name === 'hang') {
        response.write(': working\n\n');
        hanging.set(message.id, response);
      } else if (name === 'closed') {
        response.write(': working\n\n');
        setTimeout(() => response.end(), 200);
      } else {
        // The answer a byte at a time where it matters: "\r" and "\n" of one line break in separate chunks.
        const split = answer.indexOf('\r\n\r\n');
        response.write(answer.slice(0, split + 1));
        setTimeout(() => response.write(answer.slice(split + 1, split + 3)), 100);
        setTimeout(() => response.end(answer.slice(split + 3)), 200);
      }
    });
  });
}

describe('a Streamable HTTP server whose response stream ends without event ids', () => {
  const server = rawStreamableServer();
  const logged: string[] = [];
  const hub = new McpHub({ log: (line) => logged.push(line) });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await hub.update([{ ...remoteServer('raw', 'http', `http://127.0.0.1:${port}/mcp`), timeoutMs: CALL_TIMEOUT_MS }]);
  });
  after(async () => {
    await hub.dispose();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const run = async (name: string): Promise<{ text: string; ms: number }> => {
    const tool = hub.tools().find((candidate) => candidate.name === `raw__${name}`);
    assert.ok(tool, `raw__${name} among ${hub.tools().map((candidate) => candidate.name).join(', ')}`);
    const started = Date.now();
    const text = await tool.run({}, toolContext()).then(
      (value) => value.text,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    return { text, ms: Date.now() - started };
  };

  it('a dropped connection ends the call at once, saying so', async () => {
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const { text, ms } = await run('cut');
    assert.match(text, /^MCP server "raw" did not answer "cut": the response stream closed first \(the server stopped, or the connection dropped\)/);
    assert.ok(ms < 5_000, `${ms} ms`);
  });

  it('a stream the server closes without answering ends the call at once', async () => {
    const { text, ms } = await run('closed');
    assert.match(text, /^MCP server "raw" did not answer "closed": the response stream closed first \(/);
    assert.ok(ms < 5_000, `${ms} ms`);
  });

  it('a call the user stopped, whose stream the server then ends, is not answered again', async () => {
    const tool = hub.tools().find((candidate) => candidate.name === 'raw__hang');
    assert.ok(tool);
    const abort = new AbortController();
    const call = tool.run({}, toolContext(abort.signal));
    setTimeout(() => abort.abort(), 300);
    await assert.rejects(call, CancelledError);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(!logged.some((line) => /unknown message ID/i.test(line)), logged.join('\n'));
  });

  it('a stream with event ids that drops is resumed by the SDK, and its answer arrives (no error of the watch)', async () => {
    const { text } = await run('resumable');
    assert.equal(text, 'resumable answered');
    assert.ok(!logged.some((line) => /unknown message ID/i.test(line)), logged.join('\n'));
  });

  it("a server's own error that imitates the watch's is reported as the server's", async () => {
    const { text } = await run('forged');
    assert.match(text, /the real failure/);
    assert.doesNotMatch(text, /response stream closed first/);
  });

  it('an answer in odd pieces arrives whole, and the server is still usable after the drops', async () => {
    const { text } = await run('pieces');
    assert.equal(text, 'pieces answered');
    assert.equal(hub.statuses()[0]?.state, 'connected');
  });
});

describe('a Streamable HTTP server that never answers the DELETE ending its session', () => {
  it('closing does not wait for it: the connection closes after a short wait, saying so', async () => {
    const server = rawStreamableServer({ hangOnDelete: true });
    const deletes: string[] = [];
    server.on('request', (request: http.IncomingMessage) => {
      if (request.method === 'DELETE') deletes.push(String(request.headers['mcp-session-id']));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const logged: string[] = [];
    const hub = new McpHub({ log: (line) => logged.push(line) });
    try {
      const { port } = server.address() as AddressInfo;
      await hub.update([{ ...remoteServer('raw', 'http', `http://127.0.0.1:${port}/mcp`), timeoutMs: CALL_TIMEOUT_MS }]);
      assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
      const started = Date.now();
      await hub.dispose();
      const ms = Date.now() - started;
      assert.deepEqual(deletes, ['raw-session']);
      assert.ok(ms >= SESSION_END_WAIT_MS - 100 && ms < SESSION_END_WAIT_MS + 3_000, `closed after ${ms} ms`);
      assert.ok(logged.some((line) => /no answer in \d+ ms; closing without it/.test(line)), logged.join('\n'));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
