import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CancelledError, ModelApiError } from '../../../src/common/errors';
import type { ModelSettings, ToolSchema } from '../../../src/models/chatModel';
import { createChatModel, listModels } from '../../../src/models/openAiChatModel';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { collectTurn } from './collectTurn';

const readFileTool: ToolSchema = {
  name: 'read_file',
  description: 'Reads a file of the workspace.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('createChatModel streaming', () => {
  let server: ScriptedModelServer;
  let settings: ModelSettings;
  before(async () => {
    server = await startScriptedModelServer();
    settings = { baseUrl: server.baseUrl, model: 'caller', temperature: 0.2, maxTokens: 321 };
  });
  after(() => server.close());

  it('streams text token by token and returns the whole turn', async () => {
    server.push({ model: 'caller', content: 'The answer is 42.' });
    const signal = new AbortController().signal;
    const { deltas, turn } = await collectTurn(
      createChatModel(settings).streamTurn({ messages: [{ role: 'user', content: 'Question?' }] }, signal),
    );
    assert.deepEqual(
      deltas.map((delta) => (delta.type === 'text' ? delta.delta : delta.type)),
      ['The ', 'answer ', 'is ', '42.'],
    );
    assert.equal(turn.content, 'The answer is 42.');
    assert.equal(turn.model, 'caller');
    assert.equal(turn.finishReason, 'stop');
    assert.equal(turn.attempts, 1);
    assert.deepEqual(turn.toolCalls, []);
    const logged = server.requests.at(-1)!;
    assert.equal(logged.stream, true);
    assert.equal(logged.includeUsage, true);
    assert.equal(logged.body.temperature, 0.2);
    assert.equal(logged.body.max_tokens, 321);
    assert.equal(logged.tools, undefined, 'no tools field when no tools are given');
  });

  it('streams reasoning before the content', async () => {
    server.push({ reasoning: 'Think first.', content: 'Done.' });
    const { deltas, turn } = await collectTurn(
      createChatModel(settings).streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal),
    );
    assert.deepEqual(
      deltas.map((delta) => delta.type),
      ['reasoning', 'reasoning', 'text'],
    );
    assert.equal(turn.reasoning, 'Think first.');
    assert.equal(turn.content, 'Done.');
  });

  it('reads reasoning written into the text between <think> tags (a server without a reasoning parser) as reasoning', async () => {
    server.push({ content: '<think>\nThe user wants the export.\n</think>\n\nIt exports greet.' });
    const { deltas, turn } = await collectTurn(
      createChatModel(settings).streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal),
    );
    assert.equal(turn.reasoning, '\nThe user wants the export.\n');
    assert.equal(turn.content, 'It exports greet.');
    assert.equal(deltas.filter((delta) => delta.type === 'text').map((delta) => (delta.type === 'text' ? delta.delta : '')).join(''), 'It exports greet.');
    const kinds = deltas.map((delta) => delta.type);
    assert.ok(kinds.indexOf('text') > kinds.lastIndexOf('reasoning'), 'the reasoning streams before the answer');
  });

  it('reads a reply that closes a <think> its prompt opened (DeepSeek-R1, QwQ templates): the text before the tag turns into reasoning', async () => {
    server.push({ content: 'The user wants the export.\n</think>\n\nIt exports greet.' });
    const { deltas, turn } = await collectTurn(
      createChatModel(settings).streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal),
    );
    assert.equal(turn.reasoning, 'The user wants the export.\n');
    assert.equal(turn.content, 'It exports greet.');
    const moved = deltas.findIndex((delta) => delta.type === 'textWasReasoning');
    assert.ok(moved > 0, 'the text streamed first, then was taken back');
    assert.deepEqual(deltas[moved], { type: 'textWasReasoning', reasoning: 'The user wants the export.\n' });
    const after = deltas.slice(moved + 1).map((delta) => (delta.type === 'text' ? delta.delta : '')).join('');
    assert.equal(after, 'It exports greet.');
  });

  it('accumulates two parallel tool calls whose arguments arrive in pieces', async () => {
    server.push({
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: { path: 'src/one.ts' } },
        { id: 'call_b', name: 'read_file', arguments: { path: 'src/two.ts' } },
      ],
    });
    const { deltas, turn } = await collectTurn(
      createChatModel(settings).streamTurn(
        { messages: [{ role: 'user', content: 'read both' }], tools: [readFileTool] },
        new AbortController().signal,
      ),
    );
    assert.deepEqual(turn.toolCalls, [
      { id: 'call_a', name: 'read_file', arguments: '{"path":"src/one.ts"}' },
      { id: 'call_b', name: 'read_file', arguments: '{"path":"src/two.ts"}' },
    ]);
    assert.equal(turn.finishReason, 'tool_calls');
    const starts = deltas.filter((delta) => delta.type === 'toolCallStart');
    assert.deepEqual(starts, [
      { type: 'toolCallStart', index: 0, id: 'call_a', name: 'read_file' },
      { type: 'toolCallStart', index: 1, id: 'call_b', name: 'read_file' },
    ]);
    const argsOfFirst = deltas.filter((delta) => delta.type === 'toolCallArgs' && delta.index === 0);
    assert.ok(argsOfFirst.length >= 3, 'arguments of one call arrived in several deltas');
    const logged = server.requests.at(-1)!;
    assert.deepEqual(logged.tools, [
      {
        type: 'function',
        function: { name: 'read_file', description: readFileTool.description, parameters: readFileTool.parameters },
      },
    ]);
  });

  it('sends tool results back in OpenAI wire format', async () => {
    server.push({ content: 'ok' });
    await collectTurn(
      createChatModel(settings).streamTurn(
        {
          messages: [
            { role: 'system', content: 'sys' },
            { role: 'user', content: 'u' },
            { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }] },
            { role: 'tool', toolCallId: 'c1', content: 'file text' },
          ],
          tools: [readFileTool],
        },
        new AbortController().signal,
      ),
    );
    assert.deepEqual(server.requests.at(-1)!.messages, [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'u' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'file text' },
    ]);
  });

  it('sends turns that alternate: system messages at the head become one, user messages in a row (a failed run\'s prompt, then the next) become one', async () => {
    server.push({ content: 'ok' });
    await collectTurn(
      createChatModel(settings).streamTurn(
        {
          messages: [
            { role: 'system', content: 'rules' },
            { role: 'system', content: 'summary' },
            { role: 'user', content: 'first, whose run failed' },
            { role: 'user', content: 'second' },
            { role: 'assistant', content: 'answer' },
            { role: 'user', content: 'third' },
          ],
        },
        new AbortController().signal,
      ),
    );
    assert.deepEqual(server.requests.at(-1)!.messages, [
      { role: 'system', content: 'rules\n\nsummary' },
      { role: 'user', content: 'first, whose run failed\n\nsecond' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: 'third' },
    ]);
  });

  it('reports the usage the server sent, including cached tokens', async () => {
    server.push({ content: 'a', usage: { prompt_tokens: 120, completion_tokens: 9, cached_tokens: 64 } }, { content: 'b c' });
    const model = createChatModel(settings);
    const first = await collectTurn(model.streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal));
    assert.deepEqual(first.turn.usage, { promptTokens: 120, completionTokens: 9, cachedTokens: 64, estimated: false });
    const second = await collectTurn(model.streamTurn({ messages: [{ role: 'user', content: 'y' }] }, new AbortController().signal));
    const sent = server.requests.at(-1)!.sentUsage!;
    assert.deepEqual(second.turn.usage, {
      promptTokens: sent.prompt_tokens,
      completionTokens: sent.completion_tokens,
      cachedTokens: sent.prompt_tokens_details.cached_tokens,
      estimated: false,
    });
  });

  it('estimates usage, labelled as an estimate, when the server sends none', async () => {
    const content = 'word '.repeat(40).trim();
    server.push({ content, usage: false });
    const messages = [{ role: 'user' as const, content: 'q'.repeat(400) }];
    const { turn } = await collectTurn(createChatModel(settings).streamTurn({ messages }, new AbortController().signal));
    assert.equal(server.requests.at(-1)!.sentUsage, undefined);
    assert.equal(turn.usage.estimated, true);
    assert.equal(turn.usage.cachedTokens, undefined);
    // ~4 characters a token: 400 characters of prompt plus JSON framing, 199 characters of output.
    assert.ok(turn.usage.promptTokens! >= 100 && turn.usage.promptTokens! <= 120, `prompt ${turn.usage.promptTokens}`);
    assert.equal(turn.usage.completionTokens, Math.ceil(content.length / 4));
  });

  it('sends no Authorization header without an API key, and the key when there is one', async () => {
    server.push({ content: 'a' }, { content: 'b' });
    await collectTurn(createChatModel(settings).streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal));
    assert.equal(server.requests.at(-1)!.authorization, undefined);
    const keyed = createChatModel({ ...settings, apiKey: 'sk-local-test' });
    await collectTurn(keyed.streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal));
    assert.equal(server.requests.at(-1)!.authorization, 'Bearer sk-local-test');
  });

  it('omits temperature and max_tokens when the settings have none', async () => {
    server.push({ content: 'a' });
    const plain = createChatModel({ baseUrl: server.baseUrl, model: 'caller' });
    await collectTurn(plain.streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal));
    const body = server.requests.at(-1)!.body;
    assert.equal('temperature' in body, false);
    assert.equal('max_tokens' in body, false);
  });
});

