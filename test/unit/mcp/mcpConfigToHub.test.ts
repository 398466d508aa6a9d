// From an mcp.json on disk to a running server: variables, inputs, envFile and cwd reach the process.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { McpInputDefinition } from '../../../src/mcp/mcpConfig';
import { parseMcpConfigText } from '../../../src/mcp/mcpConfig';
import { McpHub } from '../../../src/mcp/mcpHub';
import { ENV_FILE_BYTE_LIMIT } from '../../../src/mcp/mcpServerResolution';
import type { InputResolver } from '../../../src/mcp/mcpVariables';
import { EVERYTHING_SERVER, toolContext } from './mcpTestSupport';

describe('mcp.json to a running server', () => {
  let folder = '';
  before(async () => {
    folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-mcp-config-')));
    await fs.mkdir(path.join(folder, '.vscode'));
    await fs.writeFile(path.join(folder, '.env'), 'FROM_ENV_FILE=file-value\nOVERRIDDEN=from-file\n');
  });
  after(() => fs.rm(folder, { recursive: true, force: true }));

  it('resolves ${workspaceFolder}, ${env:}, ${input:} (asked once), envFile and env into the server process', async () => {
    const configText = `{
      // as VS Code documents it
      "inputs": [
        { "type": "promptString", "id": "token", "description": "Token", "password": true },
        { "type": "pickString", "id": "region", "description": "Region", "options": ["eu", "us"] },
      ],
      "servers": {
        "everything": {
          "type": "stdio",
          "command": "${process.execPath.replace(/\\/g, '\\\\')}",
          "args": ["${EVERYTHING_SERVER.replace(/\\/g, '\\\\')}", "stdio"],
          "envFile": "\${workspaceFolder}/.env",
          "env": {
            "TOKEN": "\${input:token}",
            "TOKEN_AGAIN": "\${input:token}",
            "REGION": "\${input:region}",
            "FOLDER": "\${workspaceFolder}",
            "FROM_HOST_ENV": "\${env:TANDEM_TEST_HOST_VAR}",
            "OVERRIDDEN": "from-env",
          },
        },
        "broken": { "type": "stdio" },
      },
    }`;
    const configPath = path.join(folder, '.vscode', 'mcp.json');
    await fs.writeFile(configPath, configText);
    const file = parseMcpConfigText(await fs.readFile(configPath, 'utf8'), configPath, folder);
    assert.deepEqual(file.errors, []);

    const asked: McpInputDefinition[] = [];
    const inputResolver: InputResolver = {
      resolve: async (input) => {
        asked.push(input);
        return input.type === 'pickString' ? (input.options[1] ?? '') : 'secret-token';
      },
    };
    const hub = new McpHub({ inputResolver, env: { ...process.env, TANDEM_TEST_HOST_VAR: 'host-value' } });
    try {
      await hub.update(file.servers);
      const byName = new Map(hub.statuses().map((status) => [status.name, status]));
      assert.equal(byName.get('everything')?.state, 'connected', byName.get('everything')?.error);
      assert.equal(byName.get('everything')?.source, configPath);
      assert.equal(byName.get('broken')?.state, 'error');
      assert.match(byName.get('broken')?.error ?? '', /mcp\.json: server "broken": "command"/);
      assert.deepEqual(asked.map((input) => input.id).sort(), ['region', 'token']);

      const getEnv = hub.tools().find((tool) => tool.name === 'everything__get-env');
      const env = JSON.parse((await getEnv?.run({}, toolContext()))?.text ?? '{}') as Record<string, string>;
      assert.equal(env['TOKEN'], 'secret-token');
      assert.equal(env['TOKEN_AGAIN'], 'secret-token');
      assert.equal(env['REGION'], 'us');
      assert.equal(env['FOLDER'], folder);
      assert.equal(env['FROM_HOST_ENV'], 'host-value');
      assert.equal(env['FROM_ENV_FILE'], 'file-value');
      assert.equal(env['OVERRIDDEN'], 'from-env');
    } finally {
      await hub.dispose();
    }
  });

  it('fails a server whose input the user dismisses, without touching the others', async () => {
    const file = parseMcpConfigText(
      JSON.stringify({
        servers: {
          needsKey: { command: process.execPath, args: [EVERYTHING_SERVER], env: { KEY: '${input:key}' } },
          plain: { command: process.execPath, args: [EVERYTHING_SERVER] },
        },
      }),
      'mcp.json',
      folder,
    );
    const hub = new McpHub({ inputResolver: { resolve: async () => undefined } });
    try {
      await hub.update(file.servers);
      const byName = new Map(hub.statuses().map((status) => [status.name, status]));
      assert.equal(byName.get('needsKey')?.state, 'error');
      assert.match(byName.get('needsKey')?.error ?? '', /no value was given for \$\{input:key\}/);
      assert.equal(byName.get('plain')?.state, 'connected');
    } finally {
      await hub.dispose();
    }
  });

  it('fails a server whose envFile is a FIFO, a device, too large or missing, at once and with the reason', async () => {
    execFileSync('mkfifo', [path.join(folder, 'pipe.env')]);
    await fs.writeFile(path.join(folder, 'huge.env'), '');
    await fs.truncate(path.join(folder, 'huge.env'), 5 * ENV_FILE_BYTE_LIMIT);
    const withEnvFile = (envFile: string) => ({ command: process.execPath, args: [EVERYTHING_SERVER], envFile });
    const file = parseMcpConfigText(
      JSON.stringify({
        servers: {
          fifo: withEnvFile('${workspaceFolder}/pipe.env'),
          device: withEnvFile('/dev/zero'),
          huge: withEnvFile('huge.env'),
          missing: withEnvFile('${workspaceFolder}/none.env'),
          plain: withEnvFile('${workspaceFolder}/.env'),
        },
      }),
      'mcp.json',
      folder,
    );
    const hub = new McpHub({});
    try {
      const started = Date.now();
      await hub.update(file.servers);
      // A read of the FIFO would wait for a writer forever, and /dev/zero would fill memory.
      assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
      const byName = new Map(hub.statuses().map((status) => [status.name, status]));
      const reason = (name: string) => byName.get(name)?.state === 'error' ? byName.get(name)?.error ?? '' : `state ${byName.get(name)?.state}`;
      assert.match(reason('fifo'), /envFile .*pipe\.env cannot be read: it is not a regular file/u);
      assert.match(reason('device'), /envFile \/dev\/zero cannot be read: it is not a regular file/u);
      assert.match(reason('huge'), /envFile .*huge\.env cannot be read: it is 5 MB; Tandem reads an envFile up to 1 MB/u);
      assert.match(reason('missing'), /envFile .*none\.env cannot be read: .*ENOENT|no such file/u);
      assert.equal(byName.get('plain')?.state, 'connected', byName.get('plain')?.error);
    } finally {
      await hub.dispose();
    }
  });
});
