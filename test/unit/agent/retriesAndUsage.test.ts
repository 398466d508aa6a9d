// Retries as the user sees them: a stream dropped mid-answer is retried and
// the partial text is marked void (the panel shows one Answer box), and the
// tokens of failed and aborted attempts are counted, marked partial.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import type { RetryPayload, RunUsage } from '../../../src/protocol/agentEvents';
import { customValues, messageText, runScripted, scriptedServers, settingsFor } from './agentTestSupport';

const serve = scriptedServers();

describe('retries and usage', () => {
  it('a stream dropped mid-answer is retried; the partial answer is discarded and counted as a partial attempt', async () => {
    const model = await serve([
      { model: 'answer-model', content: 'The first attempt says something long that breaks', fault: { kind: 'drop', afterChunks: 3 } },
      { model: 'answer-model', content: 'The whole answer.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, 'The whole answer.');
    const answers = messageText(run.events, 'answer');
    assert.equal(answers.length, 2, 'the stream holds the void attempt and the retry');
    const retry = customValues<RetryPayload>(run.events, 'tandem.retry')[0];
    assert.ok(retry, 'a retry was announced');
    const starts = run.events.filter((event) => event.type === EventType.TEXT_MESSAGE_START).map((event) => event.messageId as string);
    assert.deepEqual(retry.discarded, [starts[0]], 'the first answer message is the discarded one');
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.equal(usage.answer.calls, 1);
    assert.equal(usage.answer.partialAttempts, 1);
    assert.equal(usage.answer.estimated, true);
    assert.ok((usage.answer.completionTokens ?? 0) > 3, `partial output tokens are included: ${usage.answer.completionTokens}`);
  });

  it('a model whose base URL is on this machine is marked as served locally (the cost line says so rather than "unknown")', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Local.' }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.equal(usage.answer.servedLocally, true, model.baseUrl);
  });

  it('a usage object without prompt_tokens gets that count estimated and marked, so the price still applies', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Short answer.', usage: { prompt_tokens: null, completion_tokens: 12 } }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.equal(usage.answer.completionTokens, 12, "the server's own count is kept");
    assert.ok((usage.answer.promptTokens ?? 0) > 0, `estimated: ${usage.answer.promptTokens}`);
    assert.equal(usage.answer.estimated, true);
    assert.deepEqual(usage.answer.estimatedCalls, { prompt: 1, completion: 0 }, 'only the prompt count is an estimate');
    assert.ok(usage.answer.costUsd !== undefined && usage.totalCostUsd !== undefined, 'priced, not "no price is known"');
    const finished = run.events.find((event) => event.type === EventType.RUN_FINISHED) as { usage?: { tandem?: unknown }[] } | undefined;
    assert.deepEqual(finished?.usage?.[0]?.tandem, { estimated: true, estimatedCounts: ['inputTokens', 'totalTokens'] });
  });

  it('an attempt cut short whose usage lacks prompt_tokens gets that count estimated too', async () => {
    // Four lines: the role, the text, the finish and the usage chunk; the stream drops before [DONE].
    const model = await serve([
      { model: 'answer-model', content: 'Cut.', usage: { prompt_tokens: null, completion_tokens: 7 }, fault: { kind: 'drop', afterChunks: 4 } },
      { model: 'answer-model', content: 'Whole.', usage: { prompt_tokens: 100, completion_tokens: 10 } },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(model.requests[0]?.sentUsage?.completion_tokens, 7, 'the usage chunk was sent before the drop');
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.deepEqual([usage.answer.calls, usage.answer.partialAttempts], [1, 1]);
    assert.equal(usage.answer.completionTokens, 17, "the server's count of the cut attempt is kept");
    assert.ok((usage.answer.promptTokens ?? 0) > 100, `the cut attempt's prompt is counted: ${usage.answer.promptTokens}`);
    assert.ok(usage.answer.costUsd !== undefined);
  });

  it('reasoning tokens a server reports are kept, per model and for AG-UI', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Thought it through.', usage: { prompt_tokens: 900, completion_tokens: 70, reasoning_tokens: 40 } }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.equal(usage.answer.reasoningTokens, 40);
    assert.equal(usage.functionCall.reasoningTokens, undefined, 'not reported, not 0');
    const finished = run.events.find((event) => event.type === EventType.RUN_FINISHED) as { usage?: { reasoningTokens?: number }[] } | undefined;
    assert.equal(finished?.usage?.[0]?.reasoningTokens, 40);
  });

  it('Stop during the answer still counts the tokens streamed so far, and prices them', async () => {
    const model = await serve([{ model: 'answer-model', content: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), chunkDelayMs: 5 }]);
    const stop = new AbortController();
    let deltas = 0;
    const pricing = { 'answer-model': { input: 1, output: 1_000 } };
    const run = await runScripted(settingsFor(model, { pricing }), {
      mode: 'chat',
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === EventType.TEXT_MESSAGE_CONTENT && ++deltas === 20) stop.abort();
      },
    });
    assert.equal(run.result?.stopReason, 'cancelled');
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.equal(usage.answer.partialAttempts, 1);
    assert.ok((usage.answer.promptTokens ?? 0) > 0 && (usage.answer.completionTokens ?? 0) > 0, JSON.stringify(usage.answer));
    // The cut answer was paid for: its estimated tokens are in the model's cost and the run's.
    const expected = ((usage.answer.promptTokens ?? 0) * 1 + (usage.answer.completionTokens ?? 0) * 1_000) / 1_000_000;
    assert.equal(usage.answer.calls, 0);
    assert.ok(Math.abs((usage.answer.costUsd ?? 0) - expected) < 1e-12, `${usage.answer.costUsd} ≈ ${expected}`);
    assert.ok((usage.answer.costUsd ?? 0) > 0);
    assert.equal(usage.totalCostUsd, usage.answer.costUsd);
  });

  it('Stop after the headers, before the first byte of the answer, still counts the call, its prompt estimated and priced', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Too late.', headersFirst: true, firstByteDelayMs: 30_000 }]);
    const stop = new AbortController();
    // Stopped once the server has the request and has answered its headers (half a second for the client
    // to read them), and is still silent.
    let seenAt: number | undefined;
    const sent = setInterval(() => {
      if (seenAt === undefined && model.requests.some((request) => request.path === '/v1/chat/completions')) seenAt = Date.now();
      if (seenAt !== undefined && Date.now() - seenAt >= 500) stop.abort();
    }, 5);
    const pricing = { 'answer-model': { input: 1, output: 1_000 } };
    const run = await runScripted(settingsFor(model, { pricing }), { mode: 'chat', signal: stop.signal }).finally(() => clearInterval(sent));
    assert.equal(run.result?.stopReason, 'cancelled');
    const usage = customValues<RunUsage>(run.events, 'tandem.usage').at(-1)!;
    assert.deepEqual([usage.answer.calls, usage.answer.partialAttempts], [0, 1]);
    assert.ok((usage.answer.promptTokens ?? 0) > 0, JSON.stringify(usage.answer));
    assert.equal(usage.answer.completionTokens, 0, 'nothing came back');
    assert.equal(usage.answer.estimated, true);
    assert.equal(usage.answer.costUsd, (usage.answer.promptTokens ?? 0) / 1_000_000);
  });
});
