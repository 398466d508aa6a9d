// Stored tool switches are read defensively (workspace state may hold an old
// or damaged value) and edited per server without touching other servers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseToolSwitches, ToolSwitchIndex } from '../../../src/mcp/mcpToolSwitches';

const a = { name: 'a', source: '/w/.vscode/mcp.json' };
const sameNameOtherFile = { name: 'a', source: 'settings' };

describe('MCP tool switches', () => {
  it('keeps only well-formed entries of a stored value', () => {
    assert.deepEqual(parseToolSwitches(undefined), { trustedServers: [], disabledTools: [] });
    assert.deepEqual(parseToolSwitches('junk'), { trustedServers: [], disabledTools: [] });
    assert.deepEqual(
      parseToolSwitches({ trustedServers: [a, { name: 1 }], disabledTools: [{ server: a, tool: 'x' }, { server: a }, { tool: 'y' }] }),
      { trustedServers: [a], disabledTools: [{ server: a, tool: 'x' }] },
    );
  });

  it('tells servers apart by name and source, and edits one server at a time', () => {
    let index = new ToolSwitchIndex(parseToolSwitches({}));
    index = new ToolSwitchIndex(index.withTrust(a, true));
    assert.equal(index.isTrusted(a), true);
    assert.equal(index.isTrusted(sameNameOtherFile), false);
    index = new ToolSwitchIndex(index.withEnabledTools(sameNameOtherFile, ['x', 'y'], new Set(['y'])));
    index = new ToolSwitchIndex(index.withEnabledTools(a, ['x', 'y', 'z'], new Set(['x'])));
    assert.equal(index.isToolEnabled(sameNameOtherFile, 'x'), false);
    assert.equal(index.isToolEnabled(sameNameOtherFile, 'y'), true);
    assert.deepEqual(['x', 'y', 'z'].map((tool) => index.isToolEnabled(a, tool)), [true, false, false]);
    index = new ToolSwitchIndex(index.withEnabledTools(a, ['x', 'y', 'z'], new Set(['x', 'y', 'z'])));
    assert.deepEqual(index.switches.disabledTools, [{ server: sameNameOtherFile, tool: 'x' }]);
    assert.equal(new ToolSwitchIndex(index.withTrust(a, false)).isTrusted(a), false);
  });
});
