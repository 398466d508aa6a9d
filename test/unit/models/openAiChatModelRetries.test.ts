import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CancelledError, ModelApiError } from '../../../src/common/errors';
import type { ChatModel, ModelDelta } from '../../../src/models/chatModel';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { RetryOptions } from '../../../src/models/retryPolicy';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { collectTurn, visibleText } from './collectTurn';

const fast: RetryOptions = { baseDelayMs: 5, maxDelayMs: 20, random: () => 0.5 };
const question = { messages: [{ role: 'user' as const, content: 'Question?' }] };

describe('createChatModel retries', () => {
  let server: ScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer();
  });
  beforeEach(() => {
    assert.equal(server.remaining(), 0, 'the previous test consumed its script');
  });
  after(() => server.close());

  const model = (retry: RetryOptions = fast): ChatModel =>
    createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { retry });

  it('honours Retry-After on 429', async () => {
    server.push({ fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } }, { content: 'after the wait' });
    const startedAt = Date.now();
    const { deltas, turn } = await collectTurn(model({ ...fast, maxRetryAfterMs: 5_000 }).streamTurn(question, new AbortController().signal));
    const [first, second] = server.requests.slice(-2);
    const waited = second!.receivedAt - first!.receivedAt;
    assert.ok(waited >= 950 && waited < 3_000, `waited ${waited} ms for Retry-After: 1`);
    assert.equal(deltas[0]?.type, 'retry');
    assert.equal((deltas[0] as Extract<ModelDelta, { type: 'retry' }>).delayMs, 1_000);
    assert.match((deltas[0] as Extract<ModelDelta, { type: 'retry' }>).reason, /429/);
    assert.equal(turn.content, 'after the wait');
    assert.equal(turn.attempts, 2);
    assert.ok(turn.durationMs >= waited && turn.durationMs <= Date.now() - startedAt);
  });

  it('caps a long Retry-After', async () => {
    server.push({ fault: { kind: 'status', status: 429, retryAfterSeconds: 3_600 } }, { content: 'ok' });
    const { deltas, turn } = await collectTurn(model({ ...fast, maxRetryAfterMs: 50 }).streamTurn(question, new AbortController().signal));
    const retry = deltas[0];
    assert.equal(retry?.type, 'retry');
    assert.equal(retry.type === 'retry' && retry.delayMs, 50);
    const [first, second] = server.requests.slice(-2);
    assert.ok(second!.receivedAt - first!.receivedAt < 1_000);
    assert.equal(turn.content, 'ok');
  });

  it('retries a 500 and then succeeds', async () => {
    server.push({ fault: { kind: 'status', status: 500 } }, { content: 'recovered' });
    const { deltas, turn } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    assert.deepEqual(
      deltas.map((delta) => delta.type),
      ['retry', 'text'],
    );
    assert.equal(turn.content, 'recovered');
    assert.equal(turn.attempts, 2);
  });

  it('announces a retry when the connection drops mid-stream, then streams the whole answer', async () => {
    server.push(
      { content: 'partial words that never finish', fault: { kind: 'drop', afterChunks: 3 } },
      { content: 'complete answer' },
    );
    const { deltas, turn } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    const retryAt = deltas.findIndex((delta) => delta.type === 'retry');
    assert.ok(retryAt > 0, 'partial text came before the retry');
    assert.equal(visibleText(deltas.slice(0, retryAt)), 'partial words ');
    assert.match((deltas[retryAt] as Extract<ModelDelta, { type: 'retry' }>).reason, /connection/i);
    assert.equal(visibleText(deltas), 'complete answer');
    assert.equal(turn.content, 'complete answer', 'the turn holds only the successful attempt');
    assert.equal(server.requests.at(-2)!.outcome, 'fault');
  });

  it('retries a malformed SSE stream', async () => {
    server.push({ content: 'one two three', fault: { kind: 'malformed', afterChunks: 2 } }, { content: 'clean' });
    const { deltas, turn } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    const retry = deltas.find((delta) => delta.type === 'retry');
    assert.match(retry?.type === 'retry' ? retry.reason : '', /malformed/);
    assert.equal(turn.content, 'clean');
  });

  it('gives up after the configured retries with a ModelApiError that suggests what to do', async () => {
    server.push(...Array.from({ length: 3 }, () => ({ fault: { kind: 'status' as const, status: 503 } })));
    const deltas: ModelDelta[] = [];
    await assert.rejects(
      async () => {
        for await (const delta of model({ ...fast, maxRetries: 2 }).streamTurn(question, new AbortController().signal)) {
          deltas.push(delta);
        }
      },
      (error: unknown) => {
        assert.ok(error instanceof ModelApiError);
        assert.equal(error.status, 503);
        assert.equal(error.attempts, 3);
        assert.equal(error.retryable, true);
        assert.match(error.message, /after 3 attempts/);
        assert.match(error.suggestion ?? '', /server at http:\/\/127\.0\.0\.1:\d+\/v1 is failing/);
        return true;
      },
    );
    assert.deepEqual(
      deltas.map((delta) => (delta.type === 'retry' ? delta.attempt : delta.type)),
      [1, 2],
    );
  });

  it("cuts the API key out of an error that quotes it: the reason reaches logs, the panel and AG-UI clients", async () => {
    const apiKey = 'sk-test-QUOTED-0123456789abcdef';
    server.push({ fault: { kind: 'status', status: 401, body: JSON.stringify({ error: { message: `Invalid key ${apiKey} for this organisation`, type: 'invalid_request_error' } }) } });
    const keyed = createChatModel({ baseUrl: server.baseUrl, model: 'm', apiKey }, { retry: fast });
    await assert.rejects(collectTurn(keyed.streamTurn(question, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.match(error.message, /Invalid key \*\*\* for this organisation/);
      assert.ok(!JSON.stringify({ message: error.message, suggestion: error.suggestion }).includes(apiKey));
      return true;
    });
    assert.equal(server.requests.at(-1)?.authorization, `Bearer ${apiKey}`, 'the key was sent, so the server could quote it');
  });

  it('does not retry 401 and points to the API key command', async () => {
    server.push({ fault: { kind: 'status', status: 401 } }, { content: 'must not be served' });
    const before = server.requests.length;
    await assert.rejects(collectTurn(model().streamTurn(question, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.equal(error.status, 401);
      assert.equal(error.attempts, 1);
      assert.equal(error.retryable, false);
      assert.match(error.suggestion ?? '', /Tandem: Set API Key/);
      return true;
    });
    assert.equal(server.requests.length - before, 1);
    assert.equal(server.remaining(), 1);
    // The spare turn shows no retry happened; serve it so the next test starts clean.
    await collectTurn(model().streamTurn(question, new AbortController().signal));
  });

  it('does not retry 404 and suggests checking the model name and base URL', async () => {
    server.push({ fault: { kind: 'status', status: 404 } });
    await assert.rejects(collectTurn(model().streamTurn(question, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.equal(error.attempts, 1);
      assert.match(error.suggestion ?? '', /model name "m"/);
      return true;
    });
  });

  it('ends the HTTP stream at once on abort and throws CancelledError', async () => {
    server.push({ content: 'slow '.repeat(30), chunkDelayMs: 1_000 });
    const controller = new AbortController();
    const requestsBefore = server.requests.length;
    let abortedAt = 0;
    await assert.rejects(async () => {
      for await (const delta of model().streamTurn(question, controller.signal)) {
        if (delta.type === 'text' && abortedAt === 0) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    }, CancelledError);
    assert.ok(Date.now() - abortedAt < 500, 'the call ended without waiting for the next chunk (due in 1 s)');
    await server.idle();
    assert.equal(server.requests.at(-1)!.outcome, 'client-closed', 'the server saw the socket close');
    assert.equal(server.requests.length - requestsBefore, 1, 'no retry after an abort');
  });

  it('throws CancelledError when aborted during a backoff wait', async () => {
    server.push({ fault: { kind: 'status', status: 500 } });
    const controller = new AbortController();
    let abortedAt = 0;
    await assert.rejects(async () => {
      for await (const delta of model({ baseDelayMs: 10_000, maxDelayMs: 10_000 }).streamTurn(question, controller.signal)) {
        if (delta.type === 'retry') {
          setTimeout(() => {
            abortedAt = Date.now();
            controller.abort();
          }, 20);
        }
      }
    }, CancelledError);
    assert.ok(abortedAt > 0 && Date.now() - abortedAt < 1_000, 'the 10 s wait ended with the abort');
  });

  it('throws CancelledError without a request when the signal is already aborted', async () => {
    const before = server.requests.length;
    await assert.rejects(collectTurn(model().streamTurn(question, AbortSignal.abort())), CancelledError);
    assert.equal(server.requests.length, before);
  });
});

describe('createChatModel against a server that is not running', () => {
  it('retries, then says to check that the server at the base URL runs', async () => {
    const server = await startScriptedModelServer();
    const baseUrl = server.baseUrl;
    await server.close();
    const deltas: ModelDelta[] = [];
    await assert.rejects(
      async () => {
        const model = createChatModel({ baseUrl, model: 'm' }, { retry: { ...fast, maxRetries: 1 } });
        for await (const delta of model.streamTurn(question, new AbortController().signal)) deltas.push(delta);
      },
      (error: unknown) => {
        assert.ok(error instanceof ModelApiError);
        assert.equal(error.status, undefined);
        assert.equal(error.attempts, 2);
        assert.match(error.message, /ECONNREFUSED/);
        assert.ok(error.suggestion?.includes(`${baseUrl}. Is the model server running?`), error.suggestion);
        return true;
      },
    );
    assert.equal(deltas.length, 1);
  });
});

describe('createChatModel against something that is not a model server', () => {
  it('a web page is said to be one, once, with the base URL to check', async () => {
    let requests = 0;
    const page = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Welcome</title><p>It works!</p>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    try {
      const model = createChatModel({ baseUrl, model: 'm' }, { retry: fast });
      await assert.rejects(collectTurn(model.streamTurn(question, new AbortController().signal)), (error: unknown) => {
        assert.ok(error instanceof ModelApiError);
        assert.match(error.message, /answered with a web page \(text\/html\), not an OpenAI-compatible reply/);
        assert.match(error.suggestion ?? '', /it should be the API's address \(usually ending in \/v1\)/);
        return true;
      });
      assert.equal(requests, 1, 'not retried');
    } finally {
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it('a host name that does not resolve is not retried', async () => {
    let calls = 0;
    const unresolved: typeof fetch = async () => {
      calls++;
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND models.example.invalid'), { code: 'ENOTFOUND' }) });
    };
    const model = createChatModel({ baseUrl: 'http://models.example.invalid/v1', model: 'm' }, { retry: fast, fetch: unresolved });
    await assert.rejects(collectTurn(model.streamTurn(question, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.match(error.message, /ENOTFOUND/);
      assert.match(error.suggestion ?? '', /cannot be found\. Check the base URL/);
      return true;
    });
    assert.equal(calls, 1);
  });
});
