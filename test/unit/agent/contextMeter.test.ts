// The context meter through the real SDK against the scripted server: each
// call reports the request's prompt tokens against the model's window, the
// window coming from the setting, the endpoint's /models metadata, the
// built-in table or the 32k fallback; after condensing, the shorter
// request's local count at once.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import type { CondensedPayload, ContextPayload, NoticePayload } from '../../../src/protocol/agentEvents';
import { attachContextMeter } from '../../../src/agent/contextMeter';
import { RunEmitter } from '../../../src/agent/runEmitter';
import { UsageTracker } from '../../../src/agent/usageTracker';
import { knownContextWindow, loadedContextWindow, resolveContextWindow, windowFromModelEntry, FALLBACK_CONTEXT_WINDOW } from '../../../src/models/contextWindow';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { customValues, runScripted, settingsFor, TableTool } from './agentTestSupport';

const servers: ScriptedModelServer[] = [];
after(async () => Promise.all(servers.map((server) => server.close())));
async function serve(options: Parameters<typeof startScriptedModelServer>[0]): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(options);
  servers.push(server);
  return server;
}

describe('context meter', () => {
  it('reports each request against the window the endpoint reports in /models (vLLM max_model_len, OpenRouter context_length)', async () => {
    const model = await serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }], usage: { prompt_tokens: 1200, completion_tokens: 10 } },
        { model: 'fc-model', content: 'Enough.', usage: { prompt_tokens: 1500, completion_tokens: 5 } },
        { model: 'answer-model', content: 'A.', usage: { prompt_tokens: 900, completion_tokens: 2 } },
      ],
      modelMetadata: { 'fc-model': { max_model_len: 8192 }, 'answer-model': { context_length: 16384 } },
    });
    const run = await runScripted(settingsFor(model), { tools: [new TableTool('lookup', { a: 'A stands for alpha in this table.' })] });
    const meters = customValues<ContextPayload>(run.events, 'tandem.context');
    assert.deepEqual(meters.map((meter) => [meter.role, meter.tokens]), [['function-call', 1200], ['function-call', 1500], ['answer', 900]]);
    assert.deepEqual(meters.slice(1).map((meter) => [meter.window, meter.windowSource]), [[8192, 'endpoint'], [16384, 'endpoint']]);
    assert.equal(meters.every((meter) => meter.estimated === false), true);
  });

  it('the setting wins; a server that sends no usage gives an estimated count', async () => {
    const model = await serve({ turns: [{ model: 'answer-model', content: 'Hi.', usage: false }], modelMetadata: { 'answer-model': { max_model_len: 8192 } } });
    const settings = settingsFor(model);
    const run = await runScripted({ ...settings, answerModel: { ...settings.answerModel, contextWindow: 4000 } }, { mode: 'chat' });
    const [meter] = customValues<ContextPayload>(run.events, 'tandem.context');
    assert.equal(meter?.window, 4000);
    assert.equal(meter?.windowSource, 'setting');
    assert.equal(meter?.estimated, true);
    assert.ok((meter?.tokens ?? 0) > 0);
  });

  it('without metadata: the built-in table, else 32k', async () => {
    assert.equal(knownContextWindow('gpt-4o-mini'), 128_000);
    assert.equal(knownContextWindow('openai/gpt-4.1-mini'), 1_047_576);
    assert.equal(knownContextWindow('llama3.1:8b'), 131_072);
    assert.equal(knownContextWindow('my-own-model'), undefined);
    assert.equal(windowFromModelEntry({ id: 'x', top_provider: { context_length: 65536 } }), 65536);
    assert.equal(windowFromModelEntry({ id: 'x', context_length: 'big' }), undefined);
    const model = await serve({ turns: [], models: ['my-own-model', 'gpt-4o'] });
    assert.deepEqual(await resolveContextWindow({ baseUrl: model.baseUrl, model: 'my-own-model' }), { tokens: FALLBACK_CONTEXT_WINDOW, source: 'fallback' });
    assert.deepEqual(await resolveContextWindow({ baseUrl: model.baseUrl, model: 'gpt-4o' }), { tokens: 128_000, source: 'table' });
    assert.deepEqual(await resolveContextWindow({ baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o' }), { tokens: 128_000, source: 'table' }, 'nothing listening: the table');
  });

  it('Ollama: the window a loaded model runs with (/api/ps), asked again once the run\'s first request loaded it; a request that fills it is warned about once', async () => {
    const model = await serve({
      turns: [
        { model: 'qwen2.5:7b', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }], usage: { prompt_tokens: 1200, completion_tokens: 10 } },
        { model: 'qwen2.5:7b', toolCalls: [{ name: 'lookup', arguments: { key: 'b' } }], usage: { prompt_tokens: 3900, completion_tokens: 10 } },
        { model: 'qwen2.5:7b', content: 'Enough.', usage: { prompt_tokens: 4000, completion_tokens: 5 } },
        { model: 'qwen2.5', content: 'A.', usage: { prompt_tokens: 900, completion_tokens: 2 } },
      ],
      // As `ollama ps` reports them: a tag always; `qwen2.5` is `qwen2.5:latest`. Listed once a request loaded them.
      ollama: { windows: { 'qwen2.5:7b': 4096, 'qwen2.5:latest': 8192 } },
    });
    const settings = settingsFor(model);
    const run = await runScripted(
      { ...settings, functionCallModel: { ...settings.functionCallModel, model: 'qwen2.5:7b' }, answerModel: { ...settings.answerModel, model: 'qwen2.5' } },
      { tools: [new TableTool('lookup', { a: 'A stands for alpha in this table.', b: 'B stands for bravo in this table.' })] },
    );
    const meters = customValues<ContextPayload>(run.events, 'tandem.context');
    // The first meter shows the table's 32k: the model was not loaded before the first request, which then loaded it
    // (a request that small fits any window Ollama gives, so it does not wait for a load).
    assert.deepEqual([meters[0]?.window, meters[0]?.windowSource], [32_768, 'table']);
    assert.deepEqual(meters.slice(1).map((meter) => [meter.role, meter.tokens, meter.window, meter.windowSource]), [
      ['function-call', 3900, 4096, 'server'],
      ['function-call', 4000, 4096, 'server'],
      // The answer model's one request is its first: Ollama had not loaded it before.
      ['answer', 900, 32_768, 'table'],
    ]);
    assert.deepEqual(model.ollamaLoads, [], 'small requests: no model loaded ahead of them');
    const warnings = customValues<NoticePayload>(run.events, 'tandem.notice').filter((notice) => notice.code === 'contextFilled');
    assert.equal(warnings.length, 1, 'once a run');
    assert.equal(warnings[0]?.level, 'warning');
    assert.match(warnings[0]?.message ?? '', /used 3900 of the 4096 tokens Ollama runs it with.*OLLAMA_CONTEXT_LENGTH/);
  });

  it('Ollama that has not loaded the model: a first request that may not fit its smallest window loads it first, and is condensed to the window it got', async () => {
    const summary = 'Earlier: the user asked how the project is built (esbuild bundles).';
    const model = await serve({
      turns: [
        { model: 'qwen2.5:7b', content: summary, usage: { prompt_tokens: 1500, completion_tokens: 20 } },
        { model: 'qwen2.5:7b', content: 'I know enough.', usage: { prompt_tokens: 600, completion_tokens: 4 } },
        { model: 'qwen2.5:7b', content: 'The loop is in src/agent/toolPhase.ts.', usage: { prompt_tokens: 500, completion_tokens: 9 } },
      ],
      ollama: { windows: { 'qwen2.5:7b': 2048 } },
    });
    const settings = settingsFor(model);
    const earlier = `The build uses esbuild. ${'Details about the bundles and their entry points. '.repeat(160)}`;
    const run = await runScripted(
      { ...settings, functionCallModel: { ...settings.functionCallModel, model: 'qwen2.5:7b' }, answerModel: { ...settings.answerModel, model: 'qwen2.5:7b' } },
      {
        tools: [new TableTool('lookup', {})],
        messages: [
          { role: 'user', content: 'How is it built?' },
          { role: 'assistant', content: earlier },
          { role: 'user', content: 'Which file holds the loop?' },
        ],
      },
    );
    assert.equal(run.error, undefined, JSON.stringify(run.error));
    assert.equal(model.ollamaLoads[0]?.beforeRequest, 0, `loaded before any chat request: ${JSON.stringify(model.ollamaLoads)}`);
    const [condensed] = customValues<{ reason: string }>(run.events, 'tandem.condensed');
    assert.equal(condensed?.reason, 'nearWindow', 'condensed before it was sent, to the 2048 tokens Ollama gave the model');
    const [, first] = model.requests;
    assert.ok(!JSON.stringify(first?.messages).includes('Details about the bundles'), 'the first function-call request went without the long earlier answer');
    assert.match(JSON.stringify(first?.messages), /esbuild bundles/, 'its summary stands in for it');
    const meters = customValues<ContextPayload>(run.events, 'tandem.context');
    assert.deepEqual([meters[0]?.window, meters[0]?.windowSource], [2048, 'server']);
  });

  it('after an overflow is condensed, the meter shows the shorter request at once, not the figure from before', async () => {
    const longAnswer = `The build uses esbuild. ${'Details about the bundles and their entry points. '.repeat(160)}`;
    const model = await serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }], usage: { prompt_tokens: 1200, completion_tokens: 10 } },
        { model: 'fc-model', fault: { kind: 'contextLength', server: 'llamacpp', window: 2048 } },
        { model: 'answer-model', content: 'Earlier: the user asked how it is built (esbuild).', usage: { prompt_tokens: 1800, completion_tokens: 12 } },
        // Refused again: the run ends before any reply could correct the meter.
        { model: 'fc-model', fault: { kind: 'contextLength', server: 'llamacpp', window: 2048 } },
      ],
      modelMetadata: { 'fc-model': { max_model_len: 8192 } },
    });
    const run = await runScripted(settingsFor(model), {
      tools: [new TableTool('lookup', { a: 'A stands for alpha in this table.' })],
      messages: [
        { role: 'user', content: 'How is it built?' },
        { role: 'assistant', content: longAnswer },
        { role: 'user', content: 'Which file holds the loop?' },
      ],
    });
    assert.equal(run.error?.code, 'CONTEXT_OVERFLOW');
    const [condensed] = customValues<CondensedPayload>(run.events, 'tandem.condensed');
    assert.equal(condensed?.reason, 'overflow');
    const meters = customValues<ContextPayload>(run.events, 'tandem.context');
    // The summary's own call is not the conversation's request: it is not metered.
    assert.deepEqual(meters.map((meter) => [meter.role, meter.tokens, meter.estimated]), [
      ['function-call', 1200, false],
      ['function-call', condensed?.tokensAfter, condensed?.estimated],
    ]);
    assert.equal(condensed?.estimated, true, 'fc-model has no tokenizer of its own: counted by estimate, and marked so');
    assert.deepEqual([meters[1]?.model, meters[1]?.window, meters[1]?.windowSource], ['fc-model', 8192, 'endpoint']);
    assert.deepEqual([meters[0]?.afterCondensing, meters[1]?.afterCondensing], [undefined, true], 'only the local count says it is the next request');
    const names = run.events.flatMap((event) => (event.type === EventType.CUSTOM ? [event.name] : []));
    assert.equal(names.indexOf('tandem.context', names.indexOf('tandem.condensed')), names.indexOf('tandem.condensed') + 1, 'right after the condensing');
  });

  it('Ollama: both roles on one model it has not loaded: loaded once, and both learn the window it got', async () => {
    const model = await serve({ turns: [], ollama: { windows: { 'qwen2.5:7b': 4096 } } });
    const settings = { ...settingsFor(model).functionCallModel, model: 'qwen2.5:7b' };
    const windows = attachContextMeter(new UsageTracker('qwen2.5:7b', 'qwen2.5:7b', {}), new RunEmitter(() => undefined), { 'function-call': settings, answer: { ...settings } });
    const signal = new AbortController().signal;
    assert.equal((await windows.settled('answer')).unloadedOnOllama, true, 'not loaded at first');
    const [first, second] = await Promise.all([windows.load('function-call', signal), windows.load('answer', signal)]);
    assert.deepEqual([first.tokens, first.source, second.tokens, second.source], [4096, 'server', 4096, 'server']);
    assert.equal((await windows.load('answer', signal)).tokens, 4096);
    assert.deepEqual(model.ollamaLoads.map((load) => load.model), ['qwen2.5:7b'], 'one load for the one model');
    assert.equal(windows.current('answer').tokens, 4096);
  });

  it('Ollama with the model not loaded yet: the table, asked again next time; a server without /api/ps is asked once, one that does not answer not for a while', async () => {
    const ollama = await serve({ turns: [], models: ['qwen2.5:7b'], ollama: { windows: { 'qwen2.5:7b': 4096 } } });
    let asked = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith('/api/ps')) asked++;
      return fetch(input, init);
    };
    const settings = { baseUrl: ollama.baseUrl, model: 'qwen2.5:7b' };
    assert.deepEqual(await resolveContextWindow(settings, counting), { tokens: 32_768, source: 'table', unloadedOnOllama: true });
    assert.deepEqual(await resolveContextWindow(settings, counting), { tokens: 32_768, source: 'table', unloadedOnOllama: true });
    assert.equal(asked, 2, 'not loaded is not remembered');
    assert.deepEqual(await loadedContextWindow(settings, new AbortController().signal, counting), { tokens: 4096, source: 'server' }, 'loaded: its window');
    assert.deepEqual(await loadedContextWindow({ ...settings, model: 'not-pulled' }, new AbortController().signal, counting), { tokens: 32_768, source: 'fallback' }, 'a model Ollama does not have: as before');
    const preloaded = await serve({ turns: [], models: ['qwen2.5'], ollama: { windows: { 'qwen2.5:latest': 8192 }, preloaded: true } });
    assert.deepEqual(await resolveContextWindow({ baseUrl: preloaded.baseUrl, model: 'qwen2.5' }, counting), { tokens: 8192, source: 'server' }, 'no tag is :latest');
    const other = await serve({ turns: [], models: ['qwen2.5:7b'] });
    const elsewhere = { baseUrl: other.baseUrl, model: 'qwen2.5:7b' };
    asked = 0;
    assert.deepEqual(await resolveContextWindow(elsewhere, counting), { tokens: 32_768, source: 'table' });
    assert.deepEqual(await resolveContextWindow(elsewhere, counting), { tokens: 32_768, source: 'table' });
    assert.equal(asked, 1, 'no /api/ps there: not asked again');
    const down = { baseUrl: 'http://127.0.0.1:2/v1', model: 'qwen2.5:7b' };
    asked = 0;
    await resolveContextWindow(down, counting);
    assert.deepEqual(await resolveContextWindow(down, counting), { tokens: 32_768, source: 'table' });
    assert.equal(asked, 1, 'no answer: not asked again for a while');
  });
});
