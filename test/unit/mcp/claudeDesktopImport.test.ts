import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importClaudeDesktopConfig, mergeServersIntoMcpJson } from '../../../src/mcp/claudeDesktopImport';
import { parseMcpConfigText } from '../../../src/mcp/mcpConfig';

const claudeDesktop = JSON.stringify({
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
    github: { command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_TOKEN: 'x' } },
    remote: { url: 'https://example.test/sse', transport: 'sse', headers: { 'X-Key': 'k' } },
    broken: { args: [] },
  },
});

describe('importClaudeDesktopConfig', () => {
  it('converts mcpServers entries to the mcp.json shape and reports the ones it cannot', () => {
    const imported = importClaudeDesktopConfig(claudeDesktop, 'claude_desktop_config.json');
    assert.deepEqual(imported.servers, {
      filesystem: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
      github: { type: 'stdio', command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_TOKEN: '${input:github-GITHUB_TOKEN}' } },
      remote: { type: 'sse', url: 'https://example.test/sse', headers: { 'X-Key': '${input:remote-X-Key}' } },
    });
    assert.deepEqual(imported.secrets, { 'github-GITHUB_TOKEN': 'x', 'remote-X-Key': 'k' });
    assert.deepEqual(
      imported.inputs.map((input) => [input.id, input.password]),
      [['github-GITHUB_TOKEN', true], ['remote-X-Key', true]],
    );
    assert.deepEqual(imported.errors, ['claude_desktop_config.json: server "broken" has neither "command" nor "url"; skipped.']);
    assert.match(importClaudeDesktopConfig('{oops', 'c.json').errors[0] ?? '', /c\.json: not valid JSON/);
  });
});

describe('mergeServersIntoMcpJson', () => {
  it('adds new servers, keeps existing ones and the comments, and the result parses', () => {
    const existing = '{\n  // my servers\n  "servers": {\n    "filesystem": { "command": "mine" }\n  }\n}\n';
    const { servers } = importClaudeDesktopConfig(claudeDesktop, 'c.json');
    const merged = mergeServersIntoMcpJson(existing, servers);
    assert.deepEqual(merged.added, ['github', 'remote']);
    assert.deepEqual(merged.skipped, ['filesystem']);
    assert.match(merged.text, /\/\/ my servers/);
    const parsed = parseMcpConfigText(merged.text, 'mcp.json', undefined);
    assert.deepEqual(parsed.errors, []);
    const byName = new Map(parsed.servers.map((server) => [server.name, server]));
    const kept = byName.get('filesystem');
    assert.ok(kept?.type === 'stdio');
    assert.equal(kept.command, 'mine');
    assert.equal(byName.get('remote')?.type, 'sse');
  });

  it('creates the file content from nothing', () => {
    const merged = mergeServersIntoMcpJson('', { a: { type: 'stdio', command: 'node' } });
    assert.deepEqual(parseMcpConfigText(merged.text, 'mcp.json', undefined).servers.map((server) => server.name), ['a']);
  });
});

describe('secrets in an imported Claude config', () => {
  const config = JSON.stringify({
    mcpServers: {
      api: {
        url: 'https://api.example.test/mcp',
        headers: { Authorization: 'Bearer sk-live-0123456789abcdef', 'X-Client': 'tandem', Accept: 'application/json' },
      },
      tool: { command: 'node', args: ['server.js'], env: { LOG_LEVEL: 'debug', SERVICE_PASSWORD: 'hunter2', DATA: 'ghp_abcdefghijklmnop', FROM_ENV: '${env:HOME}' } },
    },
  });

  it('never writes a secret-looking value into mcp.json: it becomes a password input', () => {
    const imported = importClaudeDesktopConfig(config, 'c.json');
    const merged = mergeServersIntoMcpJson('', imported.servers, imported.inputs);
    for (const secret of ['sk-live-0123456789abcdef', 'hunter2', 'ghp_abcdefghijklmnop']) assert.ok(!merged.text.includes(secret), secret);
    const parsed = parseMcpConfigText(merged.text, 'mcp.json', '/w');
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(
      parsed.inputs.map((input) => [input.id, input.password]),
      [['api-Authorization', true], ['tool-SERVICE_PASSWORD', true], ['tool-DATA', true]],
    );
    const api = parsed.servers.find((server) => server.name === 'api');
    assert.ok(api?.type === 'http');
    assert.equal(api.headers['Authorization'], 'Bearer ${input:api-Authorization}');
    assert.equal(api.headers['X-Client'], 'tandem');
    const tool = parsed.servers.find((server) => server.name === 'tool');
    assert.ok(tool?.type === 'stdio');
    assert.equal(tool.env['LOG_LEVEL'], 'debug');
    assert.equal(tool.env['FROM_ENV'], '${env:HOME}');
    assert.equal(imported.secrets['api-Authorization'], 'sk-live-0123456789abcdef');
  });

  it('adds no input for a server it skipped', () => {
    const imported = importClaudeDesktopConfig(config, 'c.json');
    const existing = JSON.stringify({ servers: { api: { url: 'https://mine.test/mcp' } } });
    const merged = mergeServersIntoMcpJson(existing, imported.servers, imported.inputs);
    const ids = parseMcpConfigText(merged.text, 'mcp.json', '/w').inputs.map((input) => input.id);
    assert.deepEqual(ids, ['tool-SERVICE_PASSWORD', 'tool-DATA']);
  });
});
