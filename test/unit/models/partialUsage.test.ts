// The usage of an attempt that did not finish, against a real server over
// HTTP through the SDK: counts the server sent before the cut are its own,
// only what they leave out is estimated, and a call stopped before its first
// byte still counts its prompt.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CancelledError, ModelApiError } from '../../../src/common/errors';
import type { ChatModel, ModelDelta, TokenUsage } from '../../../src/models/chatModel';
import { createChatModel } from '../../../src/models/openAiChatModel';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { collectTurn } from './collectTurn';

const question = { messages: [{ role: 'user' as const, content: 'Question?' }] };

/** Every delta of a call that may throw, and what it threw. */
async function drain(generator: AsyncGenerator<ModelDelta, unknown, void>): Promise<{ deltas: ModelDelta[]; error: unknown }> {
  const deltas: ModelDelta[] = [];
  try {
    for await (const delta of generator) deltas.push(delta);
    return { deltas, error: undefined };
  } catch (error) {
    return { deltas, error };
  }
}

const partials = (deltas: readonly ModelDelta[]): TokenUsage[] => deltas.flatMap((delta) => (delta.type === 'partialUsage' ? [delta.usage] : []));

/** The text of the first attempt, before its retry. */
function cutText(deltas: readonly ModelDelta[]): string {
  const retryAt = deltas.findIndex((delta) => delta.type === 'retry');
  return deltas.slice(0, retryAt).flatMap((delta) => (delta.type === 'text' ? [delta.delta] : [])).join('');
}

