// Rules text reaches the system prompt of both models (over real HTTP to the
// scripted server), in agent and chat mode, and the run names the files used.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
});
