// tandem.prompts through the real SDK against the scripted server: the
// user's templates replace the built-in system prompts per phase, a model
// glob variant wins, placeholders are filled, and the rules still arrive.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSettings } from '../../../src/agent/agentSettings';
import { runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const rules = [{ path: 'AGENTS.md', text: 'Always answer in haiku.' }];

describe('prompt templates', () => {
  it('a model-glob variant for the tool phase, a template for the answer, rules kept', async () => {
    const model = await serve([
      { model: 'fc-model', content: 'Nothing to call.' },
      { model: 'answer-model', content: 'Done.' },
    ]);
    const prompts = {
      functionCall: 'GENERAL TEMPLATE',
      answer: 'ANSWER TEMPLATE for {{model}} on {{date}}.',
      variants: [{ models: 'fc-*', functionCall: 'VARIANT for {{model}}. Tools:\n{{tools}}\n{{rules}}\nEND' }],
    };
    await runScripted(settingsFor(model, { prompts }), { tools: [new TableTool('lookup', {})], rules });
    const fcSystem: string = model.requests[0]?.messages[0].content;
    assert.match(fcSystem, /^VARIANT for fc-model\. Tools:\n- lookup\(key: string\): Looks a key up/);
    assert.match(fcSystem, /AGENTS\.md ---\nAlways answer in haiku\.\nEND$/, '{{rules}} placed where the template put it');
    const answerSystem: string = model.requests[1]?.messages[0].content;
    assert.match(answerSystem, /^ANSWER TEMPLATE for answer-model on \d{4}-\d{2}-\d{2}\./);
    assert.match(answerSystem, /Always answer in haiku\./, 'rules appended when the template leaves them out');
  });

  it('chat mode uses the chat template; without templates the built-in prompts stay', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Hi.' }, { model: 'answer-model', content: 'Hi again.' }]);
    await runScripted(settingsFor(model, { prompts: { chat: 'CHAT TEMPLATE' } }), { mode: 'chat' });
    assert.equal(model.requests[0]?.messages[0].content, 'CHAT TEMPLATE');
    await runScripted(settingsFor(model), { mode: 'chat' });
    assert.match(model.requests[1]?.messages[0].content, /^You are Tandem/);
  });

  it('a malformed tandem.prompts is refused with a warning and the built-in prompts apply', () => {
    const { settings, warnings } = resolveSettings({ prompts: { functionCall: 42 } }, {});
    assert.deepEqual(settings.prompts, {});
    assert.ok(warnings.some((warning) => /tandem\.prompts/.test(warning)), warnings.join('\n'));
  });
});
