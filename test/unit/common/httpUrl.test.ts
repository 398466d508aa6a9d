import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHttpUrl, isLoopbackUrl } from '../../../src/common/httpUrl';

describe('base URLs', () => {
  it('an http(s) URL is one; text with spaces or another scheme is not', () => {
    assert.equal(isHttpUrl('http://127.0.0.1:11434/v1'), true);
    assert.equal(isHttpUrl('https://api.openai.com/v1'), true);
    assert.equal(isHttpUrl('localhost 11434'), false);
    assert.equal(isHttpUrl('file:///etc/passwd'), false);
  });

  it('a loopback base URL is on this machine; a private address or a name is not known to be', () => {
    for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:1234/v1', 'http://127.1.2.3/v1', 'http://[::1]:8080/v1', 'http://ollama.localhost/v1']) assert.equal(isLoopbackUrl(url), true, url);
    for (const url of ['http://192.168.1.5:11434/v1', 'https://api.openai.com/v1', 'http://gpu-box:8000/v1', 'http://localhost.example.com/v1', 'not a url']) assert.equal(isLoopbackUrl(url), false, url);
  });
});
