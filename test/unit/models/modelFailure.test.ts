// What the user is told to do about a model failure.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suggestionFor, type ModelFailure } from '../../../src/models/modelFailure';

const notFound: ModelFailure = { kind: 'http', status: 404, retryable: false, retryAfterMs: undefined, reason: 'HTTP 404', cause: undefined };

it('a 404 points at the model name, and at the base URL only when it lacks /v1', () => {
  assert.equal(suggestionFor(notFound, 'http://127.0.0.1:11434/v1', 'gpt-4o-mni'), 'Check the model name "gpt-4o-mni": "Tandem: Select Models" lists the models http://127.0.0.1:11434/v1 offers.');
  assert.equal(suggestionFor(notFound, 'http://127.0.0.1:11434', 'llama3.2'), 'Check the model name "llama3.2" and the base URL http://127.0.0.1:11434 (it usually ends in /v1).');
});

it('a host that cannot be looked up points at the network; one nobody knows, at the base URL first', () => {
  const lookup = (code: string): ModelFailure => ({ kind: 'connection', status: undefined, retryable: false, retryAfterMs: undefined, reason: code, cause: Object.assign(new Error(code), { code }) });
  assert.equal(suggestionFor(lookup('EAI_AGAIN'), 'https://api.openai.com/v1', 'gpt-4o'), 'The host of https://api.openai.com/v1 cannot be looked up right now. Check your network connection (and the base URL).');
  assert.equal(suggestionFor(lookup('ENOTFOUND'), 'http://gpu-bx:11434/v1', 'llama3.2'), 'The host of http://gpu-bx:11434/v1 cannot be found. Check the base URL, and your network connection.');
});
