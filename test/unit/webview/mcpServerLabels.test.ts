// Two MCP servers with one name (the settings and a workspace's mcp.json)
// are told apart in the panel by where each is configured.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { serverLabels } from '../../../webview/mcpServerLabels';

it('names a server alone by its name, and same-named servers by name and source', () => {
  assert.deepEqual(
    serverLabels([
      { name: 'github', source: 'settings' },
      { name: 'github', source: '/home/ada/project/.vscode/mcp.json' },
      { name: 'everything', source: '/home/ada/project/.vscode/mcp.json' },
    ]),
    ['github (settings)', 'github (.vscode/mcp.json)', 'everything'],
  );
  assert.deepEqual(serverLabels([{ name: 'a', source: 'C:\\work\\app\\.vscode\\mcp.json' }, { name: 'a', source: 'settings' }]), ['a (.vscode/mcp.json)', 'a (settings)']);
  assert.deepEqual(serverLabels([]), []);
});
