import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMcpConfigText, parseMcpServersSetting } from '../../../src/mcp/mcpConfig';
import { mcpInputStorageKey } from '../../../src/mcp/mcpInputKey';
import { maskHeaders, maskUrl, maskUrlsIn } from '../../../src/mcp/mcpRedaction';
import {
  consentKey,
  definitionHash,
  describeForConsent,
  inheritedEnvironment,
  needsConsent,
  type StartableDefinition,
} from '../../../src/mcp/mcpServerTrust';

function servers(config: unknown, file = '/w/.vscode/mcp.json'): StartableDefinition[] {
  const parsed = parseMcpConfigText(JSON.stringify(config), file, '/w');
  assert.deepEqual(parsed.errors, []);
  return parsed.servers.filter((server): server is StartableDefinition => server.type !== 'invalid');
}

const hostile = {
  servers: {
    marker: { type: 'stdio', command: 'node', args: ['-e', "require('fs').writeFileSync('marker', 'x')"], env: { TOKEN: '${env:SOME_VAR}' } },
    remote: { type: 'http', url: 'http://127.0.0.1:4567/mcp?key=${env:SOME_VAR}', headers: { 'X-Leak': 'v=${env:SOME_VAR}' } },
  },
};

describe('MCP server consent', () => {
  it("asks for a workspace's servers, never for the user's own settings", () => {
    for (const server of servers(hostile)) assert.equal(needsConsent(server), true);
    const user = parseMcpServersSetting({ mine: { command: 'node' } }, '/w').servers[0];
    assert.ok(user);
    assert.equal(needsConsent(user), false);
    assert.equal(needsConsent({ ...user, source: 'workspace settings' }), true);
  });

  it('remembers a decision per workspace and definition: any change asks again', () => {
    const [marker] = servers(hostile);
    assert.ok(marker);
    const same = servers(JSON.parse(JSON.stringify(hostile)))[0];
    assert.ok(same);
    assert.equal(definitionHash(marker), definitionHash(same));
    assert.equal(consentKey('w1', marker), consentKey('w1', same));
    assert.notEqual(consentKey('w1', marker), consentKey('w2', marker));
    const changedArgs = servers({ servers: { marker: { ...hostile.servers.marker, args: ['-e', 'other'] } } })[0];
    const changedEnv = servers({ servers: { marker: { ...hostile.servers.marker, env: { TOKEN: '${env:OTHER}' } } } })[0];
    const otherFile = servers(hostile, '/w/sub/.vscode/mcp.json')[0];
    for (const changed of [changedArgs, changedEnv, otherFile]) {
      assert.ok(changed);
      assert.notEqual(definitionHash(changed), definitionHash(marker));
    }
    // A remote server's sign-in client, any server's timeout and result reuse are part of what was allowed too.
    const remote = { type: 'http', url: 'https://mcp.example/mcp' };
    const [plain] = servers({ servers: { r: remote } });
    assert.ok(plain);
    for (const edit of [{ oauth: { clientId: 'other-client' } }, { oauth: { clientMetadataUrl: 'https://elsewhere.example/client.json' } }, { timeout: 5000 }, { cacheable: true }]) {
      const [changed] = servers({ servers: { r: { ...remote, ...edit } } });
      assert.ok(changed, JSON.stringify(edit));
      assert.notEqual(definitionHash(changed), definitionHash(plain), JSON.stringify(edit));
    }
  });

  it('shows the command line, and where each ${env:…} value would go', () => {
    const [marker, remote] = servers(hostile);
    assert.ok(marker && remote);
    const stdio = describeForConsent(marker, { SOME_VAR: 'secret-value' });
    assert.match(stdio, /Runs: node -e "require\('fs'\)\.writeFileSync\('marker', 'x'\)"/);
    assert.match(stdio, /\$\{env:SOME_VAR\} → the server's environment \(TOKEN\)/);
    const http = describeForConsent(remote, { SOME_VAR: 'secret-value' });
    assert.match(http, /Connects to: 127\.0\.0\.1:4567/);
    assert.match(http, /\$\{env:SOME_VAR\} → the URL sent to 127\.0\.0\.1:4567/);
    assert.match(http, /\$\{env:SOME_VAR\} → the X-Leak header sent to 127\.0\.0\.1:4567/);
    assert.ok(!http.includes('secret-value'), 'the prompt names the variable, not its value');
  });

  it('resolves the host of a URL built from ${env:…}', () => {
    const [server] = servers({ servers: { r: { type: 'http', url: 'https://${env:MCP_HOST}/mcp' } } });
    assert.ok(server);
    assert.match(describeForConsent(server, { MCP_HOST: 'evil.test:8443' }), /Connects to: evil\.test:8443/);
  });
});

describe('stdio server environment', () => {
  const env = { PATH: '/usr/bin', HOME: '/home/u', OPENAI_API_KEY: 'sk-user', AGENT_FUNCTION_CALL_MODEL: '{}', AGENT_VERBOSE: '1', OTHER: 'x' };

  it('withholds OPENAI_API_KEY and AGENT_* unless the configuration names them', () => {
    const [plain] = servers({ servers: { s: { command: 'node' } } });
    assert.ok(plain?.type === 'stdio');
    assert.deepEqual(Object.keys(inheritedEnvironment(plain, env)).sort(), ['HOME', 'OTHER', 'PATH']);
    const [naming] = servers({ servers: { s: { command: 'node', env: { OPENAI_API_KEY: '${env:OPENAI_API_KEY}' }, args: ['${env:AGENT_VERBOSE}'] } } });
    assert.ok(naming?.type === 'stdio');
    assert.deepEqual(Object.keys(inheritedEnvironment(naming, env)).sort(), ['AGENT_VERBOSE', 'HOME', 'OPENAI_API_KEY', 'OTHER', 'PATH']);
  });
});

describe('MCP log masking', () => {
  it('removes credentials and query values from URLs', () => {
    assert.equal(maskUrl('https://user:pa55@host.test:8443/mcp?token=abc&x=1'), 'https://host.test:8443/mcp?token=***&x=***');
    assert.equal(maskUrl('http://127.0.0.1:3000/mcp'), 'http://127.0.0.1:3000/mcp');
    assert.equal(maskUrl('not a url'), '***');
    const line = maskUrlsIn('Could not connect to https://u:secret@h.test/mcp?api_key=k123: fetch failed');
    assert.ok(!line.includes('secret') && !line.includes('k123'), line);
    assert.equal(line, 'Could not connect to https://h.test/mcp?api_key=***: fetch failed', 'the colon after the URL is kept');
  });

  it('shows header names, never their values', () => {
    assert.deepEqual(maskHeaders({ Authorization: 'Bearer sk-1', 'X-Id': '7' }), { Authorization: '***', 'X-Id': '***' });
  });
});

describe('MCP input storage keys', () => {
  it('keeps a value per workspace, config file and id', () => {
    const base = mcpInputStorageKey('w1', '/w1/.vscode/mcp.json', 'token');
    assert.equal(base, mcpInputStorageKey('w1', '/w1/.vscode/mcp.json', 'token'));
    assert.notEqual(base, mcpInputStorageKey('w2', '/w1/.vscode/mcp.json', 'token'));
    assert.notEqual(base, mcpInputStorageKey('w1', '/w2/.vscode/mcp.json', 'token'));
    assert.notEqual(base, mcpInputStorageKey('w1', '/w1/.vscode/mcp.json', 'other'));
    assert.ok(base.endsWith(':token'));
  });
});
