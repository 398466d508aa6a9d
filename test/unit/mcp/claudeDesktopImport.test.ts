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
      github: { type: 'stdio', command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_TOKEN: 'x' } },
      remote: { type: 'sse', url: 'https://example.test/sse', headers: { 'X-Key': 'k' } },
    });
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
