// What the stop predicates look at between two rounds of the tool phase, and
// what they return. Each predicate is a small pure function in its own file;
// the loop asks them in order and stops at the first decision.
import type { NoticeCode, StopReason } from '../../protocol/agentEvents';

export interface LoopState {
  /** The iteration about to start (1-based). */
  readonly iteration: number;
  /** Unusable replies in a row (malformed, truncated, or without a tool call under `remind`). */
  readonly mistakes: number;
  /** The run clock reached `maxExecutionSeconds`. */
  readonly timeUp: boolean;
  /** Why the time is up before the clock ran out (a wait that would outlast it), if so. */
  readonly timeUpWhy?: string | undefined;
  /** Tokens (prompt + completion, partial attempts included) spent in this run so far. */
  readonly tokensUsed: number;
  /** Cost of the run so far in USD; undefined when unknown. */
  readonly costUsd: number | undefined;
  /** A tool call the loop guard says must not run again, if any. */
  readonly repeatedCall: string | undefined;
}

export interface StopDecision {
  readonly stopReason: StopReason;
  /** Why, in words for the user. */
  readonly reason: string;
  /** Shown as a notice in the panel too. */
  readonly notice?: { readonly code: NoticeCode; readonly text: string } | undefined;
}

export type StopPredicate = (state: LoopState) => StopDecision | undefined;

/** The first predicate that says stop, if any. */
export function firstStop(predicates: readonly StopPredicate[], state: LoopState): StopDecision | undefined {
  for (const predicate of predicates) {
    const decision = predicate(state);
    if (decision) return decision;
  }
  return undefined;
}
