// Tool faults inside real runs (the openai SDK against the scripted server,
// real MCP servers over stdio, the real workspace tools on a temp folder):
// an MCP server that crashes mid-call, one that hangs, one whose tool list
// is broken; a 10 MB tool output; the hostile-path corpus written with an
// approver that says yes to everything; an approval nobody answers. Each run
// ends with an answer or a notice within its limit, the conversation stays
// intact and usable, and no file changes without approval.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import { MAX_CALLS_PER_REPLY } from '../../src/agent/callLimit';
import { createPolicyApprovalGate } from '../../src/agent/policyApprovalGate';
import type { Approver } from '../../src/agent/runApprovalGate';
import { eventLines } from '../../src/host/conversationLog';
import { McpHub } from '../../src/mcp/mcpHub';
import type { Tool } from '../../src/tools/tool';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedTurn } from '../fixtures/scriptedModelServer';
import { notices, settingsFor, toolStatuses } from '../unit/agent/agentTestSupport';
import { FAULT_SERVER, stdioServer } from '../unit/mcp/mcpTestSupport';
import { makeKit, makeTempDir, type Kit } from '../unit/tools/workspaceTestKit';
import { Conversation, snapshot } from './reliabilitySupport';

const BAD_SCHEMA_SERVER = path.join(__dirname, '../fixtures/mcp/badSchemaServer.mjs');
/** Says yes to anything but a file edit: MCP calls run, edits stay unapproved. */
const approveAllButEdits = createPolicyApprovalGate('readOnly', async (request) => request.kind !== 'edit');
const answerTurns = (answer: string): ScriptedTurn[] => [
  { model: 'fc-model', content: 'That is what I could find.' },
  { model: 'answer-model', content: answer },
];

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(turns: ScriptedTurn[]): Promise<ScriptedModelServer> {
  await server?.close();
  server = await startScriptedModelServer({ turns });
  return server;
}

