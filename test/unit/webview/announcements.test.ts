// What a screen reader hears during a real run (scripted model, the real
// loop): each step speaks once per change that matters, the thinking and the
// streamed answer never word by word, and a stored conversation says nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { runAgent } from '../../../src/agent/runAgent';
import type { Approver } from '../../../src/agent/runApprovalGate';
import { SessionCache } from '../../../src/agent/sessionCache';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { plainText, StepAnnouncer } from '../../../webview/announcements';
import { createConversationView, type ConversationView } from '../../../webview/steps';
import { applyEvent, applyEvents } from '../../../webview/viewModel';
import { fastRetry, scriptedServers, settingsFor, TableTool } from '../agent/agentTestSupport';
import { createTodoListTool } from '../../../src/tools/todoListTool';
import type { Tool } from '../../../src/tools/tool';

const serve = scriptedServers();

/** Runs the agent; after every event, renders as a frame would: each dirty step observed, then one flush. */
async function heardDuring(turns: Parameters<typeof serve>[0], approver: Approver, tools: readonly Tool[] = [new TableTool('store', { a: 'stored a' }, false)]): Promise<{ heard: string[]; events: AgentEvent[]; view: ConversationView }> {
  const settings = settingsFor(await serve(turns));
  const view = createConversationView();
  const heard: string[] = [];
  const announcer = new StepAnnouncer((text) => heard.push(text));
  const events: AgentEvent[] = [];
  const stream = runAgent(
    { threadId: 't', runId: randomUUID(), messages: [{ role: 'user', content: 'store a' }] },
    {
      functionCallModel: createChatModel(settings.functionCallModel, { retry: fastRetry }),
      answerModel: createChatModel(settings.answerModel, { retry: fastRetry }),
      tools,
      approval: approver,
      settings,
      cache: new SessionCache(),
    },
    new AbortController().signal,
  );
  for await (const event of stream) {
    events.push(event);
    applyEvent(view, event);
    for (const step of view.steps) if (view.dirty.has(step.id)) announcer.observe(step);
    view.dirty.clear();
    announcer.flush();
  }
  return { heard, events, view };
}

describe('what the panel says aloud', () => {
  it('a run with thinking, an approved call and a streamed answer: a few sentences, none word by word', async () => {
    const { heard } = await heardDuring(
      [
        { model: 'fc-model', reasoning: 'I should store the value a now, carefully.', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 'a' } }] },
        { model: 'fc-model', content: 'done' },
        { model: 'answer-model', content: 'Stored **a** in the [table](https://example.com/t).\n\n```ts\nconst a = 1;\n```\nAll done.' },
      ],
      { ask: async () => 'approved' },
    );
    assert.deepEqual(heard, ['Calling store.', 'Approval needed: Run store.', 'Answer: Stored a in the table. const a = 1; All done.']);
    assert.ok(!heard.some((text) => /should store/.test(text)), 'the thinking is not read');
    assert.equal(heard.filter((text) => text.startsWith('Answer:')).length, 1, 'the answer is read once, when complete');
  });

  it('a failing call says so; a rejected one leaves it to the card', async () => {
    const { heard } = await heardDuring(
      [
        { model: 'fc-model', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 5 } }] },
        { model: 'fc-model', toolCalls: [{ id: 'c2', name: 'store', arguments: { key: 'a' } }] },
        { model: 'fc-model', content: 'done' },
        { model: 'answer-model', content: 'Could not store.' },
      ],
      { ask: async (prompt) => (JSON.stringify(prompt).includes('"key":"a"') ? 'rejected' : 'approved') },
    );
    assert.deepEqual(heard, [
      'Calling store.',
      'Approval needed: Run store.',
      'store failed.',
      'Calling store.',
      'Approval needed: Run store.',
      'Answer: Could not store.',
    ]);
  });

  it('each new plan is read once, where it stands; its calls are not read as calls', async () => {
    const plan = (first: string, second: string) => ({ todos: [{ title: 'Find the parser', status: first }, { title: 'Add the flag', status: second }] });
    const { heard } = await heardDuring(
      [
        { model: 'fc-model', toolCalls: [{ id: 'p1', name: 'update_todo_list', arguments: plan('in_progress', 'pending') }] },
        { model: 'fc-model', toolCalls: [{ id: 'p2', name: 'update_todo_list', arguments: plan('completed', 'in_progress') }] },
        { model: 'fc-model', content: 'done' },
        { model: 'answer-model', content: 'Added.' },
      ],
      { ask: async () => 'approved' },
      [createTodoListTool()],
    );
    assert.deepEqual(heard, ['Plan: 0 of 2 done · Find the parser.', 'Plan: 1 of 2 done · Add the flag.', 'Answer: Added.']);
  });

  it('a stored conversation opened in the panel says nothing; what comes after it does', async () => {
    const { events } = await heardDuring(
      [
        { model: 'fc-model', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 'a' } }] },
        { model: 'fc-model', content: 'done' },
        { model: 'answer-model', content: 'Stored a.' },
      ],
      { ask: async () => 'approved' },
    );
    const heard: string[] = [];
    const announcer = new StepAnnouncer((text) => heard.push(text));
    const view = applyEvents(createConversationView(), events);
    announcer.hear(view.steps);
    for (const step of view.steps) announcer.observe(step);
    announcer.flush();
    assert.deepEqual(heard, []);
    applyEvents(view, [{ type: 'CUSTOM', name: 'tandem.notice', value: { code: 'mode', level: 'info', message: 'Chat mode: no tools.' } }] as AgentEvent[]);
    for (const step of view.steps) if (view.dirty.has(step.id)) announcer.observe(step);
    announcer.flush();
    assert.deepEqual(heard, ['Chat mode: no tools.']);
  });

  it('Markdown reads as text', () => {
    assert.equal(plainText('# Title\n\n- **bold** item with `code`\n1. [link](http://x) and ![img](y.png)\n> quoted'), 'Title bold item with code link and img quoted');
  });
});
