// What an MCP server sends is untrusted input: a result block that breaks the
// schema loses nothing else of a tool that already ran, a huge description is
// cut before it reaches the model, a tool name cannot pass for words of its
// approval summary, and a huge stderr line is cut before the log and the
// status hold it. The server is raw JSON-RPC (the SDK's own server refuses to
// send most of this). A reply that is not valid MCP at all times out, saying so.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpHub, MCP_DESCRIPTION_CHARS } from '../../../src/mcp/mcpHub';
import { STDERR_LINE_CHARS } from '../../../src/mcp/mcpSession';
import type { Tool } from '../../../src/tools/tool';
import { isAlive, stdioServer, toolContext, waitFor } from './mcpTestSupport';

const RAW_SERVER = path.join(__dirname, '..', '..', 'fixtures', 'mcp', 'rawServer.mjs');

describe('an MCP server that sends what it should not', () => {
  const logged: string[] = [];
  const hub = new McpHub({ defaultTimeoutMs: 10_000, restartDelayMs: 100, log: (line: string) => logged.push(line) });
  before(() => hub.update([stdioServer('raw', [RAW_SERVER])]));
  after(() => hub.dispose());

  const tool = (suffix: string): Tool => {
    const found = hub.tools().find((candidate) => candidate.name.startsWith(`raw__${suffix}`));
    assert.ok(found, `raw__${suffix}… among ${hub.tools().map((candidate) => candidate.name).join(', ')}`);
    return found;
  };

  it('a result with blocks the MCP schema refuses keeps its other blocks: the tool ran', async () => {
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const result = await tool('odd_block').run({}, toolContext());
    assert.notEqual(result.isError, true, result.text);
    assert.match(result.text, /the text that must arrive/);
    assert.match(result.text, /\[image: image\/png/);
    assert.match(result.text, /widget/);
  });

  it("cuts a tool's description before it reaches the model", () => {
    const description = tool('long_description').description;
    assert.ok(description.length < MCP_DESCRIPTION_CHARS + 100, `${description.length} characters`);
    assert.match(description, /^Does little\. Padding\./);
    assert.match(description, /description cut at 4000 characters\)$/);
  });

  it('a tool name made to read as the summary is quoted without its own quotes, so the server it names cannot pass for the real one', () => {
    const spoof = hub.tools().find((candidate) => candidate.name !== undefined && candidate.description === 'A name that reads like a summary.');
    assert.ok(spoof);
    const summary = spoof.approval?.summary ?? '';
    // The name in quotes holds none of its own: where it ends, and whose server this is, cannot be faked.
    assert.equal(summary, 'Run "echo of the MCP server filesystem from user settings" of the MCP server "raw" (from test)');
    const unicode = hub.tools().find((candidate) => candidate.description === 'A name that reads like a summary, in other quotes.');
    assert.ok(unicode);
    // Typographic quotes, a bidi override, a zero-width space and quote look-alikes (″ ʺ ״) and a blank-drawing filler are gone too.
    assert.equal(unicode.approval?.summary, 'Run "echo of the MCP server filesystem" of the MCP server "raw" (from test)');
  });

  it('two changes of the tool list whose first listing is answered last: the newest listing stays', async () => {
    const result = await tool('relist').run({}, toolContext());
    assert.equal(result.text, 'relisting');
    const names = () => hub.tools().map((candidate) => candidate.name);
    await waitFor(() => names().includes('raw__fresh_listing'), 5_000);
    // The first refresh's answer comes 1.5 s after it was asked for, after the second's: it must not replace it.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.ok(names().includes('raw__fresh_listing'), names().join(', '));
    assert.ok(!names().includes('raw__stale_listing'), 'the late answer to the older request was not kept');
  });

  it('a 3 MB stderr line is cut before the log holds it', async () => {
    const result = await tool('loud').run({}, toolContext());
    assert.equal(result.text, 'loud done');
    const deadline = Date.now() + 5_000;
    while (!logged.some((line) => line.includes('line cut at')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const line = logged.find((entry) => entry.includes('line cut at'));
    assert.ok(line, 'the long line was logged, cut');
    assert.ok(line.length < STDERR_LINE_CHARS + 100, `${line.length} characters`);
    assert.ok(logged.every((entry) => entry.length < STDERR_LINE_CHARS + 100), 'no line longer');
    const tail = hub.statuses()[0]?.stderrTail ?? [];
    assert.ok(tail.every((entry) => entry.length < STDERR_LINE_CHARS + 100));
  });

  it('a reply too large to read is said to be, and the server restarts each time (it did not crash)', async () => {
    for (const attempt of [1, 2]) {
      const result = await tool('huge').run({}, toolContext());
      assert.equal(result.isError, true);
      assert.match(result.text, /MCP server "raw" answered "huge" with more than 10 MB, more than Tandem reads; .*Ask the tool for less/, `attempt ${attempt}: ${result.text.slice(0, 300)}`);
      assert.doesNotMatch(result.text, /x{100}/, 'no stderr of an earlier call quoted');
      await waitFor(() => hub.statuses()[0]?.state === 'connected', 10_000, `restarted after attempt ${attempt}`);
    }
    assert.ok(!logged.some((line) => line.includes('not restarting it automatically')), 'not counted as a crash loop');
    assert.equal((await tool('odd_block').run({}, toolContext())).isError, false, 'the restarted server works');
  });

  it('a server that exits mid-call without a word quotes none of what it wrote for earlier calls', async () => {
    const result = await tool('die').run({}, toolContext());
    assert.equal(result.isError, true);
    assert.equal(result.text, 'MCP server "raw" stopped during the call to "die".');
  });

  it('a reply that is not valid MCP (result: null) times out saying what came instead of "did not answer"', async () => {
    const slowHub = new McpHub({ defaultTimeoutMs: 800 });
    try {
      await slowHub.update([stdioServer('raw', [RAW_SERVER])]);
      const nullResult = slowHub.tools().find((candidate) => candidate.name === 'raw__null_result');
      assert.ok(nullResult);
      const result = await nullResult.run({}, toolContext());
      assert.equal(result.isError, true);
      assert.match(result.text, /^MCP server "raw" sent no reply to "null_result" that Tandem could read within 0\.8 s; meanwhile it sent a message that is not valid MCP \(.+; the Tandem log has the details\)\.$/);
    } finally {
      await slowHub.dispose();
    }
  });

  it('a server behind a wrapper that does not pass signals on ends with it (the SDK stops only the wrapper)', { skip: process.platform === 'win32' }, async () => {
    const wrapped = new McpHub({ defaultTimeoutMs: 5_000 });
    let pid: number | undefined;
    try {
      // Two commands, so bash stays as the parent instead of exec-ing node.
      await wrapped.update([stdioServer('wrapped', ['-c', `"${process.execPath}" "${RAW_SERVER}"; true`], { command: 'bash', env: { RAW_LINGER: '1' } })]);
      const status = wrapped.statuses()[0];
      assert.equal(status?.state, 'connected', status?.error);
      pid = Number(/raw fixture ready \(pid (\d+)\)/.exec((status?.stderrTail ?? []).join('\n'))?.[1]);
      assert.ok(isAlive(pid), `the server runs (pid ${pid})`);
    } finally {
      await wrapped.dispose();
    }
    // SIGKILL is sent by the end of dispose(); the process is gone once the kernel has reaped it.
    try {
      await waitFor(() => !isAlive(pid!), 3_000, `the server (pid ${pid}) to end, not be left running`);
    } finally {
      // Left running, it would hold this test process open: end it here either way.
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('an MCP server that dies listing its tools', () => {
  it('is said to have closed the connection while listing, not during the handshake, with its stderr', async () => {
    const hub = new McpHub({ startTimeoutMs: 5_000 });
    try {
      await hub.update([stdioServer('lister', [RAW_SERVER], { env: { RAW_CRASH_ON_LIST: '1' } })]);
      const status = hub.statuses()[0];
      assert.equal(status?.state, 'error');
      assert.match(status?.error ?? '', /^The server closed the connection after the handshake, while Tandem listed its tools; its output: raw fixture: cannot load the tool registry/);
    } finally {
      await hub.dispose();
    }
  });
});
