// The hub against the everything server over Streamable HTTP and SSE on loopback ports.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CancelledError } from '../../../src/common/errors';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { ToolProgress } from '../../../src/tools/tool';
import { freePort, remoteServer, startHttpEverything, toolContext, waitFor } from './mcpTestSupport';

describe('McpHub over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startHttpEverything>>;
  const hub = new McpHub();
  before(async () => {
    server = await startHttpEverything('streamableHttp');
    await hub.update([remoteServer('remote', 'http', `http://127.0.0.1:${server.port}/mcp`)]);
  });
  after(async () => {
    await hub.dispose();
    await server.stop();
  });

  it('connects with Streamable HTTP and calls echo and get-sum', async () => {
    const status = hub.statuses()[0];
    assert.equal(status?.state, 'connected', status?.error);
    assert.equal(status?.transport, 'http');
    const echo = hub.tools().find((tool) => tool.name === 'remote__echo');
    assert.equal((await echo?.run({ message: 'over http' }, toolContext()))?.text, 'Echo: over http');
    const sum = hub.tools().find((tool) => tool.name === 'remote__get-sum');
    assert.match((await sum?.run({ a: 1, b: 2 }, toolContext()))?.text ?? '', /\b3\b/);
  });

  it('streams progress and cancels over HTTP', async () => {
    const tool = hub.tools().find((candidate) => candidate.name === 'remote__trigger-long-running-operation');
    assert.ok(tool);
    const abort = new AbortController();
    const progress: ToolProgress[] = [];
    const started = Date.now();
    const call = tool.run({ duration: 20, steps: 40 }, toolContext(abort.signal, progress));
    await waitFor(() => progress.length >= 1, 5_000, 'progress over HTTP');
    abort.abort();
    await assert.rejects(call, CancelledError);
    assert.ok(Date.now() - started < 3_000);
  });
});

describe('McpHub falling back to SSE', () => {
  let server: Awaited<ReturnType<typeof startHttpEverything>>;
  before(async () => {
    server = await startHttpEverything('sse');
  });
  after(() => server.stop());

  it('falls back to SSE when the Streamable HTTP POST gets a 4xx', async () => {
    const logs: string[] = [];
    const hub = new McpHub({ log: (line) => logs.push(line) });
    try {
      // The SSE-only server has no POST /sse: Streamable HTTP gets a 404.
      await hub.update([remoteServer('legacy', 'http', `http://127.0.0.1:${server.port}/sse`)]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'connected', status?.error);
      assert.equal(status?.transport, 'sse');
      assert.ok(logs.some((line) => /Streamable HTTP answered 404; trying SSE/.test(line)), logs.join('\n'));
      const echo = hub.tools().find((tool) => tool.name === 'legacy__echo');
      assert.equal((await echo?.run({ message: 'over sse' }, toolContext()))?.text, 'Echo: over sse');
    } finally {
      await hub.dispose();
    }
  });

  it('uses SSE directly for type "sse"', async () => {
    const hub = new McpHub();
    try {
      await hub.update([remoteServer('direct', 'sse', `http://127.0.0.1:${server.port}/sse`)]);
      assert.equal(hub.statuses()[0]?.transport, 'sse');
      assert.equal(hub.statuses()[0]?.state, 'connected');
    } finally {
      await hub.dispose();
    }
  });
});

describe('McpHub remote failures', () => {
  it('reports an unreachable URL clearly', async () => {
    const port = await freePort();
    const hub = new McpHub();
    try {
      await hub.update([remoteServer('gone', 'http', `http://127.0.0.1:${port}/mcp`)]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'error');
      assert.match(status?.error ?? '', /ECONNREFUSED/);
    } finally {
      await hub.dispose();
    }
  });

  it('names both failures when Streamable HTTP and SSE both get a 4xx', async () => {
    const denying = http.createServer((_request, response) => {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden here');
    });
    await new Promise<void>((resolve) => denying.listen(0, '127.0.0.1', resolve));
    const hub = new McpHub();
    try {
      await hub.update([remoteServer('denied', 'http', `http://127.0.0.1:${(denying.address() as AddressInfo).port}/mcp`)]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'error');
      assert.match(status?.error ?? '', /Streamable HTTP answered 403 and SSE failed too/);
    } finally {
      await hub.dispose();
      denying.closeAllConnections();
      await new Promise((resolve) => denying.close(resolve));
    }
  });
});
