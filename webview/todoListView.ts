// The model's todo list (update_todo_list): as a checklist in the call's step,
// and as the plan above the prompt box, which follows the newest list while it
// has work left or a run goes.
import type { TodoItem } from '../src/tools/tool';

const MARK: Record<TodoItem['status'], string> = { completed: '✓', in_progress: '▸', pending: '○' };
const SPOKEN: Record<TodoItem['status'], string> = { completed: 'done', in_progress: 'in progress', pending: 'to do' };

/** `2 of 5 done · Write the tests`: the count, then what is in progress (or next). */
export function todoHeadline(items: readonly TodoItem[]): string {
  const done = items.filter((item) => item.status === 'completed').length;
  const current = items.find((item) => item.status === 'in_progress') ?? items.find((item) => item.status === 'pending');
  const count = `${done} of ${items.length} done`;
  return current === undefined ? count : `${count} · ${current.title}`;
}

export function todoChecklist(items: readonly TodoItem[]): HTMLElement {
  const list = document.createElement('ol');
  list.className = 'todo-list';
  list.dataset['testid'] = 'todo-list';
  for (const item of items) {
    const row = document.createElement('li');
    row.dataset['testid'] = 'todo-item';
    row.dataset['status'] = item.status;
    const mark = document.createElement('span');
    mark.className = 'todo-mark';
    mark.textContent = MARK[item.status] ?? MARK.pending;
    mark.setAttribute('aria-hidden', 'true');
    const title = document.createElement('span');
    title.className = 'todo-title';
    title.textContent = item.title;
    // The mark is a picture; a screen reader hears the state in words.
    const state = document.createElement('span');
    state.className = 'visually-hidden';
    state.textContent = ` (${SPOKEN[item.status] ?? SPOKEN.pending})`;
    row.append(mark, title, state);
    list.append(row);
  }
  return list;
}

export interface PlanView {
  readonly element: HTMLElement;
  /** The newest list of the conversation (undefined: none), and whether a run goes. */
  set(items: readonly TodoItem[] | undefined, running: boolean): void;
}

/** The plan above the prompt box: closed to one line, open to the whole list. */
export function createPlanView(): PlanView {
  const element = document.createElement('details');
  element.className = 'plan';
  element.dataset['testid'] = 'plan';
  element.hidden = true;
  const summary = document.createElement('summary');
  const label = document.createElement('span');
  label.className = 'plan-label';
  label.textContent = 'Plan';
  const headline = document.createElement('span');
  headline.className = 'plan-headline';
  headline.dataset['testid'] = 'plan-headline';
  summary.append(label, headline);
  element.append(summary);
  let shown = '';
  return {
    element,
    set(items, running) {
      const open = items?.some((item) => item.status !== 'completed') === true;
      // A finished plan stays while its run goes (the last tick is news), then steps aside.
      element.hidden = items === undefined || items.length === 0 || (!open && !running);
      if (element.hidden || items === undefined) return;
      const key = JSON.stringify(items);
      if (key === shown) return;
      shown = key;
      headline.textContent = todoHeadline(items);
      if (element.lastElementChild?.classList.contains('todo-list')) element.lastElementChild.remove();
      element.append(todoChecklist(items));
    },
  };
}
