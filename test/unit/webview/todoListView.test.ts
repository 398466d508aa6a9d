// The todo list in the panel, on happy-dom's DOM and the real view model: a
// run's update_todo_list calls (through the real loop, SDK and scripted
// server) become the conversation's plan, newest list first; a refused call
// leaves the plan alone; the step reads "N of M done · <current item>"; the
// plan above the prompt box shows while work is left or a run goes, and
// steps aside when it is all done; the transcript writes a task list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installDomGlobals, type DomGlobals } from './domGlobals';
import { runScripted, scriptedServers, settingsFor } from '../agent/agentTestSupport';
import { createTodoListTool, TODO_LIST_TOOL } from '../../../src/tools/todoListTool';
import type { TodoItem } from '../../../src/tools/tool';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { applyEvents } from '../../../webview/viewModel';
import { resultHeadline } from '../../../webview/stepText';
import { transcriptMarkdown } from '../../../webview/transcript';
import { createConversationView, type ToolResultStep } from '../../../webview/steps';
import type { createPlanView as CreatePlanView, todoChecklist as TodoChecklist } from '../../../webview/todoListView';

let dom: DomGlobals;
let createPlanView: typeof CreatePlanView;
let todoChecklist: typeof TodoChecklist;
const serve = scriptedServers();

const first: TodoItem[] = [
  { title: 'Find the parser', status: 'in_progress' },
  { title: 'Add the flag', status: 'pending' },
];
const second: TodoItem[] = [
  { title: 'Find the parser', status: 'completed' },
  { title: 'Add the flag', status: 'in_progress' },
];

/** The run's events, taken before the DOM globals go in (with them the SDK would think it runs in a browser). */
let events: readonly AgentEvent[];

before(async () => {
  const model = await serve([
    { model: 'fc-model', toolCalls: [{ name: TODO_LIST_TOOL, arguments: { todos: first } }] },
    { model: 'fc-model', toolCalls: [{ name: TODO_LIST_TOOL, arguments: { todos: second } }] },
    { model: 'fc-model', toolCalls: [{ name: TODO_LIST_TOOL, arguments: { todos: [{ title: 'Nope', status: 'maybe' }] } }] },
    { model: 'fc-model', content: 'Done.' },
    { model: 'answer-model', content: 'Added.' },
  ]);
  const run = await runScripted(settingsFor(model), { tools: [createTodoListTool()] });
  assert.equal(run.error, undefined);
  events = run.events;
  dom = installDomGlobals();
  ({ createPlanView, todoChecklist } = await import('../../../webview/todoListView'));
});
after(async () => {
  await dom.restore();
});

describe('the todo list in the panel', () => {
  it('follows the newest accepted list of a run, and each step reads where it stood', () => {
    const view = applyEvents(createConversationView(), events);

    assert.deepEqual(view.plan, second, 'the refused third call leaves the second list');
    const results = view.steps.filter((step): step is ToolResultStep => step.kind === 'tool-result');
    assert.deepEqual(results.map((step) => [step.state, resultHeadline(step)]), [
      ['done', '0 of 2 done · Find the parser'],
      ['done', '1 of 2 done · Add the flag'],
      ['failed', 'failed: invalid arguments for update_todo_list: todos.0.status: Invalid option: expected one of "pending"|"…'],
    ]);

    const transcript = transcriptMarkdown('Plan', events);
    assert.match(transcript, /\*\*Todo list\*\* — 1 of 2 done · Add the flag\n\n- \[x\] Find the parser\n- \[ \] Add the flag \(in progress\)/, transcript);
  });

  it('the checklist marks each item and says its state in words', () => {
    const list = todoChecklist(second);
    const rows = [...list.querySelectorAll<HTMLElement>('[data-testid="todo-item"]')];
    assert.deepEqual(rows.map((row) => row.dataset['status']), ['completed', 'in_progress']);
    assert.deepEqual(rows.map((row) => row.textContent), ['✓Find the parser (done)', '▸Add the flag (in progress)']);
    assert.equal(rows[0]?.querySelector('.todo-mark')?.getAttribute('aria-hidden'), 'true');
  });

  it('the plan shows while work is left or a run goes, and steps aside when all is done', () => {
    const plan = createPlanView();
    const headline = () => plan.element.querySelector('[data-testid="plan-headline"]')?.textContent;
    const items = () => [...plan.element.querySelectorAll<HTMLElement>('[data-testid="todo-item"]')].map((row) => row.dataset['status']);

    plan.set(undefined, true);
    assert.equal(plan.element.hidden, true, 'no list, no plan');

    plan.set(first, true);
    assert.equal(plan.element.hidden, false);
    assert.equal(headline(), '0 of 2 done · Find the parser');
    assert.deepEqual(items(), ['in_progress', 'pending']);

    plan.set(second, false);
    assert.equal(plan.element.hidden, false, 'work left after the run: it stays');
    assert.equal(headline(), '1 of 2 done · Add the flag');
    assert.deepEqual(items(), ['completed', 'in_progress'], 'one list, replaced');

    const done = second.map((item) => ({ ...item, status: 'completed' as const }));
    plan.set(done, true);
    assert.equal(plan.element.hidden, false, 'the last tick shows while the run goes');
    assert.equal(headline(), '2 of 2 done');
    plan.set(done, false);
    assert.equal(plan.element.hidden, true, 'all done and the run over: it steps aside');
  });
});
