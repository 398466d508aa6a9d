// Up and Down in the prompt box: the questions asked before come back in
// order, and the text being written is kept for when the user comes back down.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PromptRecall, recallable } from '../../../webview/promptRecall';
import { applyEvents } from '../../../webview/viewModel';
import { createConversationView } from '../../../webview/steps';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

it('goes back through the questions and forward to the text being written', () => {
  const asked = ['first question', 'second question'];
  const recall = new PromptRecall(() => asked);
  assert.equal(recall.newer(), undefined, 'nothing newer than the text being written');
  assert.equal(recall.older('half a thou'), 'second question');
  assert.equal(recall.older('second question'), 'first question');
  assert.equal(recall.older('first question'), undefined, 'no older question');
  assert.equal(recall.newer(), 'second question');
  assert.equal(recall.newer(), 'half a thou', 'the draft is back');
  assert.equal(recall.newer(), undefined);
});

it('starts from the newest question again after a send, and copes with no questions', () => {
  const asked: string[] = ['one'];
  const recall = new PromptRecall(() => asked);
  assert.equal(recall.older(''), 'one');
  asked.push('two');
  recall.reset();
  assert.equal(recall.older(''), 'two');
  assert.equal(new PromptRecall(() => []).older('draft'), undefined);
});

it('recalls the messages sent into a run (Steer) as typed, in the order they were taken, among the questions', () => {
  const events = [
    { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Read the notes.', runId: 'r1', attached: { labels: ['notes.md'], text: 'File notes.md' } } },
    { type: 'CUSTOM', name: 'tandem.steered', value: { runId: 'r1', id: 'q1', text: 'Quote them.', attached: { labels: ['a.md'], text: 'File a.md' } } },
    { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Thanks.', runId: 'r2' } },
  ] as AgentEvent[];
  const steps = applyEvents(createConversationView(), events).steps;
  assert.deepEqual(recallable(steps), ['Read the notes.', 'Quote them.', 'Thanks.']);
  const recall = new PromptRecall(() => recallable(steps));
  assert.equal(recall.older(''), 'Thanks.');
  assert.equal(recall.older('Thanks.'), 'Quote them.');
});
