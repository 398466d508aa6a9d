// MCP roots with the real filesystem server from npm, started with no folder
// of its own: it asks Tandem's client for the roots and works on those (the
// workspace's folders), and when they change and the hub says so, it asks
// again and works on the new ones. A hub without roots claims none, and the
// server keeps the folder it was started with; a remote server (the
// everything server over HTTP) is offered none either.
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { parseMcpConfigText } from '../../../src/mcp/mcpConfig';
import { rootsOf, type McpRoot } from '../../../src/mcp/mcpRoots';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER, remoteServer, startHttpEverything, stdioServer, toolContext } from './mcpTestSupport';

async function allowed(hub: McpHub): Promise<string> {
  const list = hub.tools().find((tool) => tool.name === 'fs__list_allowed_directories');
  assert.ok(list, hub.tools().map((tool) => tool.name).join(', '));
  return (await list.run({}, toolContext())).text;
}

describe('MCP roots', () => {
  let first = '';
  let second = '';
  let roots: McpRoot[] = [];
  const hub = new McpHub({ roots: () => roots });
  before(async () => {
    first = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-roots-a-')));
    second = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-roots-b-')));
    await fs.writeFile(path.join(second, 'plan.md'), 'second folder\n');
    roots = rootsOf([{ path: first }]);
  });
  after(async () => {
    await hub.dispose();
    await fs.rm(first, { recursive: true, force: true });
    await fs.rm(second, { recursive: true, force: true });
  });

  it('names a folder by a file URI and its name', () => {
    assert.deepEqual(rootsOf([{ path: '/work/my app' }, { path: '/srv/api', name: 'api (server)' }]), [
      { uri: 'file:///work/my%20app', name: 'my app' },
      { uri: 'file:///srv/api', name: 'api (server)' },
    ]);
  });

  it('the filesystem server works on the workspace folders it asks for, and follows when they change', async () => {
    await hub.update([stdioServer('fs', [FILESYSTEM_SERVER])]);
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    // The server asks for the roots once initialized: wait until it has them.
    let text = '';
    for (let tries = 0; tries < 50 && !text.includes(first); tries++) {
      text = await allowed(hub);
      if (!text.includes(first)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(text, new RegExp(first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), text);
    const readOutside = hub.tools().find((tool) => tool.name === 'fs__read_text_file');
    assert.equal((await readOutside!.run({ path: path.join(second, 'plan.md') }, toolContext())).isError, true, 'the second folder is no root yet');

    roots = rootsOf([{ path: second }]);
    await hub.rootsChanged();
    for (let tries = 0; tries < 50 && !text.includes(second); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await allowed(hub);
    }
    assert.ok(text.includes(second) && !text.includes(first), text);
    const read = await readOutside!.run({ path: path.join(second, 'plan.md') }, toolContext());
    assert.notEqual(read.isError, true, read.text);
    assert.match(read.text, /second folder/);
    assert.match((hub.statuses()[0]?.stderrTail ?? []).join('\n'), /Updated allowed directories from MCP roots/);
  });

  it('"roots": false in a server\'s definition keeps the roots from it; anything but a boolean is refused', async () => {
    const file = parseMcpConfigText(
      JSON.stringify({ servers: { own: { command: 'node', args: ['fs.js', '/data'], roots: false }, shared: { command: 'node' }, odd: { url: 'http://127.0.0.1:9/mcp', roots: 'no' } } }),
      '/ws/.vscode/mcp.json',
      '/ws',
    );
    assert.deepEqual(file.servers.map((server) => [server.name, server.type, server.roots]), [
      ['own', 'stdio', false],
      ['shared', 'stdio', undefined],
      ['odd', 'invalid', undefined],
    ]);

    // Offered, the roots would be the first folder; its arguments name the second.
    const kept = new McpHub({ roots: () => rootsOf([{ path: first }]) });
    try {
      await kept.update([stdioServer('fs', [FILESYSTEM_SERVER, second], { roots: false })]);
      assert.equal(kept.statuses()[0]?.state, 'connected', kept.statuses()[0]?.error);
      assert.ok((await allowed(kept)).includes(second), 'it keeps the folder of its arguments');
      let said = '';
      for (let tries = 0; tries < 50 && !said.includes('Client does not support MCP Roots'); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        said = (kept.statuses()[0]?.stderrTail ?? []).join('\n');
      }
      assert.match(said, /Client does not support MCP Roots/, said);
    } finally {
      await kept.dispose();
    }
  });

  it('only a server on this machine is offered roots: the everything server over stdio lists them, over HTTP it is offered none', async () => {
    const remote = await startHttpEverything('streamableHttp');
    const hub = new McpHub({ roots: () => rootsOf([{ path: first, name: 'first' }]) });
    try {
      await hub.update([stdioServer('local', [EVERYTHING_SERVER]), remoteServer('remote', 'http', `http://127.0.0.1:${remote.port}/mcp`)]);
      assert.deepEqual(hub.statuses().map((status) => [status.name, status.state]), [['local', 'connected'], ['remote', 'connected']]);
      const names = hub.tools().map((tool) => tool.name);
      // The server registers get-roots-list only for a client that offers roots.
      assert.ok(names.includes('local__get-roots-list'), names.join(', '));
      assert.ok(!names.includes('remote__get-roots-list'), 'no roots offered to the remote server');
      assert.ok(names.some((name) => name.startsWith('remote__')), names.join(', '));
      const listed = await hub.tools().find((tool) => tool.name === 'local__get-roots-list')!.run({}, toolContext());
      assert.ok(listed.text.includes(rootsOf([{ path: first }])[0]!.uri), listed.text);
    } finally {
      await hub.dispose();
      await remote.stop();
    }
  });

  it('a hub without roots claims none: the server hears so and keeps the folder it was started with', async () => {
    const bare = new McpHub();
    try {
      await bare.update([stdioServer('fs', [FILESYSTEM_SERVER, second])]);
      assert.equal(bare.statuses()[0]?.state, 'connected', bare.statuses()[0]?.error);
      assert.ok((await allowed(bare)).includes(second));
      let said = '';
      for (let tries = 0; tries < 50 && !said.includes('Client does not support MCP Roots'); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        said = (bare.statuses()[0]?.stderrTail ?? []).join('\n');
      }
      assert.match(said, /Client does not support MCP Roots, using allowed directories set from server args/, said);
    } finally {
      await bare.dispose();
    }
  });
});
