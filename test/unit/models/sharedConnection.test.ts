import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ModelSettings } from '../../../src/models/chatModel';
import { createChatModel, sharedConnection } from '../../../src/models/openAiChatModel';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { collectTurn } from './collectTurn';

describe('SDK clients shared between models', () => {
  let server: ScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer();
  });
  after(() => server.close());

  it('gives models of the same endpoint and key one client, and others their own', async () => {
    const base = { baseUrl: 'http://127.0.0.1:9/v1' };
    const first = await sharedConnection(base, undefined);
    assert.equal(await sharedConnection(base, undefined), first);
    assert.notEqual(await sharedConnection({ ...base, apiKey: 'sk-other' }, undefined), first);
    assert.notEqual(await sharedConnection({ baseUrl: 'http://127.0.0.1:10/v1' }, undefined), first);
    const fetchOverride: typeof fetch = (input, init) => fetch(input, init);
    assert.notEqual(await sharedConnection(base, fetchOverride), first);
    assert.equal(await sharedConnection(base, fetchOverride), await sharedConnection(base, fetchOverride));
  });

  it('keeps at most eight clients per fetch: the oldest is built again when asked for', async () => {
    const fetchOverride: typeof fetch = (input, init) => fetch(input, init);
    const oldest = await sharedConnection({ baseUrl: 'http://127.0.0.1:1/v1' }, fetchOverride);
    for (let port = 2; port <= 8; port++) await sharedConnection({ baseUrl: `http://127.0.0.1:${port}/v1` }, fetchOverride);
    assert.equal(await sharedConnection({ baseUrl: 'http://127.0.0.1:1/v1' }, fetchOverride), oldest);
    await sharedConnection({ baseUrl: 'http://127.0.0.1:9/v1' }, fetchOverride);
    assert.notEqual(await sharedConnection({ baseUrl: 'http://127.0.0.1:1/v1' }, fetchOverride), oldest);
  });

  it('streams through a shared client for both models of a run, each with its own model name', async () => {
    const settings: ModelSettings = { baseUrl: server.baseUrl, model: 'tools' };
    server.push({ model: 'tools', content: 'from tools' });
    server.push({ model: 'writer', content: 'from writer' });
    const signal = new AbortController().signal;
    const tools = await collectTurn(createChatModel(settings).streamTurn({ messages: [{ role: 'user', content: 'Q?' }] }, signal));
    const writer = await collectTurn(createChatModel({ ...settings, model: 'writer' }).streamTurn({ messages: [{ role: 'user', content: 'Q?' }] }, signal));
    assert.equal(tools.turn.content, 'from tools');
    assert.equal(writer.turn.content, 'from writer');
    assert.deepEqual(server.requests.map((request) => request.model), ['tools', 'writer']);
  });
});
