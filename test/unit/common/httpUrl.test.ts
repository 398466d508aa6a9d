import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHttpUrl, isLocalNetworkHost, isLoopbackUrl } from '../../../src/common/httpUrl';

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

  it('a host on this machine or its network: names without a domain, private and link-local ranges, local IPv6; a public host is not', () => {
    for (const host of ['localhost', 'gpu-box', 'printer.local', 'ollama.localhost', 'db.internal', '127.0.0.1', '10.1.2.3', '172.16.0.9', '172.31.255.1', '192.168.1.5', '169.254.169.254', '0.0.0.0', '[::1]', '[fd12:3456::1]', '[fe80::1]']) {
      assert.equal(isLocalNetworkHost(host), true, host);
    }
    for (const host of ['docs.python.org', '172.32.0.1', '8.8.8.8', '[2001:db8::1]', '11.0.0.1', 'example.com']) assert.equal(isLocalNetworkHost(host), false, host);
  });
});
