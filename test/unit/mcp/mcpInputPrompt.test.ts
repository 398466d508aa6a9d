import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveServer } from '../../../src/mcp/mcpServerResolution';
import { inputPromptTitle } from '../../../src/mcp/mcpInputPrompt';
import type { McpInputDefinition, McpServerDefinition } from '../../../src/mcp/mcpConfig';
import type { InputAsker, InputResolver } from '../../../src/mcp/mcpVariables';

const token: McpInputDefinition = { type: 'promptString', id: 'token', description: 'Your OpenAI key, please', default: undefined, password: true };
const region: McpInputDefinition = { type: 'pickString', id: 'region', description: undefined, default: 'eu', options: ['eu', 'us'], password: false };

describe('the prompt for an MCP input', () => {
  it('names the server and the file asking, in its own words, whatever the description says', () => {
    assert.equal(
      inputPromptTitle(token, { file: '/ws/.vscode/mcp.json', server: 'github' }, '.vscode/mcp.json'),
      'Tandem: MCP server "github" (.vscode/mcp.json) asks for a secret: ${input:token}',
    );
    assert.equal(inputPromptTitle(region, { file: 'settings', server: 'maps' }, 'settings'), 'Tandem: MCP server "maps" (your settings) asks for a value: ${input:region}');
  });

  it('is told which server and file ask when a server starts', async () => {
    const asked: Array<{ id: string; asker: InputAsker | undefined }> = [];
    const resolver: InputResolver = {
      resolve: async (input, _signal, asker) => {
        asked.push({ id: input.id, asker });
        return 'value';
      },
    };
    const definition: McpServerDefinition = {
      type: 'stdio',
      name: 'github',
      source: '/ws/.vscode/mcp.json',
      workspaceFolder: '/ws',
      inputs: [token],
      timeoutMs: undefined,
      command: 'node',
      args: ['server.js', '--token=${input:token}'],
      env: { TOKEN: '${input:token}' },
      envFile: undefined,
      cwd: undefined,
    };
    const server = await resolveServer(definition, {}, resolver, new AbortController().signal);
    assert.deepEqual(server.type === 'stdio' ? server.args : [], ['server.js', '--token=value']);
    assert.deepEqual(asked, [{ id: 'token', asker: { file: '/ws/.vscode/mcp.json', server: 'github' } }]);
  });
});
