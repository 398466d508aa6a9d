import assert from 'node:assert/strict';
import { it } from 'node:test';
import { toolsNamed } from '../../../src/tools/promptFileTools';
import type { ToolSource } from '../../../src/tools/tool';

const workspace: ToolSource = { kind: 'workspace' };
const offered = [
  ...['read_file', 'list_dir', 'find_files', 'search_text', 'write_file', 'edit_file', 'run_command', 'fetch_url'].map((name) => ({ name, source: workspace })),
  { name: 'docs__search', source: { kind: 'mcp', server: 'docs' } as ToolSource },
  { name: 'docs__fetch_page', source: { kind: 'mcp', server: 'docs' } as ToolSource },
  { name: 'git__log', source: { kind: 'mcp', server: 'git' } as ToolSource },
];

it("takes in Tandem's names, Copilot's names and sets, and MCP servers or one of their tools, and says which names matched nothing", () => {
  const named = (...names: string[]) => {
    const { kept, unmatched } = toolsNamed(names, offered);
    return { kept: [...kept].sort(), unmatched };
  };
  assert.deepEqual(named('read_file', 'run_command'), { kept: ['read_file', 'run_command'], unmatched: [] });
  assert.deepEqual(named('codebase'), { kept: ['find_files', 'list_dir', 'read_file', 'search_text'], unmatched: [] });
  // `search` is Copilot's set of reads, not the docs server's tool of that name.
  assert.deepEqual(named('search', 'editFiles'), { kept: ['edit_file', 'find_files', 'list_dir', 'read_file', 'search_text', 'write_file'], unmatched: [] });
  assert.deepEqual(named('docs'), { kept: ['docs__fetch_page', 'docs__search'], unmatched: [] });
  assert.deepEqual(named('docs/*', 'git/log'), { kept: ['docs__fetch_page', 'docs__search', 'git__log'], unmatched: [] });
  assert.deepEqual(named('docs/fetch.page'), { kept: ['docs__fetch_page'], unmatched: [] }, 'the tool as the server names it (its dot made _ in the name the model sees)');
  assert.deepEqual(named('githubRepo', 'usages', 'git/blame', 'nosuch'), { kept: [], unmatched: ['githubRepo', 'usages', 'git/blame', 'nosuch'] }, 'find_usages is not offered here');
  assert.deepEqual(named('constructor', 'toString'), { kept: [], unmatched: ['constructor', 'toString'] });
});
