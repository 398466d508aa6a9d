import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseApiKey, environmentKeyAllowed, originOf, secretKeyFor, userBaseUrls } from '../../../src/agent/apiKeyScope';

describe('secretKeyFor', () => {
  it('keys a stored secret by its base URL, ignoring case and trailing slashes', () => {
    assert.equal(secretKeyFor('https://OpenRouter.ai/api/v1/'), 'tandem.apiKey:https://openrouter.ai/api/v1');
    assert.equal(secretKeyFor(' http://localhost:11434/v1// '), secretKeyFor('http://localhost:11434/v1'));
  });

  it('gives another endpoint another key, so a stored key is never found for a different host', () => {
    assert.notEqual(secretKeyFor('https://openrouter.ai/api/v1'), secretKeyFor('https://openrouter.ai.evil.test/api/v1'));
    assert.notEqual(secretKeyFor('https://api.openai.com/v1'), secretKeyFor('http://127.0.0.1:9/v1'));
  });
});

describe('OPENAI_API_KEY scope', () => {
  it("goes to OpenAI's own host over https", () => {
    assert.equal(environmentKeyAllowed('https://api.openai.com/v1', []), true);
    assert.equal(environmentKeyAllowed('http://api.openai.com/v1', []), false);
    assert.equal(environmentKeyAllowed('https://api.openai.com.evil.test/v1', []), false);
    assert.equal(environmentKeyAllowed('https://evil.test/?https://api.openai.com', []), false);
  });

  it('goes to a base URL the user set (same origin), and nowhere else', () => {
    const user = ['http://localhost:11434/v1'];
    assert.equal(environmentKeyAllowed('http://localhost:11434/v1', user), true);
    assert.equal(environmentKeyAllowed('http://localhost:11434/other', user), true);
    assert.equal(environmentKeyAllowed('http://localhost:11435/v1', user), false);
    assert.equal(environmentKeyAllowed('http://127.0.0.1:11434/v1', user), false);
    assert.equal(environmentKeyAllowed('not a url', ['not a url']), false);
  });

  it('prefers the key stored for the endpoint, then the environment key where allowed', () => {
    const base = { environmentKey: 'env-key', userBaseUrls: [] };
    assert.equal(chooseApiKey({ ...base, baseUrl: 'https://redirect.test/v1', stored: 'stored-key' }), 'stored-key');
    assert.equal(chooseApiKey({ ...base, baseUrl: 'https://redirect.test/v1', stored: undefined }), undefined);
    assert.equal(chooseApiKey({ ...base, baseUrl: 'https://api.openai.com/v1', stored: undefined }), 'env-key');
    assert.equal(chooseApiKey({ ...base, baseUrl: 'https://api.openai.com/v1', stored: '' }), 'env-key');
    assert.equal(chooseApiKey({ baseUrl: 'https://api.openai.com/v1', stored: undefined, environmentKey: undefined, userBaseUrls: [] }), undefined);
  });

  it("collects the user's base URLs from user settings and the environment, skipping unreadable values", () => {
    const urls = userBaseUrls(['http://a.test/v1', undefined, 42, ''], {
      OPENAI_BASE_URL: 'http://b.test/v1',
      AGENT_FUNCTION_CALL_MODEL: JSON.stringify({ baseUrl: 'http://c.test/v1', model: 'm' }),
      AGENT_ANSWER_MODEL: '{not json',
    });
    assert.deepEqual(urls, ['http://a.test/v1', 'http://b.test/v1', 'http://c.test/v1']);
    assert.equal(originOf('HTTP://B.test:80/v1'), 'http://b.test');
    assert.equal(originOf('file:///etc/passwd'), undefined);
  });
});