describe('listModels', () => {
  it('lists the models the server offers, sorted', async () => {
    const server = await startScriptedModelServer({ models: ['zeta', 'alpha', 'mid'] });
    try {
      assert.deepEqual(await listModels({ baseUrl: server.baseUrl, model: '' }), ['alpha', 'mid', 'zeta']);
    } finally {
      await server.close();
    }
  });
});

describe('listModels failures', () => {
  it('reports a timeout as a ModelApiError and a user abort as a CancelledError', async () => {
    // A server that accepts the connection and never answers, for the timeout.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    try {
      const started = Date.now();
      await assert.rejects(listModels({ baseUrl: silentUrl, model: 'm' }, AbortSignal.timeout(100)), (error: unknown) => {
        assert.ok(error instanceof ModelApiError);
        assert.match(error.message, /timed out/);
        return true;
      });
      assert.ok(Date.now() - started < 1_000);
      const controller = new AbortController();
      const pending = listModels({ baseUrl: silentUrl, model: 'm' }, controller.signal);
      setTimeout(() => controller.abort(), 20);
      await assert.rejects(pending, CancelledError);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('openAiChatModel module', () => {
  it('does not load the openai SDK until a model is called', () => {
    const script =
      "require('./src/models/openAiChatModel');" +
      "const loaded = Object.keys(require.cache).filter((key) => key.includes('node_modules/openai/'));" +
      'process.stdout.write(String(loaded.length));';
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: join(__dirname, '../../..') });
    assert.equal(output.toString(), '0');
  });
});

describe('createChatModel against a server that ignores stream: true', () => {
  it('treats a reply without stream chunks as malformed and retries', async () => {
    const server = await startScriptedModelServer();
    try {
      let calls = 0;
      // A plain JSON reply instead of SSE, then a real stream.
      const fetchOverride: typeof fetch = async (input, init) => {
        calls++;
        if (calls === 1) return new Response('{"choices":[]}', { headers: { 'content-type': 'application/json' } });
        return fetch(input, init);
      };
      server.push({ content: 'streamed' });
      const model = createChatModel(
        { baseUrl: server.baseUrl, model: 'm' },
        { fetch: fetchOverride, retry: { baseDelayMs: 1 } },
      );
      const { deltas, turn } = await collectTurn(model.streamTurn({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal));
      const retry = deltas.find((delta) => delta.type === 'retry');
      assert.match(retry?.type === 'retry' ? retry.reason : '', /no stream chunks/);
      assert.equal(turn.content, 'streamed');
      assert.equal(turn.attempts, 2);
    } finally {
      await server.close();
    }
  });
});

describe('a base URL that is not one', () => {
  it('ends the turn before anything is sent, naming the setting to fix', async () => {
    const model = createChatModel({ baseUrl: 'localhost 11434/v1', model: 'llama3.2' });
    await assert.rejects(collectTurn(model.streamTurn({ messages: [{ role: 'user', content: 'Hi' }] }, new AbortController().signal)), (error: unknown) => {
      assert.ok(error instanceof ModelApiError);
      assert.equal(error.retryable, false);
      assert.match(error.message, /"localhost 11434\/v1" is not an http\(s\) URL/);
      assert.match(error.suggestion ?? '', /tandem\.functionCallModel\.baseUrl/);
      return true;
    });
  });
});
