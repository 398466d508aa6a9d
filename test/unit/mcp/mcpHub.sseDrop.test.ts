// A legacy SSE server whose event stream drops (it crashed, a proxy cut the
// GET): every answer comes on that stream and the server's session ends with
// it, so a call waiting then ends at once, with a reason, instead of at its
// timeout, and the server is connected again, handshake and all, for the next.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CancelledError } from '../../../src/common/errors';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { ToolProgress } from '../../../src/tools/tool';
import { remoteServer, startHttpEverything, toolContext, waitFor } from './mcpTestSupport';

/** Long enough that a call still waiting for it is plainly not ended by the drop. */
const CALL_TIMEOUT_MS = 60_000;
/** A call ended by the drop ends within this of it. */
const PROMPTLY_MS = 5_000;

const DROPPED = (tool: string) =>
  new RegExp(`^MCP server "[^"]+" did not answer "${tool}": the event stream closed first \\(the server stopped, or the connection dropped\\)\\. The tool may or may not have run\\.$`);

async function textOf(call: Promise<{ text: string }>): Promise<string> {
  return call.then(
    (value) => value.text,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
}

describe('a legacy SSE server that stops mid-call (the everything server, killed)', () => {
  let server: Awaited<ReturnType<typeof startHttpEverything>>;
  // Long enough for the server to be back before the automatic restart.
  const hub = new McpHub({ restartDelayMs: 5_000 });
  before(async () => {
    server = await startHttpEverything('sse');
    await hub.update([{ ...remoteServer('legacy', 'sse', `http://127.0.0.1:${server.port}/sse`), timeoutMs: CALL_TIMEOUT_MS }]);
  });
  after(async () => {
    await hub.dispose();
    await server.stop();
  });

  it('ends the call at once with the reason, and reconnects once the server is back', async () => {
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const tool = hub.tools().find((candidate) => candidate.name === 'legacy__trigger-long-running-operation');
    assert.ok(tool);
    const progress: ToolProgress[] = [];
    const call = tool.run({ duration: 40, steps: 40 }, toolContext(undefined, progress));
    await waitFor(() => progress.length >= 1, 10_000, 'progress before the crash');
    const killed = Date.now();
    await server.stop();
    const text = await textOf(call);
    const waited = Date.now() - killed;
    assert.match(text, DROPPED('trigger-long-running-operation'));
    assert.ok(waited < PROMPTLY_MS, `ended ${waited} ms after the crash (the call's timeout is ${CALL_TIMEOUT_MS} ms)`);
    // Reported as a stopped server: it is restarted, and a call meanwhile waits for that.
    assert.equal(hub.statuses()[0]?.state, 'starting');
    server = await startHttpEverything('sse', server.port);
    await waitFor(() => hub.statuses()[0]?.state !== 'starting', 20_000, 'the restart');
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const echo = hub.tools().find((candidate) => candidate.name === 'legacy__echo');
    assert.ok(echo);
    assert.equal(await textOf(echo.run({ message: 'back' }, toolContext())), 'Echo: back');
  });
});

/**
 * The least of legacy SSE by hand: each GET opens a session and names its
 * endpoint; a POST is accepted, and answered on its session's stream. Like
 * the Python SDK's servers, a session that was not initialized answers every
 * request with an error. Each tool ends its stream its own way.
 */
function rawSseServer() {
  const streams = new Map<string, http.ServerResponse>();
  const initialized = new Set<string>();
  const state = { sessions: 0 };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const session = `s${++state.sessions}`;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(`event: endpoint\ndata: /message?sessionId=${session}\n\n`);
      streams.set(session, response);
      response.on('close', () => streams.delete(session));
      return;
    }
    const session = url.searchParams.get('sessionId') ?? '';
    const stream = streams.get(session);
    if (request.method !== 'POST' || url.pathname !== '/message' || stream === undefined) {
      response.writeHead(404).end('no such session');
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.writeHead(202).end('Accepted');
      const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string; protocolVersion?: string; arguments?: { text?: string } } };
      if (message.id === undefined) {
        if (message.method === 'notifications/initialized') initialized.add(session);
        return;
      }
      const send = (reply: object) => stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply })}\n\n`);
      if (message.method === 'initialize') {
        send({ result: { protocolVersion: message.params?.protocolVersion ?? '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'raw-sse', version: '1.0.0' } } });
        return;
      }
      if (!initialized.has(session)) {
        send({ error: { code: -32602, message: 'Received request before initialization was complete' } });
        return;
      }
      if (message.method === 'tools/list') {
        const tool = (name: string) => ({ name, description: name, inputSchema: { type: 'object' } });
        send({ result: { tools: [tool('cut'), tool('closed'), tool('hang'), tool('echo')] } });
        return;
      }
      if (message.method !== 'tools/call') {
        send({ result: {} });
        return;
      }
      const name = message.params?.name;
      // A proxy cutting the connection; the server ending the stream; a tool that never answers.
      if (name === 'cut') setTimeout(() => stream.socket?.destroy(), 200);
      else if (name === 'closed') setTimeout(() => stream.end(), 200);
      else if (name === 'echo') send({ result: { content: [{ type: 'text', text: `echo: ${message.params?.arguments?.text ?? ''}` }] } });
    });
  });
  return {
    server,
    get sessions() {
      return state.sessions;
    },
    /** Cuts every open event stream, as a proxy would. */
    cutAll: () => {
      for (const stream of streams.values()) stream.socket?.destroy();
    },
  };
}

describe('a legacy SSE server whose event stream drops (by hand)', () => {
  let raw: ReturnType<typeof rawSseServer>;
  let hub: McpHub;
  let logged: string[];
  // A hub each: a second stop within a minute would leave the server stopped.
  const open = async () => {
    raw = rawSseServer();
    await new Promise<void>((resolve) => raw.server.listen(0, '127.0.0.1', resolve));
    logged = [];
    hub = new McpHub({ restartDelayMs: 200, idleCutMinSessionMs: 500, log: (line) => logged.push(line) });
    const { port } = raw.server.address() as AddressInfo;
    await hub.update([{ ...remoteServer('raw', 'sse', `http://127.0.0.1:${port}/sse`), timeoutMs: CALL_TIMEOUT_MS }]);
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
  };
  const close = async () => {
    await hub.dispose();
    raw.server.closeAllConnections();
    await new Promise((resolve) => raw.server.close(resolve));
  };
  const tool = (name: string) => {
    const found = hub.tools().find((candidate) => candidate.name === `raw__${name}`);
    assert.ok(found, `raw__${name} among ${hub.tools().map((candidate) => candidate.name).join(', ')}`);
    return found;
  };
  const run = async (name: string, args: object = {}): Promise<{ text: string; ms: number }> => {
    const started = Date.now();
    const text = await textOf(tool(name).run(args, toolContext()));
    return { text, ms: Date.now() - started };
  };
  const reconnected = () => waitFor(() => raw.sessions >= 2 && hub.statuses()[0]?.state === 'connected', 10_000, 'a new session');

  describe('the stream cut while a call waits', () => {
    before(open);
    after(close);
    it('ends the call at once, saying so, and the next call runs on a new session', async () => {
      const { text, ms } = await run('cut');
      assert.match(text, DROPPED('cut'));
      assert.ok(ms < PROMPTLY_MS, `${ms} ms`);
      await reconnected();
      assert.equal((await run('echo', { text: 'again' })).text, 'echo: again');
    });
  });

  describe('the stream ended by the server while a call waits', () => {
    before(open);
    after(close);
    it('ends the call at once, saying so', async () => {
      const { text, ms } = await run('closed');
      assert.match(text, DROPPED('closed'));
      assert.ok(ms < PROMPTLY_MS, `${ms} ms`);
    });
  });

  describe('the stream cut while no call waits', () => {
    before(open);
    after(close);
    it('the next call goes to a new session that was initialized, not to one the reconnect opened bare', async () => {
      raw.cutAll();
      await reconnected();
      assert.equal((await run('echo', { text: 'fresh' })).text, 'echo: fresh');
    });

    it('idle cuts again and again (a proxy\'s idle timeout) reconnect each time: they are no crashes', async () => {
      for (let cut = 0; cut < 3; cut++) {
        const before = raw.sessions;
        // Past the least working spell that makes an idle cut no crash (500 ms here).
        await new Promise((resolve) => setTimeout(resolve, 700));
        raw.cutAll();
        await waitFor(() => raw.sessions > before && hub.statuses()[0]?.state === 'connected', 10_000, `reconnected after cut ${cut + 1}`);
      }
      assert.equal((await run('echo', { text: 'still' })).text, 'echo: still');
      assert.ok(!logged.some((line) => /not restarting it automatically/.test(line)), logged.join('\n'));
    });
  });

  describe('a call the user stops', () => {
    before(open);
    after(close);
    it('still ends as cancelled, and the session goes on', async () => {
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 300);
      await assert.rejects(tool('hang').run({}, toolContext(abort.signal)), CancelledError);
      assert.equal((await run('echo', { text: 'still here' })).text, 'echo: still here');
      assert.equal(raw.sessions, 1);
      assert.equal(hub.statuses()[0]?.state, 'connected');
      assert.ok(!logged.some((line) => /unknown message ID/i.test(line)), logged.join('\n'));
    });
  });
});
