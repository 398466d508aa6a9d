// A server that goes quiet mid-reply: the attempt ends after the stall bound,
// is retried, and if it keeps stalling the error says so plainly.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ModelApiError } from '../../../src/common/errors';
import { createChatModel } from '../../../src/models/openAiChatModel';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { collectTurn } from './collectTurn';

const question = { messages: [{ role: 'user' as const, content: 'Question?' }] };
const servers: ScriptedModelServer[] = [];
after(async () => Promise.all(servers.map((server) => server.close())));

describe('stall bound', () => {
  it('a reply that stops arriving is retried after the bound and the retry completes', async () => {
    const server = await startScriptedModelServer({ turns: [{ content: 'slow words never all arrive here', chunkDelayMs: 30_000 }, { content: 'Quick answer.' }] });
    servers.push(server);
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { stallTimeoutMs: 300, retry: { baseDelayMs: 1 } });
    const started = Date.now();
    const { deltas, turn } = await collectTurn(model.streamTurn(question, new AbortController().signal));
    // The slow server would take 30 s a chunk; a generous bound keeps this true on a loaded machine.
    assert.ok(Date.now() - started < 20_000, 'did not wait for the slow server');
    assert.equal(turn.content, 'Quick answer.');
    const retry = deltas.find((delta) => delta.type === 'retry');
    assert.match(retry && 'reason' in retry ? retry.reason : '', /sent nothing for 0\.3 s \(stalled\)/);
  });

  it('a server that keeps stalling ends with a clear error', async () => {
    const slow = { content: 'never finished', chunkDelayMs: 2_000 };
    const server = await startScriptedModelServer({ turns: [slow, slow] });
    servers.push(server);
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { stallTimeoutMs: 200, retry: { maxRetries: 1, baseDelayMs: 1 } });
    await assert.rejects(collectTurn(model.streamTurn(question, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.match(error.message, /failed after 2 attempts: the server sent nothing for 0\.2 s \(stalled\)/);
      return true;
    });
  });
});
