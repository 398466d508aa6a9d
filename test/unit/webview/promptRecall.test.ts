// Up and Down in the prompt box: the questions asked before come back in
// order, and the text being written is kept for when the user comes back down.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PromptRecall } from '../../../webview/promptRecall';

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
