import assert from 'node:assert/strict';
import { it } from 'node:test';
import { callTokenLimit } from '../../../src/models/chatModel';

it("a call's token limit is the smaller of the model's setting and the request's own, each only when positive", () => {
  assert.equal(callTokenLimit(512, { maxTokens: 20 }), 20);
  assert.equal(callTokenLimit(512, { maxTokens: 4000 }), 512, 'a server cannot raise the user\'s limit');
  assert.equal(callTokenLimit(undefined, { maxTokens: 20 }), 20);
  assert.equal(callTokenLimit(512, {}), 512);
  assert.equal(callTokenLimit(512, { maxTokens: 0 }), 512, 'no limit asked is not a limit of 0');
  assert.equal(callTokenLimit(undefined, {}), undefined);
});