async function until(check: () => boolean, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The next run of the same conversation works and carries every question. */
async function carriesOn(conversation: Conversation, tools: readonly Tool[]): Promise<void> {
  const model = await serve(answerTurns('Carrying on.'));
  const next = await conversation.ask('Anything else?', { settings: settingsFor(model), tools });
  assert.equal(next.kind, 'answer');
  // In order; a question whose run failed or was stopped shares its user turn with the next one on the wire.
  const sent = model.requests.at(-1)!.messages.filter((message: { role: string }) => message.role === 'user').map((message: { content: string }) => message.content).join('\n\n');
  let from = 0;
  for (const question of conversation.questions) {
    const at = sent.indexOf(question, from);
    assert.ok(at >= 0, `"${question}" was sent, after the questions before it: ${sent.slice(0, 300)}`);
    from = at + question.length;
  }
  await conversation.assertIntact();
}

describe('MCP servers that crash, hang or send a bad schema', () => {
  const hubLog: string[] = [];
  const hub = new McpHub({ restartDelayMs: 100, log: (line) => hubLog.push(line) });
  let kit: Kit;
  before(async () => {
    kit = makeKit();
    writeFileSync(path.join(kit.root, 'notes.md'), 'The release is on Tuesday.\n');
    await hub.update([stdioServer('fault', [FAULT_SERVER], { timeoutMs: 800 }), stdioServer('bad', [BAD_SCHEMA_SERVER])]);
  });
  after(async () => {
    await hub.dispose();
    kit.dispose();
  });

  for (const [name, toolName, pattern] of [
    ['a server that crashes mid-call', 'fault__crash', /stopped during the call/],
    ['a server that never answers', 'fault__hang', /did not answer "hang" within 0\.8 s/],
  ] as const) {
    it(`${name}: the call fails with a clear result, the run answers`, { timeout: 30_000 }, async () => {
      // After the crash case the hub restarts the server; its tools return when it is connected again.
      await until(() => hub.tools().some((tool) => tool.name === toolName), 15_000, `${toolName} offered`);
      const files = snapshot(kit.root);
      const conversation = new Conversation();
      const model = await serve([{ model: 'fc-model', toolCalls: [{ name: toolName, arguments: {} }] }, ...answerTurns('The server failed; here is what I know.')]);
      const tools = [...kit.tools, ...hub.tools()];
      assert.ok(tools.some((tool) => tool.name === toolName), `${toolName} is offered`);
      const outcome = await conversation.ask('Ask the server.', { settings: settingsFor(model), tools, approval: approveAllButEdits });
      assert.equal(outcome.kind, 'answer');
      const result = model.requests[1]!.messages.find((message: { role: string }) => message.role === 'tool')?.content as string;
      assert.match(result, pattern);
      assert.deepEqual(snapshot(kit.root), files);
      await carriesOn(conversation, [...kit.tools, ...hub.tools()]);
    });
  }

  it('a server whose tool list is broken: its tools are cleaned or left out, every request stays valid, the run answers', { timeout: 30_000 }, async () => {
    const status = hub.statuses().find((candidate) => candidate.name === 'bad');
    assert.ok(status, 'the bad server has a status');
    const offered = hub.tools().filter((tool) => tool.name.startsWith('bad__'));
    // The MCP SDK refuses the whole list; read tool by tool, the server still connects and only the nameless tool is left out.
    assert.equal(status.state, 'connected', status.error);
    assert.deepEqual(offered.map((tool) => tool.name).sort(), ['bad__boolean_subschemas', 'bad__deep', 'bad__echo', 'bad__props_not_a_map', 'bad__with_spaces___odd_name']);
    assert.deepEqual(offered.find((tool) => tool.name === 'bad__with_spaces___odd_name')?.parameters, { type: 'object', properties: { x: {} } }, 'an unknown type is dropped');
    assert.ok(hubLog.some((line) => /mcp "bad": its tool list does not match the MCP schema \(tools\.1\.inputSchema\.properties: expected record/.test(line)), hubLog.join('\n'));
    assert.ok(hubLog.includes('mcp "bad": tool 6 has no name; left out'), hubLog.join('\n'));
    for (const tool of offered) {
      assert.equal((tool.parameters as { type?: unknown }).type, 'object', `${tool.name} has an object schema`);
      assert.match(tool.name, /^[a-zA-Z0-9_-]{1,64}$/, `${tool.name} is a name the APIs accept`);
    }
    const conversation = new Conversation();
    const echo = offered.find((tool) => tool.name === 'bad__echo');
    const calls = echo ? [{ name: 'bad__echo', arguments: { text: 'hello' } }] : [{ name: 'read_file', arguments: { path: 'notes.md' } }];
    const model = await serve([{ model: 'fc-model', toolCalls: calls }, ...answerTurns('Done.')]);
    const outcome = await conversation.ask('Use the odd server.', { settings: settingsFor(model), tools: [...kit.tools, ...hub.tools()], approval: approveAllButEdits });
    assert.equal(outcome.kind, 'answer');
    for (const request of model.requests) {
      for (const tool of (request.tools ?? []) as { function: { name: string; parameters: { type?: unknown; properties?: unknown } } }[]) {
        assert.equal(tool.function.parameters.type, 'object');
        assert.equal(typeof tool.function.parameters.properties, 'object');
      }
    }
    await carriesOn(conversation, [...kit.tools, ...hub.tools()]);
  });
});

describe('workspace faults', () => {
  let kit: Kit;
  before(() => {
    kit = makeKit();
    writeFileSync(path.join(kit.root, 'notes.md'), 'The release is on Tuesday.\n');
  });
  after(() => kit.dispose());

  it('a 10 MB tool output is capped before it reaches the model, and the run answers', { timeout: 30_000 }, async () => {
    const huge: Tool = {
      name: 'dump',
      description: 'Prints a very large log.',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      source: { kind: 'workspace' },
      run: async () => ({ text: `start of the log\n${'x'.repeat(10 * 1024 * 1024)}\nend of the log: 3 errors` }),
    };
    const conversation = new Conversation();
    const model = await serve([{ model: 'fc-model', toolCalls: [{ name: 'dump', arguments: {} }] }, ...answerTurns('The log ends with 3 errors.')]);
    const outcome = await conversation.ask('What does the log say?', { settings: settingsFor(model), tools: [...kit.tools, huge] });
    assert.equal(outcome.kind, 'answer');
    for (const request of model.requests) assert.ok(JSON.stringify(request.messages).length < 200_000, 'no request carries the whole output');
    const result = model.requests[1]!.messages.find((message: { role: string }) => message.role === 'tool')?.content as string;
    assert.match(result, /^start of the log/);
    assert.match(result, /end of the log: 3 errors$/);
    assert.ok(eventLines(conversation.events).length < 1_000_000, 'the conversation as stored on disk does not keep 10 MB either');
    // Nor does the event the panel and AG-UI clients get: head and tail, and how much was left out.
    const shown = conversation.events.find((event) => event.type === 'TOOL_CALL_RESULT')?.['content'] as string;
    assert.ok(shown.length < 120_000, `the result event carries ${shown.length} characters`);
    assert.match(shown, /^start of the log/);
    assert.match(shown, /\[\.\.\. 10\d{6} characters left out/);
    assert.match(shown, /end of the log: 3 errors$/);
    await carriesOn(conversation, kit.tools);
  });

  it('the hostile-path corpus, written with an approver that says yes to everything, changes nothing', { timeout: 30_000 }, async () => {
    const container = makeTempDir('tandem-reliability-hostile-');
    const workspace = path.join(container, 'workspace');
    const outside = path.join(container, 'outside');
    mkdirSync(path.join(workspace, '.git'), { recursive: true });
    mkdirSync(path.join(workspace, 'nested'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'secret outside\n');
    writeFileSync(path.join(container, 'secret.txt'), 'secret next to the workspace\n');
    writeFileSync(path.join(workspace, 'notes.txt'), 'inside\n');
    writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
    symlinkSync(outside, path.join(workspace, 'link-out'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'link-file'));
    symlinkSync(path.join(outside, 'created-by-dangling.txt'), path.join(workspace, 'dangling'));
    symlinkSync(path.join(workspace, '.git'), path.join(workspace, 'link-git'));
    symlinkSync('../..', path.join(workspace, 'nested', 'up'));
    const hostileKit = makeKit({ folders: [workspace] });
    try {
      const corpus = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/hostile-paths.json'), 'utf8')) as { paths: { path: string }[] };
      const expand = (template: string) => template.replaceAll('{root}', workspace).replaceAll('{outside}', outside).replaceAll('{outsideName}', 'outside');
      const calls = corpus.paths.map((entry) => ({ name: 'write_file', arguments: { path: expand(entry.path), content: 'written by a hostile path' } }));
      const before = snapshot(container);
      const conversation = new Conversation();
      // As many replies as the corpus needs, each with as many calls as a reply may make.
      const replies = Array.from({ length: Math.ceil(calls.length / MAX_CALLS_PER_REPLY) }, (_, index) => ({
        model: 'fc-model',
        toolCalls: calls.slice(index * MAX_CALLS_PER_REPLY, (index + 1) * MAX_CALLS_PER_REPLY),
      }));
      const model = await serve([...replies, ...answerTurns('None of those paths could be written.')]);
      const outcome = await conversation.ask('Write everywhere.', {
        settings: settingsFor(model, { autoApprove: 'all' }),
        tools: hostileKit.tools,
        approval: createPolicyApprovalGate('all', async () => true),
        limitMs: 25_000,
      });
      assert.equal(outcome.kind, 'answer');
      assert.equal(toolStatuses(outcome.events).filter((status) => status.toolName === 'write_file').length >= calls.length, true, 'every call was reported');
      assert.deepEqual(snapshot(container), before, 'nothing inside or outside the workspace changed');
      await carriesOn(conversation, hostileKit.tools);
    } finally {
      hostileKit.dispose();
    }
  });

  it('an approval nobody answers keeps the run waiting (its clock stopped) until Stop, and the file stays as it was', { timeout: 30_000 }, async () => {
    const files = snapshot(kit.root);
    let asked = 0;
    const nobody: Approver = {
      ask: (_prompt, signal) => {
        asked++;
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      },
    };
    const conversation = new Conversation();
    const stop = new AbortController();
    const model = await serve([{ model: 'fc-model', toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'changed while nobody looked' } }] }, ...answerTurns('unused')]);
    let waitingSince = 0;
    const outcome = await conversation.ask('Rewrite the notes.', {
      // A one-second time limit: waiting on a person must not count against it.
      settings: settingsFor(model, { maxExecutionSeconds: 1, autoApprove: 'none' }),
      tools: kit.tools,
      approval: nobody,
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === EventType.CUSTOM && event['name'] === 'tandem.approval' && !waitingSince) {
          waitingSince = Date.now();
          setTimeout(() => stop.abort(), 2_000);
        }
      },
    });
    assert.equal(asked, 1);
    assert.ok(Date.now() - waitingSince >= 1_900, 'the run kept waiting past its one-second time limit');
    assert.equal(outcome.result?.stopReason, 'cancelled');
    assert.ok(notices(outcome.events).some((notice) => notice.code === 'cancelled'));
    assert.deepEqual(snapshot(kit.root), files, 'the unapproved edit was not applied');
    await carriesOn(conversation, kit.tools);
  });
});
