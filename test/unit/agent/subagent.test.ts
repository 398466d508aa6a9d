// run_subagent through the real loop and SDK against the scripted server: the
// subagent is a fresh run on the task alone with the workspace's reads only,
// its steps reach the caller's step as progress and summary, its report is
// the call's result, its model calls count in the run's usage, its reads ask
// through the run's gate under a policy that asks, and Stop ends it.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import type { RunUsage, ToolProgressPayload, ToolStatusPayload } from '../../../src/protocol/agentEvents';
import { SUBAGENT_TOOL, subagentPrompt } from '../../../src/agent/subagentTool';
import { customValues, runScripted, settingsFor } from './agentTestSupport';
import { perTestWorkspace, type Kit } from '../tools/workspaceTestKit';

const each = perTestWorkspace();

function workspace(): Kit {
  const kit = each.kit();
  writeFileSync(path.join(kit.root, 'notes.txt'), 'Ship on Friday.\n');
  return kit;
}

const TASK = 'Find when we ship. Report the file and line.';
const toolNames = (request: { tools?: { function: { name: string } }[] } | undefined) => (request?.tools ?? []).map((tool) => tool.function.name).sort();
const toolMessages = (request: { messages: { role: string; tool_call_id?: string; content: string }[] } | undefined) =>
  (request?.messages ?? []).filter((message) => message.role === 'tool').map((message) => [message.tool_call_id, message.content]);

