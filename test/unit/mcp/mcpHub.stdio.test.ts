// The hub against real MCP servers over stdio: the everything and filesystem
// servers from npm, and a fault fixture for hangs, crashes and list changes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CancelledError } from '../../../src/common/errors';
import { McpHub } from '../../../src/mcp/mcpHub';
import { tellingLine } from '../../../src/mcp/mcpConnection';
import { TOOL_NAME_PATTERN } from '../../../src/mcp/mcpToolName';
import { parseSlashArguments } from '../../../src/common/slashArguments';
import type { Tool, ToolProgress } from '../../../src/tools/tool';
import { EVERYTHING_SERVER, FAULT_SERVER, FILESYSTEM_SERVER, isAlive, SILENT_SERVER, stdioServer, toolContext, waitFor } from './mcpTestSupport';

function tool(hub: McpHub, name: string): Tool {
  const found = hub.tools().find((candidate) => candidate.name === name);
  assert.ok(found, `tool ${name} among ${hub.tools().map((candidate) => candidate.name).join(', ')}`);
  return found;
}

describe('McpHub over stdio with the everything server', () => {
  const hub = new McpHub({ defaultTimeoutMs: 10_000 });
  before(() => hub.update([stdioServer('everything', [EVERYTHING_SERVER, 'stdio'])]));
  after(() => hub.dispose());

  it('connects, counts tools and names them <server>__<tool>', () => {
    const [status] = hub.statuses();
    assert.equal(status?.state, 'connected');
    assert.equal(status?.transport, 'stdio');
    assert.ok((status?.toolCount ?? 0) >= 10);
    assert.equal(status?.toolCount, hub.tools().length);
    for (const candidate of hub.tools()) {
      assert.match(candidate.name, TOOL_NAME_PATTERN);
      assert.deepEqual(candidate.source, { kind: 'mcp', server: 'everything' });
    }
    const echo = tool(hub, 'everything__echo');
    // The server says echo only reads, but the user has not marked the server trusted: not read-only.
    assert.equal(echo.readOnly, false);
    assert.equal((echo.parameters['properties'] as Record<string, unknown>)['message'] !== undefined, true);
  });

  it("honours readOnlyHint only for a server the user trusts, and never offers a tool switched off", () => {
    const everything = { name: 'everything', source: hub.statuses()[0]?.source ?? '' };
    const before = hub.tools().map((candidate) => candidate.name);
    let toolEvents = 0;
    const listening = hub.onDidChangeTools(() => toolEvents++);
    try {
      hub.setToolSwitches(hub.toolSwitches().withTrust(everything, true));
      assert.equal(tool(hub, 'everything__echo').readOnly, true);
      // No readOnlyHint: not read-only, trusted or not.
      assert.equal(tool(hub, 'everything__toggle-simulated-logging').readOnly, false);

      const all = hub.serverTools(everything).map((each) => each.name);
      assert.ok(all.includes('echo') && all.includes('get-sum'));
      hub.setToolSwitches(hub.toolSwitches().withEnabledTools(everything, all, new Set(all.filter((name) => name !== 'echo'))));
      const after = hub.tools().map((candidate) => candidate.name);
      assert.deepEqual(after, before.filter((name) => name !== 'everything__echo'), 'the others keep their names and order');
      assert.equal(hub.serverTools(everything).find((each) => each.name === 'echo')?.enabled, false);
      assert.equal(toolEvents, 1, 'switching a tool off changes the tool list once; trusting changes no name');

      hub.setToolSwitches(hub.toolSwitches().withTrust(everything, false));
      assert.equal(tool(hub, 'everything__get-sum').readOnly, false);
    } finally {
      listening.dispose();
      hub.setToolSwitches({ trustedServers: [], disabledTools: [] });
    }
    assert.deepEqual(hub.tools().map((candidate) => candidate.name), before);
  });

  it('calls echo and get-sum', async () => {
    assert.equal((await tool(hub, 'everything__echo').run({ message: 'hello tandem' }, toolContext())).text, 'Echo: hello tandem');
    const sum = await tool(hub, 'everything__get-sum').run({ a: 2, b: 40 }, toolContext());
    assert.equal(sum.isError, false);
    assert.match(sum.text, /\b42\b/);
  });

  it('describes images, keeps them for the model, and passes structured content as JSON', async () => {
    const image = await tool(hub, 'everything__get-tiny-image').run({}, toolContext());
    assert.match(image.text, /\[image: image\/png, \d+ bytes; image 1 of this result\]/);
    assert.equal(image.images?.length, 1);
    assert.match(image.images?.[0]?.data ?? '', /^iVBORw0KGgo/);
    const structured = await tool(hub, 'everything__get-structured-content').run({ location: 'New York' }, toolContext());
    assert.match(structured.text, /"temperature"/);
  });

  it('turns a server-side validation failure into an error result', async () => {
    const result = await tool(hub, 'everything__get-sum').run({ a: 'not a number' }, toolContext());
    assert.equal(result.isError, true);
  });

  it('reports progress of a long-running operation', async () => {
    const progress: ToolProgress[] = [];
    const result = await tool(hub, 'everything__trigger-long-running-operation').run({ duration: 0.6, steps: 3 }, toolContext(undefined, progress));
    assert.match(result.text, /Long running operation completed/);
    // The last notification may race the result; the ones before it must all arrive, in order.
    assert.ok(progress.length >= 2, `progress: ${JSON.stringify(progress)}`);
    assert.deepEqual(progress.slice(0, 2).map((update) => [update.progress, update.total]), [
      [1, 3],
      [2, 3],
    ]);
  });

  it('cancels a long-running operation on abort, fast', async () => {
    const abort = new AbortController();
    const progress: ToolProgress[] = [];
    const started = Date.now();
    const call = tool(hub, 'everything__trigger-long-running-operation').run({ duration: 20, steps: 40 }, toolContext(abort.signal, progress));
    await waitFor(() => progress.length >= 1, 5_000, 'first progress');
    abort.abort();
    await assert.rejects(call, CancelledError);
    assert.ok(Date.now() - started < 3_000, 'the call ended long before the 20 s operation');
    // The connection stays usable after a cancelled call.
    assert.equal((await tool(hub, 'everything__echo').run({ message: 'still here' }, toolContext())).text, 'Echo: still here');
  });

  it('gives an error result when the server process is killed mid-call, marks it failed, and restarts it once', async () => {
    const crashHub = new McpHub({ restartDelayMs: 200, defaultTimeoutMs: 10_000 });
    try {
      await crashHub.update([stdioServer('victim', [EVERYTHING_SERVER, 'stdio'])]);
      const pid = crashHub.processId({ name: 'victim' });
      assert.ok(pid !== undefined && isAlive(pid));
      const states: string[] = [];
      crashHub.onDidChangeStatus((statuses) => states.push(statuses[0]?.state ?? 'none'));
      const progress: ToolProgress[] = [];
      const echoBefore = tool(crashHub, 'victim__echo');
      const call = tool(crashHub, 'victim__trigger-long-running-operation').run({ duration: 20, steps: 40 }, toolContext(undefined, progress));
      await waitFor(() => progress.length >= 1, 5_000, 'first progress');
      process.kill(pid, 'SIGKILL');
      const result = await call;
      assert.equal(result.isError, true);
      assert.match(result.text, /MCP server "victim" stopped during the call to "trigger-long-running-operation"/);
      assert.ok(states.includes('error'), `states: ${states.join(',')}`);
      assert.deepEqual(crashHub.tools(), []);
      // From the crash on it counts as starting: a call made during the restart's delay waits for it
      // instead of failing, and a run waiting on the hub sees the server's tools again.
      assert.equal(crashHub.statuses()[0]?.state, 'starting');
      const duringRestart = echoBefore.run({ message: 'waited' }, toolContext());
      await crashHub.whenStarted([{ name: 'victim' }]);
      assert.equal(crashHub.statuses()[0]?.state, 'connected');
      assert.ok(crashHub.tools().some((each) => each.name === 'victim__echo'));
      assert.equal((await duringRestart).text, 'Echo: waited');
      const newPid = crashHub.processId({ name: 'victim' });
      assert.ok(newPid !== undefined && newPid !== pid);
      const echo = tool(crashHub, 'victim__echo');
      assert.equal((await echo.run({ message: 'back' }, toolContext())).text, 'Echo: back');
      // A second crash soon after is not restarted again.
      process.kill(newPid, 'SIGKILL');
      await waitFor(() => crashHub.statuses()[0]?.state === 'error', 5_000, 'second crash');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(crashHub.statuses()[0]?.state, 'error');
      assert.equal(crashHub.processId({ name: 'victim' }), undefined);
      // A call the model still makes says why, in one sentence (the status's own period is not doubled).
      const refused = await echo.run({ message: 'again' }, toolContext());
      assert.match(refused.text, /MCP server "victim" is not running: .*[^.]\.$/);
    } finally {
      await crashHub.dispose();
    }
  });
});

