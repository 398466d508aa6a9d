import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMcpConfigText, parseMcpServersSetting } from '../../../src/mcp/mcpConfig';

// The example from VS Code's MCP documentation, with its comments and a trailing comma.
const vscodeExample = `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true
    }
  ],
  "servers": {
    // https://github.com/ppl-ai/modelcontextprotocol/
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "\${input:perplexity-key}"
      }
    },
    // https://github.com/modelcontextprotocol/servers/tree/main/src/fetch
    "fetch": {
      "type": "stdio",
      "command": "uvx",
      "args": ["mcp-server-fetch"]
    },
    "my-remote": {
      "type": "http",
      "url": "http://api.contoso.com/mcp",
      "headers": { "Authorization": "Bearer \${input:api-token}" },
    },
  },
}`;

describe('parseMcpConfigText', () => {
  it('reads the VS Code documentation example unchanged (comments, trailing commas)', () => {
    const file = parseMcpConfigText(vscodeExample, '/ws/.vscode/mcp.json', '/ws');
    assert.deepEqual(file.errors, []);
    assert.deepEqual(file.inputs, [
      { type: 'promptString', id: 'perplexity-key', description: 'Perplexity API Key', default: undefined, password: true },
    ]);
    assert.deepEqual(
      file.servers.map((server) => [server.name, server.type]),
      [
        ['Perplexity', 'stdio'],
        ['fetch', 'stdio'],
        ['my-remote', 'http'],
      ],
    );
    const perplexity = file.servers[0];
    assert.ok(perplexity?.type === 'stdio');
    assert.equal(perplexity.command, 'npx');
    assert.deepEqual(perplexity.args, ['-y', 'server-perplexity-ask']);
    assert.deepEqual(perplexity.env, { PERPLEXITY_API_KEY: '${input:perplexity-key}' });
    assert.equal(perplexity.workspaceFolder, '/ws');
    assert.equal(perplexity.source, '/ws/.vscode/mcp.json');
    assert.equal(perplexity.inputs, file.inputs);
    const remote = file.servers[2];
    assert.ok(remote?.type === 'http');
    assert.equal(remote.url, 'http://api.contoso.com/mcp');
    assert.deepEqual(remote.headers, { Authorization: 'Bearer ${input:api-token}' });
  });

  it('infers the type from command or url, and reads envFile, cwd, timeout, sse and pickString', () => {
    const file = parseMcpConfigText(
      JSON.stringify({
        inputs: [{ type: 'pickString', id: 'region', description: 'Region', options: ['eu', { value: 'us', label: 'US' }], default: 'eu' }],
        servers: {
          local: { command: 'node', args: ['server.js', 3], env: { PORT: 8080, DROP: null }, envFile: '${workspaceFolder}/.env', cwd: 'tools', timeout: 5000 },
          legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
          inferred: { url: 'https://example.test/mcp' },
        },
      }),
      'mcp.json',
      undefined,
    );
    assert.deepEqual(file.errors, []);
    assert.deepEqual(file.inputs, [{ type: 'pickString', id: 'region', description: 'Region', default: 'eu', options: ['eu', 'us'], password: false }]);
    const [local, legacy, inferred] = file.servers;
    assert.ok(local?.type === 'stdio');
    assert.deepEqual(local.args, ['server.js', '3']);
    assert.deepEqual(local.env, { PORT: '8080', DROP: null });
    assert.equal(local.envFile, '${workspaceFolder}/.env');
    assert.equal(local.cwd, 'tools');
    assert.equal(local.timeoutMs, 5000);
    assert.equal(legacy?.type, 'sse');
    assert.equal(inferred?.type, 'http');
  });

  it('names the file, line and column of a syntax error and yields no servers', () => {
    const file = parseMcpConfigText('{\n  "servers": {\n    "a": { "command": }\n  }\n}', '/ws/.vscode/mcp.json', '/ws');
    assert.equal(file.servers.length, 0);
    assert.equal(file.errors.length, 1);
    assert.match(file.errors[0] ?? '', /^\/ws\/\.vscode\/mcp\.json: not valid JSON: ValueExpected at line 3, column 23/);
  });

  it('keeps the good servers when one entry is broken, and says what is wrong with it', () => {
    const file = parseMcpConfigText(
      JSON.stringify({
        servers: {
          good: { type: 'stdio', command: 'node' },
          noCommand: { type: 'stdio', args: [] },
          badType: { type: 'websocket', url: 'ws://x' },
          badUrl: { type: 'http', url: 'ftp://x' },
          notObject: 42,
          both: { command: 'node', url: 'http://127.0.0.1:1/mcp' },
          bothTyped: { type: 'stdio', command: 'node', url: 'http://127.0.0.1:1/mcp' },
        },
      }),
      'f.json',
      undefined,
    );
    const byName = new Map(file.servers.map((server) => [server.name, server]));
    assert.equal(byName.get('good')?.type, 'stdio');
    const describe = (name: string): string => {
      const server = byName.get(name);
      assert.ok(server?.type === 'invalid', `${name} should be invalid`);
      return server.error;
    };
    assert.match(describe('noCommand'), /^f\.json: server "noCommand": "command" .*expected string/);
    assert.match(describe('badType'), /unknown "type" "websocket"/);
    assert.match(describe('badUrl'), /"url" must be an http\(s\) URL/);
    assert.match(describe('notObject'), /must be an object/);
    assert.match(describe('both'), /has both "command" and "url": set "type"/);
    assert.equal(byName.get('bothTyped')?.type, 'stdio', 'a declared type decides');
  });

  it('reads oauth.clientId and scopes of a remote server, and names a bad oauth entry', () => {
    const file = parseMcpConfigText(
      JSON.stringify({
        servers: {
          signed: { type: 'http', url: 'https://mcp.example.test/mcp', oauth: { clientId: 'tandem-client', scopes: ['read', 'write'] } },
          plain: { type: 'http', url: 'https://other.example.test/mcp' },
          cimd: { type: 'http', url: 'https://c.example.test/mcp', oauth: { clientMetadataUrl: 'https://tools.example.test/tandem-client.json' } },
          cimdNotHttps: { type: 'http', url: 'https://d.example.test/mcp', oauth: { clientMetadataUrl: 'http://tools.example.test/tandem-client.json' } },
          badOauth: { type: 'http', url: 'https://x.example.test/mcp', oauth: { clientId: '', secret: 'no' } },
        },
      }),
      'f.json',
      undefined,
    );
    const byName = new Map(file.servers.map((server) => [server.name, server]));
    const signed = byName.get('signed');
    assert.ok(signed?.type === 'http');
    assert.deepEqual(signed.oauth, { clientId: 'tandem-client', scopes: ['read', 'write'] });
    const cimd = byName.get('cimd');
    assert.ok(cimd?.type === 'http');
    assert.deepEqual(cimd.oauth, { clientMetadataUrl: 'https://tools.example.test/tandem-client.json' });
    const cimdNotHttps = byName.get('cimdNotHttps');
    assert.ok(cimdNotHttps?.type === 'invalid');
    assert.match(cimdNotHttps.error, /clientMetadataUrl.*https URL/);
    const plain = byName.get('plain');
    assert.ok(plain?.type === 'http');
    assert.equal(plain.oauth, undefined);
    const bad = byName.get('badOauth');
    assert.ok(bad?.type === 'invalid');
    assert.match(bad.error, /oauth/);
  });

  it('reports bad inputs (including unsupported command inputs) at file level', () => {
    const file = parseMcpConfigText(
      JSON.stringify({ inputs: [{ type: 'command', id: 'x', command: 'foo' }, { type: 'pickString', id: 'y' }], servers: {} }),
      'f.json',
      undefined,
    );
    assert.equal(file.inputs.length, 0);
    assert.match(file.errors[0] ?? '', /inputs\[0\]: inputs of type "command" are not supported/);
    assert.match(file.errors[1] ?? '', /inputs\[1\]: "options"/);
  });

  it('accepts an empty file and a Claude-style mcpServers file', () => {
    assert.deepEqual(parseMcpConfigText('', 'f.json', undefined).servers, []);
    const file = parseMcpConfigText('{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}}}', 'f.json', undefined);
    assert.equal(file.servers[0]?.name, 'fs');
    assert.equal(file.servers[0]?.type, 'stdio');
  });

  it('rejects a top level that is not an object', () => {
    assert.match(parseMcpConfigText('[1]', 'f.json', undefined).errors[0] ?? '', /f\.json: the top level must be an object/);
  });
});

describe('parseMcpServersSetting', () => {
  it('reads the setting in the same shape as servers', () => {
    const file = parseMcpServersSetting({ everything: { type: 'stdio', command: 'node', args: ['x.js'] } }, '/ws');
    assert.equal(file.source, 'settings');
    assert.equal(file.servers[0]?.source, 'settings');
    assert.equal(file.servers[0]?.workspaceFolder, '/ws');
    assert.deepEqual(parseMcpServersSetting(undefined, undefined).servers, []);
    assert.match(parseMcpServersSetting('nope', undefined).errors[0] ?? '', /tandem\.mcp\.servers/);
  });
});
