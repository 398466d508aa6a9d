// Stops after too many unusable replies in a row.
import type { StopPredicate } from './loopState';

export const MISTAKE_LIMIT = 3;

export function mistakeLimit(limit = MISTAKE_LIMIT): StopPredicate {
  return (state) =>
    state.mistakes >= limit
      ? { stopReason: 'mistakes', reason: `The model made ${state.mistakes} unusable replies in a row (limit ${limit}); answering from what was gathered.` }
      : undefined;
}
