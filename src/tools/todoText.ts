// How a todo list (update_todo_list) reads as text: the model's confirmation,
// and the lines the run's record and the streaming view write. Type imports
// only, so the agent core and the protocol may use it.
import type { TodoItem } from './tool';

/** What the model reads back: the count and where it stands, not the list it just sent. */
export function todoListText(items: readonly TodoItem[]): string {
  const done = items.filter((item) => item.status === 'completed').length;
  const current = items.filter((item) => item.status === 'in_progress');
  const head = `Todo list updated: ${done} of ${items.length} completed.`;
  if (done === items.length) return `${head} Every item is done.`;
  if (current.length === 0) return `${head} None is in progress: mark the one you start next as in_progress.`;
  const now = `In progress: ${current.map((item) => item.title).join('; ')}.`;
  return current.length > 1 ? `${head} ${now} Keep one item in progress at a time.` : `${head} ${now}`;
}

/** One line per item, as the run's record and the streaming view write a list: `[x] done`, `[>] in progress`, `[ ] pending`. */
export function todoLines(items: readonly TodoItem[]): string[] {
  return items.map((item) => `${item.status === 'completed' ? '[x]' : item.status === 'in_progress' ? '[>]' : '[ ]'} ${item.title}`);
}
