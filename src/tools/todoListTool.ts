// update_todo_list: the model's plan for a task of several steps, kept where
// the user can see it. Each call sends the whole list, which replaces the
// last; the panel shows the newest list above the prompt box and each call's
// list in its step. It touches nothing, so it runs unasked, also in
// Restricted Mode. What a run left unfinished reaches the next turn through
// the run's record (runRecord.ts).
import { z } from 'zod';
import type { Tool, TodoItem, TodoStatus } from './tool';
import { todoListText } from './todoText';
import { defineWorkspaceTool } from './workspaceToolSupport';

export const TODO_LIST_TOOL = 'update_todo_list';
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const satisfies readonly TodoStatus[];
/** A plan longer than this is a list of chores, not a plan: the model is told to group them. */
export const TODO_MAX_ITEMS = 30;
export const TODO_TITLE_MAX = 200;

const input = z.object({
  todos: z
    .array(
      z.object({
        title: z.string().trim().min(1).max(TODO_TITLE_MAX).describe('What the step does, in a few words ("Add the --json flag to the CLI").'),
        status: z.enum(TODO_STATUSES).describe("'pending', 'in_progress' (the one you are on now) or 'completed'."),
      }),
    )
    .min(1)
    .max(TODO_MAX_ITEMS)
    .describe('The whole list, in order: it replaces the previous one.'),
});

export function createTodoListTool(): Tool {
  return defineWorkspaceTool({
    name: TODO_LIST_TOOL,
    description:
      'Keep a todo list for a task of several steps (changes across files, a feature, a fix with tests); the user sees it as your plan. ' +
      'Send the whole list each time: it replaces the last one. Mark one item in_progress while you work on it and completed as soon as it is done. ' +
      'Call it in the same reply as the tool calls it is about, not on its own. Skip it for a question or a one-step task.',
    readOnly: true,
    // An unchanged list sent again beside the next step's calls is progress, not a loop.
    repeatable: true,
    input,
    run: async (args) => {
      const items: TodoItem[] = args.todos.map((todo) => ({ title: todo.title, status: todo.status }));
      return { text: todoListText(items), summary: { kind: 'todos', items } };
    },
  });
}
