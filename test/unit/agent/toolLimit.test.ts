// A request offers at most 128 tools (OpenAI's limit): with more on, a run
// offers the first 128 — the workspace tools first — and a notice names what
// was left out; the scripted server sees exactly 128.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MAX_TOOLS_PER_REQUEST } from '../../../src/agent/toolLimit';
import type { Tool } from '../../../src/tools/tool';
import { notices, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();

function mcpTool(server: string, index: number): Tool {
  return {
    name: `${server}__t${String(index).padStart(3, '0')}`,
    description: `Tool ${index} of ${server}.`,
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    source: { kind: 'mcp', server },
    run: async () => ({ text: 'ok' }),
  };
}

it('with more than 128 tools on, a run offers the first 128, workspace tools kept, and says which servers lost theirs', async () => {
  const workspace = new TableTool('lookup', { a: 'found a' });
  const tools = [workspace, ...Array.from({ length: 100 }, (_, index) => mcpTool('alpha', index)), ...Array.from({ length: 40 }, (_, index) => mcpTool('zeta', index))];
  const model = await serve([
    { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }] },
    { model: 'fc-model', content: 'done' },
    { model: 'answer-model', content: 'Found a.' },
  ]);
  const run = await runScripted(settingsFor(model), { tools });
  assert.equal(run.result?.answer, 'Found a.');
  const offered = (model.requests[0]!.tools ?? []) as { function: { name: string } }[];
  assert.equal(offered.length, MAX_TOOLS_PER_REQUEST);
  assert.equal(offered[0]?.function.name, 'lookup');
  assert.equal(offered.at(-1)?.function.name, 'zeta__t026');
  assert.deepEqual(notices(run.events).filter((notice) => notice.code === 'toolsCapped'), [
    {
      code: 'toolsCapped',
      level: 'warning',
      message: '141 tools are on, and a request may offer at most 128: the last 13 (from "zeta") are not offered in this run. Turn off the servers or tools you do not need in "Tandem: Show MCP Servers".',
    },
  ]);
});

it('128 tools or fewer: all offered, nothing said', async () => {
  const tools = Array.from({ length: MAX_TOOLS_PER_REQUEST }, (_, index) => mcpTool('alpha', index));
  const model = await serve([{ model: 'fc-model', content: 'done' }, { model: 'answer-model', content: 'Nothing to do.' }]);
  const run = await runScripted(settingsFor(model), { tools });
  assert.equal(((model.requests[0]!.tools ?? []) as unknown[]).length, MAX_TOOLS_PER_REQUEST);
  assert.equal(notices(run.events).some((notice) => notice.code === 'toolsCapped'), false);
});
