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