async function untilReceived(server: ScriptedModelServer, count: number): Promise<void> {
  while (server.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A scripted server of the suite's own (its request log starts empty); each test consumes its own script. */
function serverPerSuite(use: (server: ScriptedModelServer) => void): void {
  let server: ScriptedModelServer;
  before(async () => use((server = await startScriptedModelServer())));
  beforeEach(() => assert.equal(server.remaining(), 0, 'the previous test consumed its script'));
  after(() => server.close());
}

describe('usage of an attempt cut short', () => {
  let server!: ScriptedModelServer;
  serverPerSuite((started) => (server = started));

  const model = (): ChatModel => createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { retry: { baseDelayMs: 1, maxDelayMs: 5 } });

  it("keeps the server's counts, unestimated, when its usage chunk came before the drop", async () => {
    // Lines: the role, three text pieces, the finish, the usage; the drop comes before [DONE].
    server.push({ content: 'Cut short here.', usage: { prompt_tokens: 100, completion_tokens: 7 }, fault: { kind: 'drop', afterChunks: 6 } }, { content: 'Whole.' });
    const { deltas, turn } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    const cut = server.requests.at(-2);
    assert.equal(cut?.outcome, 'fault');
    assert.equal(cut?.sentUsage?.completion_tokens, 7, 'the usage chunk left before the drop');
    assert.deepEqual(partials(deltas), [{ promptTokens: 100, completionTokens: 7, cachedTokens: 0, estimated: false }]);
    assert.equal(turn.content, 'Whole.');
  });

  it('does not take an early completion_tokens: 0 for the output of a stream that then drops: what streamed after it is estimated', async () => {
    // Usage on the first chunk, before any output; the drop comes after the role and four text pieces.
    server.push(
      {
        content: 'The answer streams in many words before the cut',
        earlyUsage: { prompt_tokens: 100, completion_tokens: 0 },
        usage: { prompt_tokens: 100, completion_tokens: 12 },
        fault: { kind: 'drop', afterChunks: 5 },
      },
      { content: 'Whole.' },
    );
    const { deltas } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    assert.equal(server.requests.at(-2)?.sentUsage?.completion_tokens, 0, 'only the early usage was sent');
    const streamed = cutText(deltas);
    assert.equal(streamed, 'The answer streams in ');
    assert.deepEqual(partials(deltas), [
      // The prompt count is the server's (known before any output); the output is estimated from what streamed.
      { promptTokens: 100, completionTokens: Math.ceil(streamed.length / 4), cachedTokens: 0, estimated: true, estimatedCounts: { prompt: false, completion: true } },
    ]);
  });

  it('keeps the final usage of a whole stream that also sent an early one', async () => {
    server.push({ content: 'All of it.', earlyUsage: { prompt_tokens: 100, completion_tokens: 0 }, usage: { prompt_tokens: 100, completion_tokens: 4 } });
    const { deltas, turn } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    assert.deepEqual(partials(deltas), []);
    assert.deepEqual(turn.usage, { promptTokens: 100, completionTokens: 4, cachedTokens: 0, estimated: false });
  });
});

describe('usage of a call stopped before its first byte', () => {
  let server!: ScriptedModelServer;
  serverPerSuite((started) => (server = started));

  const model = (options: { firstByteTimeoutMs?: number } = {}): ChatModel =>
    createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options });

  /** The prompt estimate of `question`, as a whole call to a server that sends no usage makes it. */
  async function promptEstimate(): Promise<number> {
    server.push({ content: 'x', usage: false });
    const { turn } = await collectTurn(model().streamTurn(question, new AbortController().signal));
    assert.equal(turn.usage.estimated, true);
    return turn.usage.promptTokens!;
  }

  it('Stop while the server is still silent after its headers counts the call, its prompt estimated and no output', async () => {
    const prompt = await promptEstimate();
    server.push({ content: 'Too late.', headersFirst: true, firstByteDelayMs: 30_000 });
    const stop = new AbortController();
    const call = drain(model().streamTurn(question, stop.signal));
    await untilReceived(server, 2);
    // The headers left with the request's arrival; half a second for the client to have read them.
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop.abort();
    const { deltas, error } = await call;
    assert.ok(error instanceof CancelledError, String(error));
    assert.deepEqual(deltas, [{ type: 'partialUsage', usage: { promptTokens: prompt, completionTokens: 0, cachedTokens: undefined, estimated: true, estimatedCounts: { prompt: true, completion: false } } }]);
    await server.idle();
    assert.equal(server.requests.at(-1)?.outcome, 'client-closed');
  });

  it('the first-byte bound counts a request the server answered with its headers, not one with no answer at all', async () => {
    const prompt = await promptEstimate();
    server.push({ content: 'Too late.', firstByteDelayMs: 30_000 });
    const silent = await drain(model({ firstByteTimeoutMs: 200 }).streamTurn(question, new AbortController().signal));
    assert.ok(silent.error instanceof ModelApiError, String(silent.error));
    assert.deepEqual(partials(silent.deltas), [], 'no headers: nothing says the server had it');
    await server.idle();
    server.push({ content: 'Too late.', headersFirst: true, firstByteDelayMs: 30_000 });
    const answered = await drain(model({ firstByteTimeoutMs: 200 }).streamTurn(question, new AbortController().signal));
    assert.ok(answered.error instanceof ModelApiError, String(answered.error));
    assert.deepEqual(partials(answered.deltas), [{ promptTokens: prompt, completionTokens: 0, cachedTokens: undefined, estimated: true, estimatedCounts: { prompt: true, completion: false } }]);
    await server.idle();
  });

  it('Stop before the server answered at all counts nothing: nothing says it had the request', async () => {
    server.push({ content: 'Too late.', firstByteDelayMs: 30_000 });
    const stop = new AbortController();
    const before = server.requests.length;
    const call = drain(model().streamTurn(question, stop.signal));
    await untilReceived(server, before + 1);
    stop.abort();
    const { deltas, error } = await call;
    assert.ok(error instanceof CancelledError, String(error));
    assert.deepEqual(deltas, []);
    await server.idle();
  });

  it('a call stopped before its request went out counts nothing', async () => {
    const before = server.requests.length;
    const { deltas, error } = await drain(model().streamTurn(question, AbortSignal.abort()));
    assert.ok(error instanceof CancelledError);
    assert.deepEqual(deltas, []);
    assert.equal(server.requests.length, before);
  });

  it('Stop during the wait before a retry counts nothing more: the failed attempt was answered, not cut', async () => {
    server.push({ fault: { kind: 'status', status: 500 } });
    const stop = new AbortController();
    const waiting = createChatModel({ baseUrl: server.baseUrl, model: 'm' }, { retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    const deltas: ModelDelta[] = [];
    const error = await (async () => {
      for await (const delta of waiting.streamTurn(question, stop.signal)) {
        deltas.push(delta);
        // The 500 has been read: the wait before the next attempt has begun.
        if (delta.type === 'retry') stop.abort();
      }
    })().catch((thrown: unknown) => thrown);
    assert.ok(error instanceof CancelledError);
    assert.deepEqual(deltas.map((delta) => delta.type), ['retry']);
  });
});
