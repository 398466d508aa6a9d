// One conversation that uses a workspace tool and an MCP tool (the real
// everything server over stdio) and answers from both, against the scripted model.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { startScriptedModelServer, type ScriptedModelServer } from '../../fixtures/scriptedModelServer';
import { EVERYTHING_SERVER, FAULT_SERVER, stdioServer } from '../mcp/mcpTestSupport';
import { USER_SETTINGS_SOURCE } from '../../../src/mcp/mcpServerTrust';
import { runAgent } from '../../../src/agent/runAgent';
import type { ApprovalPrompt } from '../../../src/agent/runApprovalGate';
import { SessionCache } from '../../../src/agent/sessionCache';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { makeKit, type Kit } from '../tools/workspaceTestKit';
import { customValues, runScripted, settingsFor, toolStatuses } from './agentTestSupport';

let hub: McpHub;
let kit: Kit;
let model: ScriptedModelServer;

before(async () => {
  hub = new McpHub();
  await hub.update([stdioServer('everything', [EVERYTHING_SERVER, 'stdio'])]);
  kit = makeKit();
  writeFileSync(path.join(kit.root, 'release.md'), 'The release is on Tuesday; Ada owns it.\n');
});

after(async () => {
  await model?.close();
  await hub.dispose();
  kit.dispose();
});

it('calls a workspace tool and an MCP tool in one run and answers from both', async () => {
  const echo = hub.tools().find((tool) => tool.name === 'everything__echo');
  assert.ok(echo, `the everything server's echo tool is listed (got ${hub.tools().map((tool) => tool.name).join(', ')})`);
  model = await startScriptedModelServer({
    turns: [
      {
        model: 'fc-model',
        content: 'I will read the notes and ask the echo server at the same time.',
        toolCalls: [
          { name: 'read_file', arguments: { path: 'release.md' } },
          { name: 'everything__echo', arguments: { message: 'ping from Tandem' } },
        ],
      },
      { model: 'fc-model', content: 'I have both.' },
      { model: 'answer-model', content: 'The release is on Tuesday (release.md:1), and the echo server answered.' },
    ],
  });
  const run = await runScripted(settingsFor(model), { tools: [...kit.tools, ...hub.tools()], approve: () => true });

  assert.equal(run.result?.stopReason, 'noToolCall');
  assert.deepEqual(
    toolStatuses(run.events).map((status) => [status.toolName, status.status]).sort(),
    [['everything__echo', 'done'], ['read_file', 'done']],
  );
  const toolMessages: string[] = model.requests[1]!.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.content);
  assert.ok(toolMessages.some((text) => /Tuesday; Ada owns it/.test(text)), 'the workspace result reached the model');
  assert.ok(toolMessages.some((text) => /ping from Tandem/.test(text)), 'the MCP result reached the model');
  const findings = model.requests.at(-1)!.messages[0].content as string;
  assert.equal(model.requests.at(-1)!.model, 'answer-model');
  assert.match(findings, /read_file\(.*release\.md/);
  assert.match(findings, /everything__echo\(.*ping from Tandem/);
  assert.match(findings, /Tuesday; Ada owns it/);
  const sources = customValues<{ toolName: string; source: string }>(run.events, 'tandem.toolStatus');
  assert.deepEqual(Object.fromEntries(sources.map((status) => [status.toolName, status.source])), { read_file: 'workspace', everything__echo: 'mcp:everything' });
});

it("a workspace's MCP server named like the user's own: the user's keeps the plain tool names and its always-allow entries; the workspace's asks, naming where it is from", async () => {
  const both = new McpHub();
  let scripted: ScriptedModelServer | undefined;
  try {
    await both.update([
      stdioServer('fault', [FAULT_SERVER], { source: '/w/.vscode/mcp.json' }),
      stdioServer('fault', [FAULT_SERVER], { source: USER_SETTINGS_SOURCE }),
    ]);
    const mine = both.tools().find((tool) => tool.name === 'fault__fail');
    const theirs = both.tools().find((tool) => tool.name === 'fault__fail_2');
    assert.ok(mine && theirs, both.tools().map((tool) => tool.name).join(', '));
    assert.equal(mine.approval?.alwaysAllowKey, undefined);
    assert.match(theirs.approval?.alwaysAllowKey ?? '', /^fault__fail_2@[0-9a-f]{12}$/);
    assert.equal(theirs.approval?.summary, 'Run "fail" of the MCP server "fault" (from /w/.vscode/mcp.json)');

    scripted = await startScriptedModelServer({
      turns: [
        { model: 'fc-model', toolCalls: [{ name: 'fault__fail', arguments: {} }] },
        { model: 'fc-model', toolCalls: [{ name: 'fault__fail_2', arguments: {} }] },
        { model: 'fc-model', content: 'Both tried.' },
        { model: 'answer-model', content: 'Done.' },
      ],
    });
    const asked: ApprovalPrompt[] = [];
    // The user always-allowed their server's tool, and (in another workspace, say) a tool of the same name.
    const settings = settingsFor(scripted, { autoApprove: 'readOnly', alwaysAllow: ['fault__fail', 'fault__fail_2'] });
    const events: AgentEvent[] = [];
    for await (const event of runAgent(
      { threadId: 't', runId: 'r', messages: [{ role: 'user', content: 'Try both.' }] },
      {
        functionCallModel: createChatModel(settings.functionCallModel),
        answerModel: createChatModel(settings.answerModel),
        tools: both.tools(),
        approval: { ask: async (prompt) => (asked.push(prompt), 'rejected') },
        settings,
        cache: new SessionCache(),
      },
      new AbortController().signal,
    )) events.push(event);
    assert.deepEqual(asked.map((prompt) => [prompt.tool, prompt.summary, prompt.alwaysAllowKey]), [
      ['fault__fail_2', 'Run "fail" of the MCP server "fault" (from /w/.vscode/mcp.json)', theirs.approval?.alwaysAllowKey],
    ]);
    assert.deepEqual(toolStatuses(events).map((status) => [status.toolName, status.status]), [['fault__fail', 'failed'], ['fault__fail_2', 'rejected']]);
  } finally {
    await scripted?.close();
    await both.dispose();
  }
});