describe('McpHub with the fault fixture', () => {
  const hub = new McpHub({ restartDelayMs: 100 });
  before(() => hub.update([stdioServer('fault', [FAULT_SERVER], { timeoutMs: 800 })]));
  after(() => hub.dispose());

  it('cleans odd tool names and keeps the non-read-only default', () => {
    const odd = tool(hub, 'fault__mutate_name__');
    assert.equal(odd.readOnly, false);
    assert.equal(tool(hub, 'fault__hang').readOnly, false);
  });

  it('times out a call that never answers, with a clear error', async () => {
    const started = Date.now();
    const result = await tool(hub, 'fault__hang').run({}, toolContext());
    assert.equal(result.isError, true);
    assert.match(result.text, /MCP server "fault" did not answer "hang" within 0\.8 s/);
    assert.ok(Date.now() - started < 3_000);
    assert.equal(hub.statuses()[0]?.state, 'connected');
  });

  it('keeps a slow call alive while it reports progress, past the timeout', async () => {
    const progress: ToolProgress[] = [];
    const result = await tool(hub, 'fault__slow').run({ steps: 5, intervalMs: 300 }, toolContext(undefined, progress));
    assert.equal(result.text, 'done after 5 steps');
    // The SDK dispatches notifications a microtask late, so the last one can lose the race with the result.
    assert.ok(progress.length >= 4, `progress: ${JSON.stringify(progress)}`);
    assert.deepEqual(progress.slice(0, 4).map((update) => update.message), ['step 1', 'step 2', 'step 3', 'step 4']);
  });

  it('sends notifications/cancelled on abort: the server sees the cancellation', async () => {
    const abort = new AbortController();
    const call = tool(hub, 'fault__hang').run({}, toolContext(abort.signal));
    await waitFor(() => hub.statuses()[0]?.stderrTail.at(-1) === 'hang: started', 3_000, 'hang started');
    abort.abort();
    await assert.rejects(call, CancelledError);
    await waitFor(() => hub.statuses()[0]?.stderrTail.includes('hang: cancelled by client') ?? false, 3_000, 'server saw the cancellation');
  });

  it('turns isError into an error result', async () => {
    const result = await tool(hub, 'fault__fail').run({}, toolContext());
    assert.deepEqual([result.isError, result.text], [true, 'the thing went wrong']);
  });

  it('refreshes the tool list on tools/list_changed', async () => {
    let changes = 0;
    const listener = hub.onDidChangeTools(() => changes++);
    await tool(hub, 'fault__add-tool').run({}, toolContext());
    await waitFor(() => hub.tools().some((candidate) => candidate.name === 'fault__added-1'), 3_000, 'added tool');
    listener.dispose();
    assert.ok(changes >= 1);
    assert.equal((await tool(hub, 'fault__added-1').run({}, toolContext())).text, 'added tool 1');
  });

  it('offers the prompts as /<server>.<prompt>, fills one in, and follows prompts/list_changed', async () => {
    const greet = hub.promptCommands().find((each) => each.command === 'fault.greet');
    assert.ok(greet, hub.promptCommands().map((each) => each.command).join(', '));
    assert.deepEqual(greet.prompt.arguments.map((argument) => [argument.name, argument.required]), [['name', true], ['tone', false]]);
    assert.equal(await hub.runPromptCommand('fault.greet', { name: 'Ada', tone: 'warm' }, new AbortController().signal), 'Say hello to Ada in a warm tone.');
    assert.deepEqual([...parseSlashArguments('name=Ada tone="very warm" stray words x=')], [['name', 'Ada'], ['tone', 'very warm'], ['x', '']]);
    await assert.rejects(hub.runPromptCommand('fault.nothing', {}, new AbortController().signal), /No MCP prompt \/fault\.nothing/);
    await tool(hub, 'fault__add-prompt').run({}, toolContext());
    await waitFor(() => hub.promptCommands().some((each) => each.command === 'fault.later-1'), 3_000, 'added prompt');
    assert.equal(await hub.runPromptCommand('fault.later-1', {}, new AbortController().signal), 'prompt added 1');
  });

  it('lists resources, reads one as text, and follows resources/list_changed', async () => {
    const server = { name: 'fault', source: 'test' };
    assert.deepEqual(hub.resources().map((each) => each.resource.uri), ['fault://readme']);
    assert.equal(await hub.readResource(server, 'fault://readme', new AbortController().signal), 'The fault fixture hangs, crashes and changes its lists.');
    await tool(hub, 'fault__add-resource').run({}, toolContext());
    await waitFor(() => hub.resources().some((each) => each.resource.uri === 'fault://later-1'), 3_000, 'added resource');
    assert.equal(await hub.readResource(server, 'fault://later-1', new AbortController().signal), 'resource later-1');
  });

  it('crashes mid-call: error result with the stderr tail, status error, one restart', async () => {
    const result = await tool(hub, 'fault__crash').run({}, toolContext());
    assert.equal(result.isError, true);
    assert.match(result.text, /stopped during the call to "crash"[\s\S]*crash: about to exit with code 3/);
    const status = hub.statuses()[0];
    assert.ok(status?.state === 'error' || status?.state === 'starting');
    await waitFor(() => hub.statuses()[0]?.state === 'connected', 5_000, 'restart');
  });
});

