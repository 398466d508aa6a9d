// Rules text reaches the system prompt of both models (over real HTTP to the
// scripted server), in agent and chat mode, and the run names the files used.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createNestedRulesFinder } from '../../../src/tools/nestedRules';
import { makeKit } from '../tools/workspaceTestKit';
import { notices, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const rules = [
  { path: 'AGENTS.md', text: 'Always answer in haiku. RULE-MARKER-42' },
  { path: '.tandem/rules/style.md', text: 'Prefer small functions.' },
];

function systemPrompt(body: any): string {
  return body.messages.find((message: { role: string }) => message.role === 'system')?.content ?? '';
}

describe('rules files in the prompts', () => {
  it('join both system prompts in agent mode, with a notice naming the files', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }] },
      { model: 'fc-model', content: 'Done.' },
      { model: 'answer-model', content: 'An answer.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: [new TableTool('lookup', { a: 'the value of a is 1' })], rules });
    assert.equal(run.result?.stopReason, 'noToolCall');
    const fcRequests = model.requests.filter((request) => request.body.model === 'fc-model');
    const answerRequests = model.requests.filter((request) => request.body.model === 'answer-model');
    assert.equal(fcRequests.length, 2);
    assert.equal(answerRequests.length, 1);
    for (const request of [...fcRequests, ...answerRequests]) {
      const prompt = systemPrompt(request.body);
      assert.match(prompt, /--- AGENTS\.md ---\nAlways answer in haiku\. RULE-MARKER-42/);
      assert.match(prompt, /--- \.tandem\/rules\/style\.md ---\nPrefer small functions\./);
      assert.match(prompt, /cannot change your tools, the approvals/);
    }
    assert.deepEqual(notices(run.events).filter((notice) => notice.code === 'rules').map((notice) => notice.message), ['Rules: AGENTS.md, .tandem/rules/style.md']);
  });

  it('join the chat prompt in chat mode', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Hi.' }]);
    await runScripted(settingsFor(model), { mode: 'chat', rules });
    assert.match(systemPrompt(model.requests[0]!.body), /RULE-MARKER-42/);
  });

  it('no rules: no notice and the prompt has no rules section', async () => {
    const model = await serve([{ model: 'fc-model', content: 'Nothing to do.' }, { model: 'answer-model', content: 'Ok.' }]);
    const run = await runScripted(settingsFor(model));
    assert.equal(notices(run.events).some((notice) => notice.code === 'rules'), false);
    for (const request of model.requests) assert.doesNotMatch(systemPrompt(request.body), /Repository rules/);
  });

  it('a nested AGENTS.md joins both system prompts once a file under it is read, with a notice', async () => {
    const kit = makeKit();
    try {
      mkdirSync(path.join(kit.root, 'pkg', 'src'), { recursive: true });
      writeFileSync(path.join(kit.root, 'pkg', 'AGENTS.md'), 'Package rules. NESTED-MARKER-9');
      writeFileSync(path.join(kit.root, 'pkg', 'src', 'a.txt'), 'contents of a');
      const model = await serve([
        { model: 'fc-model', toolCalls: [{ name: 'read_file', arguments: { path: 'pkg/src/a.txt' } }] },
        { model: 'fc-model', toolCalls: [{ name: 'read_file', arguments: { path: 'pkg/src/a.txt', startLine: 1 } }] },
        { model: 'fc-model', content: 'Done.' },
        { model: 'answer-model', content: 'An answer.' },
      ]);
      const run = await runScripted(settingsFor(model), {
        tools: kit.tools,
        rules: [rules[0]!],
        nestedRules: createNestedRulesFinder([{ folder: kit.root, label: '' }], ['AGENTS.md']),
      });
      assert.equal(run.result?.stopReason, 'noToolCall');
      const prompts = model.requests.map((request) => [request.body.model, systemPrompt(request.body)] as const);
      assert.equal(prompts.length, 4);
      assert.doesNotMatch(prompts[0]![1], /NESTED-MARKER-9/, 'not before the file is read');
      for (const [name, prompt] of prompts.slice(1)) {
        assert.match(prompt, /--- pkg\/AGENTS\.md ---\nPackage rules\. NESTED-MARKER-9/, name);
        assert.match(prompt, /RULE-MARKER-42/, name);
        assert.equal(prompt.split('NESTED-MARKER-9').length, 2, `${name}: once`);
      }
      assert.equal(prompts[3]![0], 'answer-model');
      assert.deepEqual(notices(run.events).filter((notice) => notice.code === 'rules').map((notice) => notice.message), [
        'Rules: AGENTS.md',
        'Rules: + pkg/AGENTS.md (for pkg/src/a.txt)',
      ]);
    } finally {
      kit.dispose();
    }
  });
});
