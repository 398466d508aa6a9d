// What a run did that its answer may not say, for the models' next turn: the
// tools it used, what the user refused or undid, the files it changed and how
// it ended. The tool traffic itself stays in the run (conversationHistory.ts);
// without this record a follow-up question ("did that work?", "is the file
// still there?") met a history that knew nothing of a rejection, a Stop or a
// revert. Read from the stored event stream, so old conversations get it too.
import type { AgentEvent, ApprovalPayload, StopReason, ToolStatusPayload } from './agentEvents';
import { CustomEventName } from './agentEvents';
import type { TodoItem } from '../tools/tool';
import { todoLines } from '../tools/todoText';

/** Stops that end the tool phase before the model was done, as the record names them. */
const CUT_SHORT: Partial<Record<StopReason, string>> = {
  maxIterations: 'the iteration limit',
  timeLimit: 'the time limit',
  loopDetected: 'a repeated call',
  budget: 'the token or cost budget',
  mistakes: 'replies without a tool call',
};

/** At most this many names in one list of the record (files, rejections). */
const LIST_MAX = 10;

interface ToolUse {
  count: number;
  failed: number;
  rejected: number;
}

export class RunRecord {
  private readonly tools = new Map<string, ToolUse>();
  private readonly rejections: string[] = [];
  private readonly changed: string[] = [];
  private ending: string | undefined;
  /** The run's last todo list (update_todo_list), if it kept one. */
  private todos: readonly TodoItem[] | undefined;

  /** Notes a run event (most say nothing the record keeps). */
  add(event: AgentEvent): void {
    if (event.type === 'CUSTOM' && event['name'] === CustomEventName.toolStatus) {
      const status = event['value'] as Partial<ToolStatusPayload> | undefined;
      if (typeof status?.toolName !== 'string') return;
      const use = this.tools.get(status.toolName) ?? { count: 0, failed: 0, rejected: 0 };
      use.count++;
      if (status.status === 'failed') use.failed++;
      if (status.status === 'rejected') use.rejected++;
      this.tools.set(status.toolName, use);
      if (status.summary?.kind === 'todos' && Array.isArray(status.summary.items)) this.todos = status.summary.items;
    } else if (event.type === 'CUSTOM' && event['name'] === CustomEventName.approval) {
      const approval = event['value'] as Partial<ApprovalPayload> | undefined;
      // A card the run's end closed is not the user's refusal.
      if (approval?.status === 'rejected' && approval.reason === undefined && typeof approval.summary === 'string') {
        const note = typeof approval.note === 'string' && approval.note ? ` (saying: ${approval.note.length > 200 ? `${approval.note.slice(0, 200)}…` : approval.note})` : '';
        this.rejections.push(`${approval.summary}${note}`);
      }
    } else if (event.type === 'RUN_FINISHED') {
      const result = event['result'] as { stopReason?: StopReason; answer?: unknown } | undefined;
      if (result?.stopReason === 'cancelled') this.ending = typeof result.answer === 'string' && result.answer ? 'the user stopped it while it answered: the answer above is cut off there' : 'the user stopped it before it answered';
      else if (result?.stopReason !== undefined && result.stopReason in CUT_SHORT) this.ending = `its tool phase was cut short (${CUT_SHORT[result.stopReason]}) and it answered from what it had`;
    } else if (event.type === 'RUN_ERROR') {
      const message = typeof event['message'] === 'string' ? event['message'] : 'an error';
      this.ending = `it failed before it answered: ${message.length > 300 ? `${message.slice(0, 300)}…` : message}`;
    }
  }

  /** The files the run changed (the host's record, which comes after the run's end). */
  changedFiles(files: readonly string[]): void {
    this.changed.push(...files);
  }

  /** One line for the next user message, or undefined when there is nothing to say. `withEnding: false` leaves out how the run ended. */
  describe(withEnding = true): string | undefined {
    const parts: string[] = [];
    if (this.tools.size > 0) {
      const uses = [...this.tools].map(([name, use]) => {
        const notes = [use.rejected ? `${use.rejected} rejected by the user` : '', use.failed ? `${use.failed} failed` : ''].filter(Boolean);
        return `${name} ×${use.count}${notes.length ? ` (${notes.join(', ')})` : ''}`;
      });
      parts.push(`tools used: ${uses.join(', ')}`);
    }
    if (this.rejections.length > 0) parts.push(`the user rejected: ${list(this.rejections)}`);
    if (this.changed.length > 0) parts.push(`files changed: ${list(this.changed)}`);
    // An unfinished plan is where a "go on" picks up; a finished one says nothing the answer did not.
    const todos = this.todos ?? [];
    const open = todos.filter((item) => item.status !== 'completed').length;
    if (open > 0) parts.push(`its todo list ended with ${todos.length - open} of ${todos.length} completed: ${todoLines(todos).join('; ')}`);
    if (this.ending && withEnding) parts.push(this.ending);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
}

/** A revert between runs, as the next user message tells it. */
export function revertNote(files: readonly string[]): string {
  return `the user reverted the changes to ${list(files)}`;
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, LIST_MAX).join(', ');
  return items.length > LIST_MAX ? `${shown} and ${items.length - LIST_MAX} more` : shown;
}
