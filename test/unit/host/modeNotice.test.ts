import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modeNotice } from '../../../src/host/modeNotice';

test('the mode notice names both roles only when two models are set', () => {
  assert.equal(modeNotice('agent', false), 'Agent mode: the function-call model may use tools before the answer model answers.');
  assert.equal(modeNotice('agent', true), 'Agent mode: the model may use tools before it answers.');
  assert.equal(modeNotice('chat', false), 'Chat mode: the answer model replies without tools.');
  assert.equal(modeNotice('chat', true), 'Chat mode: the model replies without tools.');
});