describe('McpHub start failures', () => {
  it('reports a bad command clearly, leaves the other servers running, and retries it on reload', async () => {
    const logs: string[] = [];
    const hub = new McpHub({ log: (line) => logs.push(line) });
    try {
      const definitions = [
        stdioServer('missing', [], { command: 'tandem-no-such-command-xyz' } as never),
        stdioServer('nowhere', [EVERYTHING_SERVER, 'stdio'], { cwd: '/tandem-no-such-folder', source: 'mcp.json' }),
        stdioServer('invalid', [], { type: 'invalid', error: 'mcp.json: server "invalid": "command" is required' } as never),
        stdioServer('everything', [EVERYTHING_SERVER, 'stdio']),
      ];
      await hub.update(definitions);
      const pid = hub.processId({ name: 'everything' });
      await hub.update(definitions);
      assert.equal(logs.filter((line) => line.startsWith('MCP server "missing" failed to start')).length, 2);
      assert.equal(hub.processId({ name: 'everything' }), pid);
      const byName = new Map(hub.statuses().map((status) => [status.name, status]));
      assert.equal(byName.get('missing')?.state, 'error');
      assert.match(byName.get('missing')?.error ?? '', /Could not start "tandem-no-such-command-xyz": command not found \(ENOENT\)/);
      assert.equal(byName.get('nowhere')?.error, 'The folder "cwd" names does not exist: /tandem-no-such-folder. Check "cwd" in mcp.json.', 'not "command not found"');
      assert.equal(byName.get('invalid')?.state, 'error');
      assert.match(byName.get('invalid')?.error ?? '', /"command" is required/);
      assert.equal(byName.get('everything')?.state, 'connected');
      assert.ok(hub.tools().every((candidate) => candidate.name.startsWith('everything__')));
    } finally {
      await hub.dispose();
    }
  });

  it('times out a server that never answers the handshake, with its stderr', async () => {
    const hub = new McpHub({ startTimeoutMs: 700 });
    try {
      const started = Date.now();
      await hub.update([stdioServer('silent', [SILENT_SERVER])]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'error');
      assert.match(status?.error ?? '', /did not answer the MCP handshake within 0\.7 s/);
      assert.deepEqual(status?.stderrTail, ['silent fixture: listening and never answering']);
      assert.ok(Date.now() - started < 4_000);
    } finally {
      await hub.dispose();
    }
  });

  it('a handshake that times out is not cancelled (the spec forbids cancelling initialize): the connection is closed', async () => {
    const log = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-silent-')), 'received.jsonl');
    const hub = new McpHub({ startTimeoutMs: 700 });
    try {
      await hub.update([stdioServer('silent', [SILENT_SERVER], { env: { SILENT_LOG: log } })]);
      assert.match(hub.statuses()[0]?.error ?? '', /did not answer the MCP handshake within 0\.7 s/);
      // Time for anything sent at the timeout to land.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const received = await fs.readFile(log, 'utf8');
      assert.match(received, /"method":"initialize"/);
      assert.doesNotMatch(received, /notifications\/cancelled/);
    } finally {
      await hub.dispose();
      await fs.rm(path.dirname(log), { recursive: true, force: true });
    }
  });

  it('a command that is not an MCP server: the timeout quotes what it wrote on stdout', async () => {
    const hub = new McpHub({ startTimeoutMs: 700 });
    try {
      const webApp = "console.log('Listening on http://localhost:3000'); setInterval(() => undefined, 1000);";
      await hub.update([stdioServer('web', ['-e', webApp])]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'error');
      assert.match(
        status?.error ?? '',
        /^The server did not answer the MCP handshake within 0\.7 s; it wrote to stdout what is not MCP \(Unexpected token 'L', "Listening "\.\.\. is not valid JSON\)\. Is ".*node" an MCP server\? One speaking stdio writes only JSON-RPC messages on stdout, and its logs on stderr\.$/,
      );
    } finally {
      await hub.dispose();
    }
  });

  it('a server that failed is retried by a changed configuration, or not at all, or restarted without waiting', async () => {
    const hub = new McpHub({ startTimeoutMs: 700 });
    try {
      const silent = stdioServer('silent', [SILENT_SERVER]);
      await hub.update([silent]);
      assert.equal(hub.statuses()[0]?.state, 'error');
      let started = Date.now();
      await hub.update([silent], false);
      assert.equal(hub.statuses()[0]?.state, 'error', 'not retried');
      void hub.restart({ name: 'silent' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(Date.now() - started < 500, 'a run does not wait on a retry');
      assert.equal(hub.statuses()[0]?.state, 'starting', 'retried meanwhile');
      while (hub.statuses()[0]?.state === 'starting') await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(hub.statuses()[0]?.state, 'error');
      started = Date.now();
      await hub.update([silent]);
      assert.equal(hub.statuses()[0]?.state, 'error');
      assert.ok(Date.now() - started >= 300, 'a changed configuration waits for the retry');
    } finally {
      await hub.dispose();
    }
  });

  it("names the line of a failed server's output that says why: npx's 404, a thrown error", async () => {
    const npmTail = [
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fserver-missing - Not found',
      'npm error 404',
      "npm error 404  '@example/server-missing@*' is not in this registry.",
      'npm error 404',
      'npm error 404 Note that you can also install from a',
      'npm error 404 tarball, folder, http url, or git url.',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-26T00_00_00_000Z-debug-0.log',
    ];
    const hub = new McpHub();
    try {
      await hub.update([
        stdioServer('npx', ['-e', `for (const line of ${JSON.stringify(npmTail)}) console.error(line); process.exit(1)`]),
        stdioServer('thrower', ['-e', 'throw new Error("missing env GITHUB_TOKEN")']),
      ]);
      const byName = new Map(hub.statuses().map((status) => [status.name, status.error ?? '']));
      assert.match(byName.get('npx') ?? '', /; its output: npm error 404 Not Found - GET https:\/\/registry\.npmjs\.org\/@example%2fserver-missing/);
      assert.match(byName.get('thrower') ?? '', /; its output: Error: missing env GITHUB_TOKEN$/);
      assert.equal(tellingLine([`Error: ${'x'.repeat(1000)}`])?.length, 301, 'a runaway line is cut');
    } finally {
      await hub.dispose();
    }
  });

  it('reports a server that exits during the handshake', async () => {
    const hub = new McpHub();
    try {
      await hub.update([stdioServer('quitter', ['-e', 'console.error("bad flag --x"); process.exit(2)'])]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'error');
      assert.match(status?.error ?? '', /closed the connection during the MCP handshake; its output: bad flag --x/);
    } finally {
      await hub.dispose();
    }
  });
});

describe('McpHub lifecycle', () => {
  it('reconnects only what changed, stops removed servers, and ends all on dispose', async () => {
    const hub = new McpHub();
    try {
      const a = stdioServer('a', [EVERYTHING_SERVER, 'stdio']);
      const b = stdioServer('b', [FAULT_SERVER]);
      await hub.update([a, b]);
      const pidA = hub.processId({ name: 'a' });
      const pidB = hub.processId({ name: 'b' });
      assert.ok(pidA !== undefined && pidB !== undefined);
      // a unchanged, b changed.
      await hub.update([a, stdioServer('b', [FAULT_SERVER], { timeoutMs: 5_000 })]);
      assert.equal(hub.processId({ name: 'a' }), pidA);
      const pidB2 = hub.processId({ name: 'b' });
      assert.ok(pidB2 !== undefined && pidB2 !== pidB);
      await waitFor(() => !isAlive(pidB), 5_000, 'old b ends');
      // b removed.
      await hub.update([a]);
      assert.deepEqual(hub.statuses().map((status) => status.name), ['a']);
      await waitFor(() => !isAlive(pidB2), 5_000, 'removed b ends');
      // disable / enable / restart.
      await hub.setDisabled({ name: 'a' }, true);
      assert.equal(hub.statuses()[0]?.state, 'disabled');
      assert.deepEqual(hub.tools(), []);
      await waitFor(() => !isAlive(pidA), 5_000, 'disabled a ends');
      await hub.setDisabled({ name: 'a' }, false);
      assert.equal(hub.statuses()[0]?.state, 'connected');
      const pidA2 = hub.processId({ name: 'a' });
      await hub.restart({ name: 'a' });
      const pidA3 = hub.processId({ name: 'a' });
      assert.ok(pidA3 !== undefined && pidA3 !== pidA2);
      await hub.dispose();
      await waitFor(() => !isAlive(pidA3), 5_000, 'dispose ends a');
      assert.deepEqual(hub.statuses(), []);
    } finally {
      await hub.dispose();
    }
  });
});

describe('McpHub tool names across servers', () => {
  it('keeps names unique when two server names clean to the same text, and routes each to its server', async () => {
    const hub = new McpHub();
    try {
      await hub.update([stdioServer('my.server', [FAULT_SERVER]), stdioServer('my server', [FAULT_SERVER])]);
      const names = hub.tools().map((candidate) => candidate.name);
      assert.equal(new Set(names).size, names.length);
      assert.ok(names.includes('my_server__fail') && names.includes('my_server__fail_2'), names.join(', '));
      for (const candidate of hub.tools()) assert.match(candidate.name, TOOL_NAME_PATTERN);
      const servers = ['my_server__fail', 'my_server__fail_2'].map((name) => {
        const found = tool(hub, name);
        return found.source.kind === 'mcp' ? found.source.server : '';
      });
      // Sorted by server name, so the same server keeps the same name whatever the configuration order.
      assert.deepEqual(servers, ['my server', 'my.server']);
    } finally {
      await hub.dispose();
    }
  });

  it('names and orders tools the same whatever order the servers are configured or start in', async () => {
    const first = new McpHub();
    const second = new McpHub();
    try {
      await first.update([stdioServer('b.srv', [FAULT_SERVER]), stdioServer('a', [FAULT_SERVER]), stdioServer('b srv', [FAULT_SERVER])]);
      await second.update([stdioServer('b srv', [FAULT_SERVER]), stdioServer('a', [FAULT_SERVER]), stdioServer('b.srv', [FAULT_SERVER])]);
      const describe = (hub: McpHub): string[] => hub.tools().map((candidate) => `${candidate.name}->${candidate.source.kind === 'mcp' ? candidate.source.server : ''}`);
      assert.deepEqual(describe(first), describe(second));
      assert.match(describe(first)[0] ?? '', /^a__/);
      await first.restart({ name: 'a' });
      assert.deepEqual(describe(first), describe(second));
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });
});

describe('McpHub with the filesystem server on a temp folder', () => {
  let folder = '';
  const hub = new McpHub();
  before(async () => {
    folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-mcp-fs-')));
    await fs.writeFile(path.join(folder, 'notes.txt'), 'tandem was here\n');
    await hub.update([stdioServer('fs', [FILESYSTEM_SERVER, folder])]);
  });
  after(async () => {
    await hub.dispose();
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('reads and lists files, and refuses paths outside the folder', async () => {
    assert.equal(hub.statuses()[0]?.state, 'connected');
    const read = await tool(hub, 'fs__read_text_file').run({ path: path.join(folder, 'notes.txt') }, toolContext());
    assert.match(read.text, /tandem was here/);
    const listing = await tool(hub, 'fs__list_directory').run({ path: folder }, toolContext());
    assert.match(listing.text, /\[FILE\] notes\.txt/);
    const outside = await tool(hub, 'fs__read_text_file').run({ path: '/etc/hostname' }, toolContext());
    assert.equal(outside.isError, true);
    assert.equal(tool(hub, 'fs__write_file').readOnly, false);
  });
});
