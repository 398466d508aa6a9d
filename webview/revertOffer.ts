// Which run's edits the revert bar offers: the latest run whose edits are
// still in place, not only the last run. A question answered without edits
// must not hide the edits of the run before it, and after one run is reverted
// the one before it can be reverted in turn, newest first, like an undo stack.
import type { ConversationView, RunEdits } from './steps';

export interface RevertOffer {
  readonly runId: string;
  readonly edits: RunEdits;
  /** The conversation's last run made these edits. */
  readonly latest: boolean;
  /** What the user asked in that run, to name an earlier run by. */
  readonly question: string | undefined;
}

export function revertOffer(view: Pick<ConversationView, 'edits' | 'steps' | 'runId' | 'running'>): RevertOffer | undefined {
  // A running run may still be editing the same files.
  if (view.running) return undefined;
  const runs = [...view.edits.entries()];
  for (let index = runs.length - 1; index >= 0; index--) {
    const [runId, edits] = runs[index]!;
    if (edits.reverted || edits.files.length === 0) continue;
    return { runId, edits, latest: runId === view.runId, question: runId === view.runId ? undefined : questionOf(view.steps, runId) };
  }
  return undefined;
}

/** The user's message that started `runId`: the last one before the run's first step. */
function questionOf(steps: ConversationView['steps'], runId: string): string | undefined {
  const first = steps.findIndex((step) => step.runId === runId);
  for (let index = first - 1; index >= 0; index--) {
    const step = steps[index]!;
    if (step.kind === 'user') return step.text;
  }
  return undefined;
}
