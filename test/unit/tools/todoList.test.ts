// update_todo_list: the list it keeps, the faults it reports, and a run that
// keeps one through the real loop and SDK against the scripted server: it
// runs unasked beside a read, the model reads back where it stands, the
// panel's event carries the whole list, the streaming view writes it, and a
// list left unfinished reaches the next turn in the run's record.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { historyMessages } from '../../../src/protocol/conversationHistory';
import type { AgentEvent, ToolStatusPayload } from '../../../src/protocol/agentEvents';
import { TODO_LIST_TOOL, TODO_MAX_ITEMS } from '../../../src/tools/todoListTool';
import { customValues, messageText, runScripted, settingsFor } from '../agent/agentTestSupport';
import { perTestWorkspace, type Kit } from './workspaceTestKit';

const each = perTestWorkspace();

function tools(): Kit {
  return each.kit();
}

describe('update_todo_list', () => {
  it('is offered with the workspace tools, read-only, and says where the list stands', async () => {
    const { tools: list, run } = tools();
    const tool = list.find((candidate) => candidate.name === TODO_LIST_TOOL);
    assert.ok(tool, 'offered beside the workspace tools');
    assert.equal(tool.readOnly, true);
    assert.equal(tool.network, undefined);

    const todos = [
      { title: 'Find the parser', status: 'completed' },
      { title: '  Add the flag  ', status: 'in_progress' },
      { title: 'Write a test', status: 'pending' },
    ];
    const result = await run(TODO_LIST_TOOL, { todos });
    assert.equal(result.isError, undefined);
    assert.equal(result.text, 'Todo list updated: 1 of 3 completed. In progress: Add the flag.');
    assert.deepEqual(result.summary, {
      kind: 'todos',
      items: [
        { title: 'Find the parser', status: 'completed' },
        { title: 'Add the flag', status: 'in_progress' },
        { title: 'Write a test', status: 'pending' },
      ],
    });

    assert.equal((await run(TODO_LIST_TOOL, { todos: [{ title: 'A', status: 'completed' }] })).text, 'Todo list updated: 1 of 1 completed. Every item is done.');
    assert.match((await run(TODO_LIST_TOOL, { todos: [{ title: 'A', status: 'pending' }] })).text, /None is in progress: mark the one you start next as in_progress\.$/);
    const two = await run(TODO_LIST_TOOL, { todos: [{ title: 'A', status: 'in_progress' }, { title: 'B', status: 'in_progress' }] });
    assert.match(two.text, /In progress: A; B\. Keep one item in progress at a time\.$/);
  });

  it('refuses a malformed list with a reason the model can act on', async () => {
    const { run } = tools();
    const cases: [unknown, RegExp][] = [
      [{}, /todos/],
      [{ todos: [] }, /todos/],
      [{ todos: [{ title: 'A', status: 'done' }] }, /status/],
      [{ todos: [{ title: '   ', status: 'pending' }] }, /title/],
      [{ todos: Array.from({ length: TODO_MAX_ITEMS + 1 }, (_, index) => ({ title: `Step ${index}`, status: 'pending' })) }, /todos/],
    ];
    for (const [args, field] of cases) {
      const result = await run(TODO_LIST_TOOL, args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(result.text, /^Error: invalid arguments for update_todo_list: /);
      assert.match(result.text, field, result.text);
      assert.equal(result.summary, undefined, 'no list for the panel from a refused call');
    }
  });

  it('runs unasked beside a read in one round, and an unfinished list reaches the next turn', async () => {
    const kitNow = tools();
    writeFileSync(path.join(kitNow.root, 'notes.txt'), 'Ship on Friday.\n');
    const first = [
      { title: 'Read the notes', status: 'in_progress' },
      { title: 'Summarise them', status: 'pending' },
    ];
    const second = [
      { title: 'Read the notes', status: 'completed' },
      { title: 'Summarise them', status: 'in_progress' },
    ];
    const server = await each.serve({
      turns: [
        {
          model: 'fc-model',
          toolCalls: [
            { id: 'plan-1', name: TODO_LIST_TOOL, arguments: { todos: first } },
            { id: 'read', name: 'read_file', arguments: { path: 'notes.txt' } },
          ],
        },
        { model: 'fc-model', toolCalls: [{ id: 'plan-2', name: TODO_LIST_TOOL, arguments: { todos: second } }] },
        { model: 'fc-model', content: 'Enough.' },
        { model: 'answer-model', content: 'The notes say: ship on Friday.' },
      ],
    });
    const asked: unknown[] = [];
    const run = await runScripted(settingsFor(server, { responseMode: 'streaming' }), {
      tools: kitNow.tools,
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });
    assert.equal(run.error, undefined);
    assert.equal(run.result?.answer, 'The notes say: ship on Friday.');
    assert.equal(asked.length, 0, 'nothing asked: the list and the read are both read-only');

    // The model reads back where the list stands, after each round.
    const toolMessages = (index: number) =>
      (server!.requests[index]?.messages ?? []).filter((message: { role: string }) => message.role === 'tool').map((message: { tool_call_id: string; content: string }) => [message.tool_call_id, message.content]);
    assert.deepEqual(toolMessages(1).find(([id]) => id === 'plan-1'), ['plan-1', 'Todo list updated: 0 of 2 completed. In progress: Read the notes.']);
    assert.deepEqual(toolMessages(2).find(([id]) => id === 'plan-2'), ['plan-2', 'Todo list updated: 1 of 2 completed. In progress: Summarise them.']);

    // The panel's event carries the whole list of each call.
    const lists = customValues<ToolStatusPayload>(run.events, 'tandem.toolStatus').filter((status) => status.toolName === TODO_LIST_TOOL);
    assert.deepEqual(lists.map((status) => [status.status, status.summary]), [
      ['done', { kind: 'todos', items: first }],
      ['done', { kind: 'todos', items: second }],
    ]);
    // Streaming mode writes the list under the result's message.
    assert.ok(messageText(run.events, 'toolResult').some((text) => text.includes('Todo list updated: 1 of 2 completed. In progress: Summarise them.\n[x] Read the notes\n[>] Summarise them')));

    // The next turn: the run's record carries the unfinished list.
    const userMessage = (text: string, runId: string): AgentEvent => ({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text, runId } }) as AgentEvent;
    const history = historyMessages([userMessage('Read my notes.', 'r1'), ...run.events, userMessage('Go on.', 'r2')]);
    const next = String(history.at(-1)?.content);
    assert.match(next, /its todo list ended with 1 of 2 completed: \[x\] Read the notes; \[>\] Summarise them/, next);
    assert.match(next, /Go on\.$/);
  });

  it('a finished list adds nothing to the next turn', async () => {
    const done = [{ title: 'Read the notes', status: 'completed' }];
    const events: AgentEvent[] = [
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Read.', runId: 'r1' } } as AgentEvent,
      { type: 'CUSTOM', name: 'tandem.toolStatus', value: { toolCallId: 'c', toolName: TODO_LIST_TOOL, status: 'done', durationMs: 1, source: 'workspace', summary: { kind: 'todos', items: done } } } as AgentEvent,
      { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Thanks.', runId: 'r2' } } as AgentEvent,
    ];
    const next = String(historyMessages(events).at(-1)?.content);
    assert.doesNotMatch(next, /todo list/);
    assert.match(next, /tools used: update_todo_list ×1/);
  });
});

describe('update_todo_list and the loop guard', () => {
  it('an unchanged list sent again beside each step is no loop: no warning, no cache, no stop', async () => {
    const kitNow = tools();
    writeFileSync(path.join(kitNow.root, 'a.txt'), 'A\n');
    writeFileSync(path.join(kitNow.root, 'b.txt'), 'B\n');
    writeFileSync(path.join(kitNow.root, 'c.txt'), 'C\n');
    const same = { todos: [{ title: 'Read the three files', status: 'in_progress' }] };
    const server = await each.serve({
      turns: [
        ...['a.txt', 'b.txt', 'c.txt'].map((file) => ({
          model: 'fc-model',
          toolCalls: [
            { name: TODO_LIST_TOOL, arguments: same },
            { name: 'read_file', arguments: { path: file } },
          ],
        })),
        { model: 'fc-model', content: 'Read them all.' },
        { model: 'answer-model', content: 'A, B and C.' },
      ],
    });
    const run = await runScripted(settingsFor(server), { tools: kitNow.tools });
    assert.equal(run.error, undefined);
    assert.equal(run.result?.answer, 'A, B and C.');
    assert.equal(run.result?.stopReason, 'noToolCall', 'the model stopped, not the loop guard');
    const statuses = customValues<ToolStatusPayload>(run.events, 'tandem.toolStatus').filter((status) => status.toolName === TODO_LIST_TOOL);
    assert.deepEqual(statuses.map((status) => status.status), ['done', 'done', 'done'], 'each ran, none from the cache');
    const warned = customValues<{ code: string }>(run.events, 'tandem.notice').filter((notice) => notice.code === 'loopWarning');
    assert.deepEqual(warned, []);
  });
});
