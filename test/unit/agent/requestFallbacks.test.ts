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
