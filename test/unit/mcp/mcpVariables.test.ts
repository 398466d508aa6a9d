import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { McpInputDefinition } from '../../../src/mcp/mcpConfig';
import { parseEnvFile, resolveVariables, type InputResolver, type VariableContext } from '../../../src/mcp/mcpVariables';

function context(overrides: Partial<VariableContext> = {}): VariableContext {
  return { workspaceFolder: '/ws/project', env: { HOME_DIR: '/home/me' }, inputs: [], inputResolver: undefined, source: 'mcp.json', ...overrides };
}
const signal = new AbortController().signal;

describe('resolveVariables', () => {
  it('resolves workspace, env and built-in variables and leaves unknown ones', async () => {
    const value = await resolveVariables(
      '${workspaceFolder}/x ${workspaceFolderBasename} ${env:HOME_DIR} [${env:MISSING}] ${userHome} ${pathSeparator} ${unknown}',
      context(),
      signal,
    );
    assert.equal(value, `/ws/project/x project /home/me [] ${os.homedir()} ${path.sep} \${unknown}`);
  });

  it('asks for each input once per value and passes the declared definition', async () => {
    const asked: McpInputDefinition[] = [];
    const resolver: InputResolver = {
      resolve: async (input) => {
        asked.push(input);
        return `value-of-${input.id}`;
      },
    };
    const inputs: McpInputDefinition[] = [{ type: 'promptString', id: 'key', description: 'API key', default: undefined, password: true }];
    const value = await resolveVariables('${input:key}:${input:key}:${input:other}', context({ inputs, inputResolver: resolver }), signal);
    assert.equal(value, 'value-of-key:value-of-key:value-of-other');
    assert.deepEqual(asked.map((input) => input.id), ['key', 'other']);
    assert.equal(asked[0], inputs[0]);
    // An undeclared input is asked as a secret.
    assert.equal(asked[1]?.type === 'promptString' && asked[1].password, true);
  });

  it('fails clearly without a folder, without a resolver, and when the user dismisses the prompt', async () => {
    await assert.rejects(resolveVariables('${workspaceFolder}', context({ workspaceFolder: undefined }), signal), /mcp\.json: \$\{workspaceFolder\} is used but no workspace folder is open/);
    await assert.rejects(resolveVariables('${input:key}', context(), signal), /\$\{input:key\} needs a value/);
    const dismissing: InputResolver = { resolve: async () => undefined };
    await assert.rejects(resolveVariables('${input:key}', context({ inputResolver: dismissing }), signal), /no value was given for \$\{input:key\}/);
  });
});

describe('parseEnvFile', () => {
  it('reads KEY=VALUE lines with comments, export and quotes', () => {
    const env = parseEnvFile('# comment\nA=1\nexport B = two # note\nC="quoted # kept"\nD=\'single\'\n\nnot a line\nE=');
    assert.deepEqual(env, { A: '1', B: 'two', C: 'quoted # kept', D: 'single', E: '' });
  });
});
