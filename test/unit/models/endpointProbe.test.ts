import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_LOCAL_SERVERS, findLocalServers, localServersFrom, parseModelList, probeEndpoint } from '../../../src/models/endpointProbe';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';

describe('parseModelList', () => {
  it("reads OpenAI's and Ollama's shapes, sorted and unique", () => {
    assert.deepEqual(parseModelList({ object: 'list', data: [{ id: 'b' }, { id: 'a' }, { id: 'a' }] }), ['a', 'b']);
    assert.deepEqual(parseModelList({ models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b' }, { model: 'qwen2.5:7b' }] }), ['llama3.1:8b', 'qwen2.5:7b']);
  });

  it('ignores what is not a model list', () => {
    for (const body of [null, 'text', 42, {}, { data: 'x' }, { data: [{ id: 7 }, null, { id: '' }] }]) assert.deepEqual(parseModelList(body), []);
  });
});

describe('localServersFrom', () => {
  it('probes Ollama and LM Studio on loopback by default', () => {
    assert.deepEqual(localServersFrom({}), DEFAULT_LOCAL_SERVERS);
    assert.deepEqual(DEFAULT_LOCAL_SERVERS.map((server) => server.baseUrl), ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:1234/v1']);
  });

  it('TANDEM_LOCAL_SERVERS replaces the list; bad entries are skipped', () => {
    assert.deepEqual(localServersFrom({ TANDEM_LOCAL_SERVERS: 'Test=http://127.0.0.1:5/v1/, junk, =http://x, Bad=ftp://y' }), [{ name: 'Test', baseUrl: 'http://127.0.0.1:5/v1' }]);
  });
});

describe('probeEndpoint', () => {
  let model: ScriptedModelServer;
  let refusing: string;
  let silent: Server;
  let silentUrl: string;
  before(async () => {
    model = await startScriptedModelServer({ models: ['local-a', 'local-b'] });
    // A port nobody listens on: take one and close it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refusing = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // Accepts connections but never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    await model.close();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('lists the models of a server that answers', async () => {
    assert.deepEqual(await probeEndpoint(model.baseUrl), { reachable: true, models: ['local-a', 'local-b'], webPage: false });
  });

  it('a refused connection is unreachable at once', async () => {
    const started = Date.now();
    assert.deepEqual(await probeEndpoint(refusing), { reachable: false, models: [] });
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });

  it('a server that never answers is unreachable after the timeout', async () => {
    const started = Date.now();
    assert.deepEqual(await probeEndpoint(silentUrl, { timeoutMs: 300 }), { reachable: false, models: [] });
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
  });

  it('an error status still answers (the run will say what is wrong)', async () => {
    const fetchStub: typeof fetch = async () => new Response('{"error":"unauthorized"}', { status: 401 });
    assert.deepEqual(await probeEndpoint('https://example.invalid/v1', { fetch: fetchStub }), { reachable: true, models: [], webPage: false });
  });

  it('a web page is told apart from the API (a web UI, a base URL without /v1), and is no local server', async () => {
    const site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Chat UI</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      assert.deepEqual(await probeEndpoint(siteUrl), { reachable: true, models: [], webPage: true });
      assert.deepEqual(await findLocalServers([{ name: 'Site', baseUrl: siteUrl }]), []);
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });

  it('findLocalServers keeps only the servers that answer', async () => {
    const found = await findLocalServers([
      { name: 'Up', baseUrl: model.baseUrl },
      { name: 'Down', baseUrl: refusing },
    ]);
    assert.deepEqual(found, [{ name: 'Up', baseUrl: model.baseUrl, models: ['local-a', 'local-b'] }]);
  });
});
