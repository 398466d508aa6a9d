// Servers that refuse part of a request, through the real SDK against the
// scripted server speaking each server's error text: the request changes
// instead of being retried identically.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { customValues, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const json = (message: string) => JSON.stringify({ error: { message, type: 'invalid_request_error' } });
const table = () => new TableTool('lookup', { a: 'A stands for alpha in this table.' });
const envelope: ScriptedTurn = { model: 'fc-model', content: '{"response": "Looking up a.", "mcp": {"tool": "lookup", "params": {"key": "a"}}}' };

describe('request fallbacks', () => {
  it('a 400 about stream_options is asked again without it, and the answer still comes', async () => {
    const model = await serve([
      { model: 'answer-model', fault: { kind: 'status', status: 400, body: json('Unrecognized request argument supplied: stream_options') } },
      { model: 'answer-model', content: 'Fine.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, 'Fine.');
    assert.deepEqual(model.requests.map((request) => request.includeUsage), [true, false]);
    assert.equal(model.requests[1]?.body.stream_options, undefined);
  });

  it('Ollama\'s "does not support tools" switches to the JSON envelope and remembers it for that model', async () => {
    const model = await serve([
      { model: 'fc-model', fault: { kind: 'status', status: 400, body: json('registry.ollama.ai/library/fc-model:latest does not support tools') } },
      envelope,
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'A is alpha.' },
      { model: 'fc-model', content: 'Nothing to call.' },
      { model: 'answer-model', content: 'Hi.' },
    ]);
    const tool = table();
    const run = await runScripted(settingsFor(model), { tools: [tool] });
    assert.equal(run.result?.answer, 'A is alpha.');
    assert.equal(tool.runs, 1, 'the envelope call ran');
    assert.ok(model.requests[0]?.tools?.length, 'the first request offered tools');
    assert.equal(model.requests[1]?.tools, undefined, 'asked again without tools');
    assert.match(customValues<{ reason: string }>(run.events, 'tandem.retry')[0]?.reason ?? '', /JSON envelope/);
    await runScripted(settingsFor(model), { tools: [table()] });
    assert.equal(model.requests[4]?.tools, undefined, 'the next run remembers it');
  });

  it("a server-side tool-call parse error (llama.cpp) is not retried identically: the envelope is used once", async () => {
    const model = await serve([
      { model: 'fc-model', fault: { kind: 'status', status: 500, body: json('Failed to parse tool call arguments as JSON: [json.exception.parse_error.101]') } },
      envelope,
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'A is alpha.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    assert.equal(run.result?.answer, 'A is alpha.');
    assert.equal(model.requests[1]?.tools, undefined, 'the retry used the envelope');
    assert.ok(model.requests[2]?.tools?.length, 'the next call offers native tools again');
  });
});

describe('a reasoning model its name does not reveal', () => {
  // OpenAI's bodies for a reasoning model (an Azure deployment may be named anything).
  const refused = (param: string, code: string, message: string) => JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } });

  it('gets max_completion_tokens and no temperature after saying so, and the next run sends them so at once', async () => {
    const model = await serve([
      { model: 'answer-model', fault: { kind: 'status', status: 400, body: refused('max_tokens', 'unsupported_parameter', "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.") } },
      { model: 'answer-model', fault: { kind: 'status', status: 400, body: refused('temperature', 'unsupported_value', "Unsupported value: 'temperature' does not support 0.3 with this model. Only the default (1) value is supported.") } },
      { model: 'answer-model', content: 'Fine.' },
      { model: 'answer-model', content: 'Again.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, 'Fine.');
    const sent = model.requests.map(({ body }) => ({ max_tokens: body.max_tokens, max_completion_tokens: body.max_completion_tokens, temperature: body.temperature }));
    assert.deepEqual(sent, [
      { max_tokens: 512, max_completion_tokens: undefined, temperature: 0.3 },
      { max_tokens: undefined, max_completion_tokens: 512, temperature: 0.3 },
      { max_tokens: undefined, max_completion_tokens: 512, temperature: undefined },
    ]);
    assert.deepEqual(
      customValues<{ reason: string }>(run.events, 'tandem.retry').map(({ reason }) => /max_completion_tokens|default temperature/.exec(reason)?.[0]),
      ['max_completion_tokens', 'default temperature'],
    );
    const again = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(again.result?.answer, 'Again.');
    assert.deepEqual({ max_tokens: model.requests[3]?.body.max_tokens, max_completion_tokens: model.requests[3]?.body.max_completion_tokens, temperature: model.requests[3]?.body.temperature }, { max_tokens: undefined, max_completion_tokens: 512, temperature: undefined });
  });

  it("Kimi's wording for a fixed temperature counts too; another 400 about temperature's range does not change the request", async () => {
    const model = await serve([
      { model: 'answer-model', fault: { kind: 'status', status: 400, body: JSON.stringify({ message: 'invalid temperature: only 1 is allowed for this model', type: 'invalid_request_error' }) } },
      { model: 'answer-model', content: 'Fine.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, 'Fine.');
    assert.equal(model.requests[1]?.body.temperature, undefined);
    await model.close();
    const strict = await serve([
      {
        model: 'answer-model',
        fault: {
          kind: 'status',
          status: 400,
          body: JSON.stringify({ error: { message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.", type: 'invalid_request_error', param: 'temperature', code: 'decimal_above_max_value' } }),
        },
      },
    ]);
    const failed = await runScripted(settingsFor(strict), { mode: 'chat' });
    assert.equal(strict.requests.length, 1, 'not asked again');
    assert.equal(failed.result, undefined);
  });
});

describe('long tool descriptions', () => {
  // What OpenAI sends for a description over its limit (MCP servers often write longer ones).
  const tooLong = (index: number, length: number) =>
    JSON.stringify({
      error: {
        message: `Invalid 'tools[${index}].function.description': string too long. Expected a string with maximum length 1024, but got a string with length ${length} instead.`,
        type: 'invalid_request_error',
        param: `tools[${index}].function.description`,
        code: 'string_above_max_length',
      },
    });

  it('are shortened and asked again at once, not taken for a full context window; the endpoint and model remember it', async () => {
    const wordy = table();
    Object.defineProperty(wordy, 'description', { value: `Looks a key up. ${'It explains at length what each key means. '.repeat(70)}The end.` });
    const terse = new TableTool('other', {});
    const model = await serve([
      { model: 'fc-model', fault: { kind: 'status', status: 400, body: tooLong(0, wordy.description.length) } },
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }] },
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'A is alpha.' },
      { model: 'fc-model', content: 'Nothing to call.' },
      { model: 'answer-model', content: 'Hi.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [wordy, terse] });
    assert.equal(run.result?.answer, 'A is alpha.');
    assert.equal(wordy.runs, 1);
    const described = (index: number, name: string): string => model.requests[index]?.tools?.find((tool: { function: { name: string } }) => tool.function.name === name)?.function.description ?? '';
    assert.equal(described(0, 'lookup'), wordy.description, 'sent whole at first');
    const shortened = described(1, 'lookup');
    assert.ok(shortened.length <= 1024, `${shortened.length} characters`);
    assert.ok(shortened.startsWith('Looks a key up. It explains') && shortened.endsWith('…'), shortened.slice(-40));
    assert.equal(described(1, 'other'), terse.description, 'a short description is left as it is');
    assert.match(customValues<{ reason: string }>(run.events, 'tandem.retry')[0]?.reason ?? '', /tool descriptions over 1,024 characters/);
    assert.equal(customValues(run.events, 'tandem.condensed').length, 0, 'the conversation was not condensed for it');
    await runScripted(settingsFor(model), { tools: [wordy] });
    assert.ok(described(4, 'lookup').length <= 1024, 'the next run sends it short from the start');
  });

  it('with no description over the limit, the same refusal is not answered by sending the same request again', async () => {
    const model = await serve([{ model: 'fc-model', fault: { kind: 'status', status: 400, body: tooLong(0, 1100) } }]);
    const run = await runScripted(settingsFor(model), { tools: [table()] });
    assert.equal(model.requests.length, 1);
    assert.equal(run.result, undefined);
  });
});

describe('envelope prompt', () => {
  it('lists each tool with its parameters, types and which are required', async () => {
    const { functionCallSystemPrompt } = await import('../../../src/agent/prompts');
    const prompt = functionCallSystemPrompt(
      [{ name: 'read_file', description: 'Reads a file.\nMore.', parameters: { type: 'object', properties: { path: { type: 'string' }, startLine: { type: 'integer' }, mode: { enum: ['a', 'b'] } }, required: ['path'] } }],
      { remind: false },
    );
    assert.match(prompt, /- read_file\(path: string, startLine\?: integer, mode\?: "a" \| "b"\): Reads a file\./);
  });
});
