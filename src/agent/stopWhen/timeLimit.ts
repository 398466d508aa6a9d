// Stops when the run clock (agent time, not approval time) reached its limit.
import type { StopPredicate } from './loopState';

export function timeLimit(maxExecutionSeconds: number): StopPredicate {
  return (state) =>
    state.timeUp
      ? { stopReason: 'timeLimit', reason: `Reached the time limit of ${maxExecutionSeconds} s (tandem.agent.maxExecutionSeconds); answering from what was gathered.` }
      : undefined;
}
