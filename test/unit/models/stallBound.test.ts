// A server that goes quiet mid-reply: the attempt ends after the stall bound,
// is retried, and if it keeps stalling the error says so plainly. A server
// silent from the start gets the longer first-byte bound, and is not retried.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ModelApiError } from '../../../src/common/errors';
import { createChatModel, firstByteTimeoutFor } from '../../../src/models/openAiChatModel';
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

  it('a model silent before its first byte longer than the stall bound is waited for, within the first-byte bound', async () => {
    const server = await startScriptedModelServer({ turns: [{ content: 'Thought it through.', firstByteDelayMs: 800 }] });
    servers.push(server);
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { stallTimeoutMs: 200, firstByteTimeoutMs: 10_000, retry: { baseDelayMs: 1 } });
    const { deltas, turn } = await collectTurn(model.streamTurn(question, new AbortController().signal));
    assert.equal(turn.content, 'Thought it through.');
    assert.equal(turn.attempts, 1);
    assert.equal(deltas.filter((delta) => delta.type === 'retry').length, 0, 'no retry while the model was silent');
    assert.equal(server.requests.length, 1, 'the request was sent once');
  });

  it('once the reply has begun, the shorter stall bound applies again', async () => {
    const server = await startScriptedModelServer({ turns: [{ content: 'slow words never all arrive here', chunkDelayMs: 30_000 }, { content: 'Quick answer.' }] });
    servers.push(server);
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { stallTimeoutMs: 300, firstByteTimeoutMs: 60_000, retry: { baseDelayMs: 1 } });
    const started = Date.now();
    const { turn } = await collectTurn(model.streamTurn(question, new AbortController().signal));
    assert.ok(Date.now() - started < 20_000, 'cut at the stall bound, not the first-byte bound');
    assert.equal(turn.content, 'Quick answer.');
  });

  it('a server silent past the first-byte bound ends at once with a clear error and is not asked again', async () => {
    const server = await startScriptedModelServer({ turns: [{ content: 'too late', firstByteDelayMs: 30_000 }, { content: 'A retry would get this.' }] });
    servers.push(server);
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { stallTimeoutMs: 100, firstByteTimeoutMs: 400, retry: { maxRetries: 3, baseDelayMs: 1 } });
    await assert.rejects(collectTurn(model.streamTurn(question, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.match(error.message, /^Model "m" failed: the server sent nothing for 0\.4 s after the request \(not retried/);
      assert.match(error.suggestion ?? '', /tandem\.agent\.maxExecutionSeconds/);
      return true;
    });
    await server.idle();
    assert.equal(server.requests.length, 1, 'not retried');
    assert.equal(server.requests[0]?.outcome, 'client-closed', 'the request was given up');
  });

  it('the first-byte bound is the run\'s time limit, never under 90 s', () => {
    assert.equal(firstByteTimeoutFor(60), 90_000);
    assert.equal(firstByteTimeoutFor(300), 300_000);
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
