// What the user is told to do about a model failure.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suggestionFor, type ModelFailure } from '../../../src/models/modelFailure';

const notFound: ModelFailure = { kind: 'http', status: 404, retryable: false, retryAfterMs: undefined, reason: 'HTTP 404', cause: undefined };

it('a 404 points at the model name, and at the base URL only when it lacks /v1', () => {
  assert.equal(suggestionFor(notFound, 'http://127.0.0.1:11434/v1', 'gpt-4o-mni'), 'Check the model name "gpt-4o-mni": "Tandem: Select Models" lists the models http://127.0.0.1:11434/v1 offers.');
  assert.equal(suggestionFor(notFound, 'http://127.0.0.1:11434', 'llama3.2'), 'Check the model name "llama3.2" and the base URL http://127.0.0.1:11434 (it usually ends in /v1).');
});
