// The agent loop with the real workspace tools against the scripted model
// server: the model searches, then edits; the edit lands only when approved,
// and the tool results reach the model in the next request.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ScriptedModelServer, ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { REJECTED_EDIT_TEXT } from '../../../src/tools/workspaceToolSupport';
import { runScripted, settingsFor } from '../agent/agentTestSupport';
import { perTestWorkspace, type Kit } from './workspaceTestKit';

const each = perTestWorkspace();

const script: ScriptedTurn[] = [
  { model: 'fc-model', toolCalls: [{ name: 'search_text', arguments: { query: 'TODO' } }] },
  {
    model: 'fc-model',
    toolCalls: [{ name: 'edit_file', arguments: { path: 'src/todo.ts', edits: [{ oldText: '// TODO: return the sum', newText: '// returns the sum' }] } }],
  },
  { model: 'fc-model', content: 'Done with the tools.' },
  { model: 'answer-model', content: 'I replaced the TODO comment.' },
];

function workspace(): Kit {
  const kit = each.kit();
  mkdirSync(path.join(kit.root, 'src'));
  writeFileSync(path.join(kit.root, 'src', 'todo.ts'), '// TODO: return the sum\nexport const add = (a: number, b: number) => a + b;\n');
  return kit;
}

/** Tool results in the function-call model's third request (after both tool rounds). */
function toolMessages(model: ScriptedModelServer): string[] {
  const third = model.requests.filter((request) => request.model === 'fc-model')[2];
  return (third?.messages ?? []).filter((message: { role: string }) => message.role === 'tool').map((message: { content: string }) => message.content);
}

describe('agent loop with the workspace tools', () => {
  it('searches, then edits with approval, and the model sees both results', async () => {
    const tools = workspace();
    const server = await each.serve({ turns: script });
    const asked: unknown[] = [];
    const run = await runScripted(settingsFor(server), {
      tools: tools.tools,
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });
    assert.equal(run.error, undefined);
    assert.equal(run.result?.answer, 'I replaced the TODO comment.');
    assert.equal(readFileSync(path.join(tools.root, 'src', 'todo.ts'), 'utf8'), '// returns the sum\nexport const add = (a: number, b: number) => a + b;\n');
    assert.equal(asked.length, 1, 'only the edit asks; the search is read-only');
    assert.ok(server.requests[0]?.tools?.some((tool: { function: { name: string } }) => tool.function.name === 'edit_file'));
    const results = toolMessages(server);
    assert.match(results[0] ?? '', /^1 matching lines in 1 files for "TODO":\n1\. src\/todo\.ts:1: \/\/ TODO: return the sum/u);
    assert.equal(results[1], 'Edited src/todo.ts: 1 replacement.');
  });

  it('a rejected edit leaves the file alone and tells the model', async () => {
    const tools = workspace();
    const server = await each.serve({ turns: script });
    const run = await runScripted(settingsFor(server), { tools: tools.tools, approve: () => false });
    assert.equal(run.error, undefined);
    assert.equal(readFileSync(path.join(tools.root, 'src', 'todo.ts'), 'utf8'), '// TODO: return the sum\nexport const add = (a: number, b: number) => a + b;\n');
    assert.equal(toolMessages(server)[1], REJECTED_EDIT_TEXT);
    const statuses = run.events.filter((event) => event.type === 'CUSTOM' && event['name'] === 'tandem.toolStatus').map((event) => (event['value'] as { status: string }).status);
    assert.deepEqual(statuses, ['done', 'rejected']);
  });
});
