import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointFromInput } from '../../../src/agent/endpointInput';

describe('endpointFromInput', () => {
  it('takes a base URL as typed, without trailing slashes, adding the scheme a server there would use', () => {
    assert.deepEqual(endpointFromInput(' https://openrouter.ai/api/v1/ '), { baseUrl: 'https://openrouter.ai/api/v1' });
    assert.deepEqual(endpointFromInput('openrouter.ai/api/v1'), { baseUrl: 'https://openrouter.ai/api/v1' });
    assert.deepEqual(endpointFromInput('localhost:11434/v1'), { baseUrl: 'http://localhost:11434/v1' });
    assert.deepEqual(endpointFromInput('http://[::1]:8000/v1'), { baseUrl: 'http://[::1]:8000/v1' });
  });

  it('refuses what is not a URL', () => {
    for (const text of ['', 'my endpoint', 'ftp://example.com/v1', 'openrouter']) {
      const input = endpointFromInput(text);
      assert.ok('problem' in input && /Not a URL/.test(input.problem), text);
    }
  });

  it('refuses a name before "@", which would send the key to another host, and says which', () => {
    const input = endpointFromInput('https://api.openai.com@evil.example/v1');
    assert.ok('problem' in input);
    assert.match(input.problem, /evil\.example/);
    assert.ok('problem' in endpointFromInput('https://user:secret@api.example.com/v1'));
    // Typed without a scheme, it is refused for the same reason, not as "not a URL".
    const bare = endpointFromInput('api.openai.com@evil.example/v1');
    assert.ok('problem' in bare);
    assert.match(bare.problem, /before "@".*evil\.example/);
  });

  it('refuses a query or a fragment, which the paths Tandem adds would land after', () => {
    for (const text of ['https://api.example.com/v1?key=1', 'https://api.example.com/v1#models', 'https://api.example.com/v1?']) {
      const input = endpointFromInput(text);
      assert.ok('problem' in input && /query/.test(input.problem), text);
    }
  });
});
