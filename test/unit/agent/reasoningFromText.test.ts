// A reply whose chat template opened <think> in the prompt (DeepSeek-R1, QwQ)
// streams its reasoning as text and then closes the tag. Through the real SDK
// against the scripted server: what the panel ends up showing (messages not
// discarded), what goes back to the model, and the answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import type { AgentEvent, ReclassifiedPayload } from '../../../src/protocol/agentEvents';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { customValues, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content });
const table = () => new TableTool('lookup', { france: 'The capital of France is Paris.' });

interface Shown {
  readonly kind: 'text' | 'reasoning';
  readonly text: string;
}

/** The messages a client shows once it drops the ones `tandem.reclassified` and `tandem.retry` discard, in order. */
function shownMessages(events: readonly AgentEvent[]): Shown[] {
  const discarded = new Set(
    [...customValues<ReclassifiedPayload>(events, 'tandem.reclassified'), ...customValues<{ discarded?: string[] }>(events, 'tandem.retry')].flatMap((value) => value.discarded ?? []),
  );
  const messages = new Map<string, { kind: Shown['kind']; text: string }>();
  for (const event of events) {
    const kind = event.type === EventType.TEXT_MESSAGE_CONTENT ? 'text' : event.type === EventType.REASONING_MESSAGE_CONTENT ? 'reasoning' : undefined;
    if (!kind) continue;
    const id = event['messageId'] as string;
    const message = messages.get(id) ?? { kind, text: '' };
    message.text += event['delta'] as string;
    messages.set(id, message);
  }
  return [...messages].filter(([id]) => !discarded.has(id)).map(([, message]) => message);
}

describe('reasoning that closes a <think> its prompt opened', () => {
  it('in the answer: the streamed text turns into the Thought, the answer is what follows the tag', async () => {
    const model = await serve([fc({ content: 'Enough.' }), answer('The user asks for the capital.\nI know it.\n</think>\n\nParis is the capital.')]);
    const run = await runScripted(settingsFor(model));
    assert.equal(run.result?.answer, 'Paris is the capital.');
    const moved = customValues<ReclassifiedPayload>(run.events, 'tandem.reclassified');
    assert.equal(moved.length, 1, 'the answer box that showed the reasoning is discarded');
    assert.equal(moved[0]?.role, 'answer');
    const shown = shownMessages(run.events).filter((message) => message.text !== 'Enough.');
    assert.deepEqual(shown, [
      { kind: 'reasoning', text: 'The user asks for the capital.\nI know it.\n' },
      { kind: 'text', text: 'Paris is the capital.' },
    ]);
  });

  it('in the tool phase (integrated): the Thought keeps growing without a flicker, the call runs, and the reasoning is not sent back', async () => {
    const model = await serve([
      fc({ content: 'I should look it up.\n</think>\n\n', toolCalls: [{ name: 'lookup', arguments: { key: 'france' } }] }),
      fc({ content: 'Done.' }),
      answer('Paris.'),
    ]);
    const tool = table();
    const run = await runScripted(settingsFor(model, { responseMode: 'integrated' }), { tools: [tool] });
    assert.equal(tool.runs, 1);
    assert.equal(run.result?.answer, 'Paris.');
    assert.deepEqual(customValues(run.events, 'tandem.reclassified'), [], 'the text already showed as thinking: nothing to take back');
    const thoughts = shownMessages(run.events).filter((message) => message.kind === 'reasoning');
    assert.equal(thoughts[0]?.text, 'I should look it up.\n');
    const assistant = model.requests[1]?.messages.find((message: { role: string }) => message.role === 'assistant');
    assert.ok(assistant, 'the tool call went back to the model');
    assert.ok(!String(assistant.content ?? '').includes('look it up'), 'the reasoning is not sent back');
  });

  it('in the tool phase (streaming): the interim message that showed the reasoning goes, the text after the tag stays', async () => {
    const model = await serve([
      fc({ content: 'Plan the lookup.</think>Checking the table.', toolCalls: [{ name: 'lookup', arguments: { key: 'france' } }] }),
      fc({ content: 'Found it.' }),
      answer('Paris.'),
    ]);
    const run = await runScripted(settingsFor(model, { responseMode: 'streaming' }), { tools: [table()] });
    assert.equal(run.result?.answer, 'Paris.');
    assert.equal(customValues(run.events, 'tandem.reclassified').length, 1);
    const shown = shownMessages(run.events);
    assert.deepEqual(shown.slice(0, 2), [
      { kind: 'reasoning', text: 'Plan the lookup.' },
      { kind: 'text', text: 'Checking the table.' },
    ]);
    assert.ok(!shown.some((message) => message.kind === 'text' && message.text.includes('Plan the lookup')));
  });

  it('shows held-back reasoning once: a brace in it held the text (it might have been an envelope) until the tag closed', async () => {
    const model = await serve([fc({ content: 'Which key? {france} it is.\n</think>\n\nI have what I need.' }), answer('Paris.')]);
    const run = await runScripted(settingsFor(model, { responseMode: 'integrated' }));
    const shown = shownMessages(run.events);
    assert.ok(!shown.some((message) => message.text.includes('</think>')), JSON.stringify(shown));
    const thought = shown.find((message) => message.kind === 'reasoning')?.text ?? '';
    assert.equal(thought.split('{france}').length - 1, 1, `the reasoning shows once: ${JSON.stringify(thought)}`);
    assert.match(thought, /I have what I need\.$/);
  });

  it('reads a JSON envelope written after the closing tag (a model without native tool calls)', async () => {
    const envelope = JSON.stringify({ response: 'Looking it up.', mcp: { tool: 'tables', method: 'lookup', params: { key: 'france' } } });
    const model = await serve([fc({ content: `Which key? {france} it is.\n</think>\n\n${envelope}` }), fc({ content: '{"response": "I have it."}' }), answer('Paris.')]);
    const tool = table();
    const run = await runScripted(settingsFor(model), { tools: [tool] });
    assert.equal(tool.runs, 1, 'the envelope after the tag was read; the brace inside the reasoning was not taken for one');
    const thought = shownMessages(run.events).find((message) => message.kind === 'reasoning');
    assert.match(thought?.text ?? '', /^Which key\? \{france\} it is\.\n/);
    assert.doesNotMatch(thought?.text ?? '', /"mcp"/);
  });
});
