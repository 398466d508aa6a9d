import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignToolNames, cleanToolName, TOOL_NAME_PATTERN } from '../../../src/mcp/mcpToolName';

describe('cleanToolName', () => {
  it('joins server and tool with a double underscore and keeps valid characters', () => {
    assert.equal(cleanToolName('everything', 'get-sum'), 'everything__get-sum');
  });

  it('replaces characters outside [a-zA-Z0-9_-] and fits 64 characters', () => {
    assert.equal(cleanToolName('my server', 'files.read/ü'), 'my_server__files_read__');
    const long = cleanToolName('s'.repeat(40), 't'.repeat(40));
    assert.equal(long.length, 64);
    assert.match(long, TOOL_NAME_PATTERN);
    assert.equal(cleanToolName('', ''), 'server__tool');
  });
});

describe('assignToolNames', () => {
  it('keeps names unique when they collide after cleaning', () => {
    const names = assignToolNames([
      { server: 'a b', tool: 'x' },
      { server: 'a_b', tool: 'x' },
      { server: 'a.b', tool: 'x' },
    ]);
    assert.deepEqual(names, ['a_b__x', 'a_b__x_2', 'a_b__x_3']);
  });

  it('keeps names unique and valid when they collide after truncation', () => {
    const entries = [1, 2, 3].map((index) => ({ server: 'server', tool: `${'t'.repeat(70)}${index}` }));
    const names = assignToolNames(entries);
    assert.equal(new Set(names).size, 3);
    for (const name of names) assert.match(name, TOOL_NAME_PATTERN);
    assert.ok(names[1]?.endsWith('_2'));
  });
});