describe('run_subagent', () => {
  it('runs the task alone with the reads only, and the caller gets its report, steps and usage', async () => {
    const { tools } = workspace();
    const server = await each.serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: TASK } }], usage: { prompt_tokens: 100, completion_tokens: 10 } },
        // The subagent's own run: a read, enough, its report.
        { model: 'fc-model', toolCalls: [{ id: 'read-1', name: 'read_file', arguments: { path: 'notes.txt' } }], usage: { prompt_tokens: 50, completion_tokens: 5 } },
        { model: 'fc-model', content: 'Found it.', usage: { prompt_tokens: 60, completion_tokens: 3 } },
        { model: 'answer-model', content: 'notes.txt line 1: "Ship on Friday."', usage: { prompt_tokens: 70, completion_tokens: 9 } },
        // The caller again.
        { model: 'fc-model', content: 'Enough.', usage: { prompt_tokens: 120, completion_tokens: 2 } },
        { model: 'answer-model', content: 'We ship on Friday (notes.txt, line 1).', usage: { prompt_tokens: 200, completion_tokens: 12 } },
      ],
    });
    const asked: unknown[] = [];
    const run = await runScripted(settingsFor(server, { subagents: true }), {
      tools,
      messages: [{ role: 'user', content: 'When do we ship?' }],
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });
    assert.equal(run.error, undefined);
    assert.equal(run.result?.answer, 'We ship on Friday (notes.txt, line 1).');
    assert.equal(server.remaining(), 0);
    assert.deepEqual(asked, [], 'nothing asked under the default policy: the subagent only reads');

    // The caller is offered the subagent; the subagent gets the reads only and the task alone.
    const [caller, subFirst] = server.requests;
    assert.ok(toolNames(caller).includes(SUBAGENT_TOOL));
    const subTools = toolNames(subFirst);
    assert.ok(subTools.includes('read_file') && subTools.includes('search_text'), subTools.join());
    for (const name of [SUBAGENT_TOOL, 'update_todo_list', 'write_file', 'edit_file', 'run_command', 'fetch_url']) assert.ok(!subTools.includes(name), `${name} not offered to the subagent`);
    const subUsers = subFirst!.messages.filter((message: { role: string }) => message.role === 'user').map((message: { content: string }) => message.content);
    assert.deepEqual(subUsers, [subagentPrompt(TASK)], 'the task is its only user message: none of the conversation');

    // The report is the call's result, with the steps that led to it.
    assert.deepEqual(toolMessages(server.requests[4]), [['sub-1', `The subagent's report (1 tool call: read_file notes.txt):\n\nnotes.txt line 1: "Ship on Friday."`]]);

    // The panel: progress as each step starts, then the steps in the summary; none of the subagent's own events.
    const progress = customValues<ToolProgressPayload>(run.events, 'tandem.toolProgress');
    assert.deepEqual(progress.map((each) => [each.toolCallId, each.message]), [['sub-1', 'step 1: read_file notes.txt']]);
    const statuses = customValues<ToolStatusPayload>(run.events, 'tandem.toolStatus');
    assert.deepEqual(statuses.map((status) => [status.toolName, status.status, status.summary]), [[SUBAGENT_TOOL, 'done', { kind: 'subagent', steps: [{ tool: 'read_file', subject: 'notes.txt', status: 'done' }] }]]);
    const started = run.events.filter((event) => event.type === EventType.TOOL_CALL_START).map((event) => event['toolCallName']);
    assert.deepEqual(started, [SUBAGENT_TOOL]);

    // Its calls count in the run's usage, and the usage box hears of them as they happen.
    const usages = customValues<RunUsage>(run.events, 'tandem.usage');
    const final = usages.at(-1)!;
    assert.equal(final.functionCall.calls, 4);
    assert.equal(final.functionCall.promptTokens, 100 + 50 + 60 + 120);
    assert.equal(final.answer.calls, 2);
    assert.equal(final.answer.completionTokens, 9 + 12);
    assert.ok(usages.some((usage) => usage.answer.calls === 1 && usage.functionCall.calls === 3), 'the subagent\'s report counted before the caller went on');
  });

  it('is not offered when the setting is off', async () => {
    const { tools } = workspace();
    const server = await each.serve({ turns: [{ model: 'fc-model', content: 'Enough.' }, { model: 'answer-model', content: 'Done.' }] });
    for (const subagents of [false, undefined]) {
      server.push({ model: 'fc-model', content: 'Enough.' }, { model: 'answer-model', content: 'Done.' });
      await runScripted(settingsFor(server, { subagents }), { tools });
    }
    assert.ok(server.requests.filter((request) => request.model === 'fc-model').every((request) => !toolNames(request).includes(SUBAGENT_TOOL)));
    // Nor with nothing to read.
    server.push({ model: 'fc-model', content: 'Enough.' }, { model: 'answer-model', content: 'Done.' });
    await runScripted(settingsFor(server, { subagents: true }), { tools: [] });
    assert.deepEqual(toolNames(server.requests.at(-2)), []);
  });

  it('asks before each read under a policy that asks, on the caller\'s step, and reports a refusal', async () => {
    const { tools } = workspace();
    const server = await each.serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: TASK } }] },
        { model: 'fc-model', toolCalls: [{ id: 'read-1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { model: 'fc-model', content: 'I was not allowed to read it.' },
        { model: 'answer-model', content: 'Could not read notes.txt.' },
        { model: 'fc-model', content: 'Enough.' },
        { model: 'answer-model', content: 'I could not find out.' },
      ],
    });
    const asked: { toolName: string; toolCallId?: string }[] = [];
    const run = await runScripted(settingsFor(server, { subagents: true, autoApprove: 'none' }), {
      tools,
      approve: (request) => {
        const { toolName, toolCallId } = request as { toolName: string; toolCallId?: string };
        asked.push({ toolName, toolCallId });
        return toolName === SUBAGENT_TOOL;
      },
    });
    assert.equal(run.error, undefined);
    assert.deepEqual(asked, [
      { toolName: SUBAGENT_TOOL, toolCallId: 'sub-1' },
      { toolName: 'read_file', toolCallId: 'sub-1' },
    ]);
    const status = customValues<ToolStatusPayload>(run.events, 'tandem.toolStatus')[0];
    assert.deepEqual(status?.summary, { kind: 'subagent', steps: [{ tool: 'read_file', subject: 'notes.txt', status: 'rejected' }] });
    assert.match(String(toolMessages(server.requests[4])[0]?.[1]), /^The subagent's report \(1 tool call: read_file notes\.txt\):\n\nCould not read notes\.txt\.$/);
  });

  it('says in its report that it stopped at its limit', async () => {
    const { tools } = workspace();
    const server = await each.serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: TASK } }] },
        { model: 'fc-model', toolCalls: [{ id: 'list-1', name: 'list_dir', arguments: { path: '.' } }] },
        // One round each: the subagent answers from its one listing, then the caller from the report.
        { model: 'answer-model', content: 'Only listed the folder.' },
        { model: 'answer-model', content: 'Partly found.' },
      ],
    });
    const run = await runScripted(settingsFor(server, { subagents: true, maxIterations: 1 }), { tools });
    assert.equal(run.error, undefined);
    assert.equal(run.result?.answer, 'Partly found.');
    const result = run.events.find((event) => event.type === EventType.TOOL_CALL_RESULT && event['toolCallId'] === 'sub-1');
    assert.match(String(result?.['content']), /^The subagent's report \(1 tool call: list_dir \.\):\n\nOnly listed the folder\.\n\nIt stopped early: .*1 iteration/s);
    // The caller's answer model reads the report among its findings.
    assert.ok(JSON.stringify(server.requests.at(-1)?.messages).includes('Only listed the folder.'));
  });

  it('ends its search with a quarter of the caller\'s time left, and reports', async () => {
    const { tools } = workspace();
    const server = await each.serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: TASK } }] },
        // Slower than the subagent's 2-3 s (three quarters of what is left of the caller's 4, whole seconds): its limit cuts this request.
        { model: 'fc-model', content: 'Still looking.', firstByteDelayMs: 3_600 },
        { model: 'answer-model', content: 'Ran out of time before finding it.' },
        { model: 'fc-model', content: 'Enough.' },
        { model: 'answer-model', content: 'Unknown.' },
      ],
    });
    const run = await runScripted(settingsFor(server, { subagents: true, maxExecutionSeconds: 4 }), { tools });
    assert.equal(run.error, undefined);
    const result = run.events.find((event) => event.type === EventType.TOOL_CALL_RESULT && event['toolCallId'] === 'sub-1');
    assert.match(String(result?.['content']), /^The subagent's report \(no tool calls\):\n\nRan out of time before finding it\.\n\nIt stopped early: .*time limit of [23] s/s);
    assert.equal(customValues<ToolStatusPayload>(run.events, 'tandem.toolStatus')[0]?.status, 'done', 'the report reached the caller before its own limit');
    await server.idle();
  });

  it('a subagent whose model fails is a failed call, and the caller goes on', async () => {
    const { tools } = workspace();
    const server = await each.serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: TASK } }] },
        { model: 'fc-model', fault: { kind: 'status', status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided.' } }) } },
        { model: 'fc-model', content: 'The subagent could not run.' },
        { model: 'answer-model', content: 'I could not find out.' },
      ],
    });
    const run = await runScripted(settingsFor(server, { subagents: true }), { tools });
    assert.equal(run.error, undefined, 'the caller\'s run goes on');
    assert.equal(run.result?.answer, 'I could not find out.');
    const status = customValues<ToolStatusPayload>(run.events, 'tandem.toolStatus')[0];
    assert.equal(status?.status, 'failed');
    const result = run.events.find((event) => event.type === EventType.TOOL_CALL_RESULT && event['toolCallId'] === 'sub-1');
    assert.match(String(result?.['content']), /^Error: the subagent failed after no tool calls: .*Incorrect API key/s);
  });

  it('ends with the run when the user stops it mid-task', async () => {
    const { tools } = workspace();
    const server = await each.serve({
      turns: [
        { model: 'fc-model', toolCalls: [{ id: 'sub-1', name: SUBAGENT_TOOL, arguments: { task: TASK } }] },
        { model: 'fc-model', content: 'Thinking for a long time.', firstByteDelayMs: 10_000 },
      ],
    });
    const stop = new AbortController();
    const began = Date.now();
    const run = await runScripted(settingsFor(server, { subagents: true }), {
      tools,
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === EventType.CUSTOM && event['name'] === 'tandem.toolStarted') setTimeout(() => stop.abort(), 100);
      },
    });
    assert.ok(Date.now() - began < 5_000, 'Stop does not wait for the subagent\'s model');
    assert.equal(run.error, undefined);
    assert.equal(run.result?.stopReason, 'cancelled');
    await server.idle();
  });
});
