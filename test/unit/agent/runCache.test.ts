// The read-only cache within a run: workspace tools reuse an identical call's
// result; an MCP server's tools do so only when the user marked the server
// `cacheable` in its config.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMcpConfigText } from '../../../src/mcp/mcpConfig';
import type { Tool, ToolResult } from '../../../src/tools/tool';
import { runScripted, scriptedServers, settingsFor, toolStatuses } from './agentTestSupport';

const serve = scriptedServers();

function mcpLikeTool(cacheable: boolean): Tool & { runs: number } {
  const tool = {
    name: 'docs__lookup',
    description: 'Looks something up on a server.',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
    readOnly: true,
    cacheable,
    source: { kind: 'mcp', server: 'docs' } as const,
    runs: 0,
    async run(): Promise<ToolResult> {
      tool.runs++;
      return { text: `result number ${tool.runs} from the docs server` };
    },
  };
  return tool;
}

const twice = () => [
  { model: 'fc-model', toolCalls: [{ name: 'docs__lookup', arguments: { q: 'x' } }] },
  { model: 'fc-model', toolCalls: [{ name: 'docs__lookup', arguments: { q: 'x' } }] },
  { model: 'fc-model', content: 'Enough.' },
  { model: 'answer-model', content: 'Done.' },
];

describe('run cache', () => {
  it('an MCP tool is called again unless its server is cacheable', async () => {
    const fresh = mcpLikeTool(false);
    const model = await serve(twice());
    const run = await runScripted(settingsFor(model), { tools: [fresh] });
    assert.equal(fresh.runs, 2);
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['done', 'done']);
    await model.close();

    const cached = mcpLikeTool(true);
    const again = await serve(twice());
    const second = await runScripted(settingsFor(again), { tools: [cached] });
    assert.equal(cached.runs, 1);
    assert.deepEqual(toolStatuses(second.events).map((status) => status.status), ['done', 'cached']);
  });

  it('"cacheable": true in mcp.json marks the server', () => {
    const file = parseMcpConfigText('{"servers": {"docs": {"url": "https://docs.example/mcp", "cacheable": true}, "local": {"command": "node"}}}', '/ws/.vscode/mcp.json', '/ws');
    assert.equal(file.servers.find((server) => server.name === 'docs')?.cacheable, true);
    assert.equal(file.servers.find((server) => server.name === 'local')?.cacheable, undefined);
  });

  it('a change that fails still clears the cache: a command that exits 1 may have written first', async () => {
    let reads = 0;
    const read: Tool = {
      name: 'read_thing',
      description: 'Reads.',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      source: { kind: 'workspace' },
      async run() {
        reads++;
        return { text: `read ${reads}` };
      },
    };
    const failingChange: Tool = {
      name: 'change_thing',
      description: 'Changes, then fails.',
      parameters: { type: 'object', properties: {} },
      readOnly: false,
      approvesItself: true,
      source: { kind: 'workspace' },
      async run() {
        return { text: 'exit code 1', isError: true };
      },
    };
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'read_thing', arguments: {} }] },
      { model: 'fc-model', toolCalls: [{ name: 'change_thing', arguments: {} }] },
      { model: 'fc-model', toolCalls: [{ name: 'read_thing', arguments: {} }] },
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'Done.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [read, failingChange] });
    assert.equal(reads, 2);
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['done', 'failed', 'done']);
  });

  it('a call cut off by Stop reports what it did as stopped, not failed', async () => {
    const cutOff: Tool = {
      name: 'long_job',
      description: 'Runs until stopped.',
      parameters: { type: 'object', properties: {} },
      readOnly: false,
      approvesItself: true,
      source: { kind: 'workspace' },
      async run() {
        return { text: 'printed this much, then ended with the run', isError: true, stopped: true };
      },
    };
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'long_job', arguments: {} }] },
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'Done.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [cutOff] });
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['stopped']);
  });
});
