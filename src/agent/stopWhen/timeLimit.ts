// Stops when the run clock (agent time, not approval time) reached its limit.
import type { StopPredicate } from './loopState';

export function timeLimit(maxExecutionSeconds: number): StopPredicate {
  return (state) => {
    if (!state.timeUp) return undefined;
    const limit = `the time limit of ${maxExecutionSeconds} s (tandem.agent.maxExecutionSeconds)`;
    const reason = state.timeUpWhy === undefined ? `Reached ${limit}` : `Stopped at once rather than wait past ${limit}: ${state.timeUpWhy}`;
    return { stopReason: 'timeLimit', reason: `${reason}; answering from what was gathered.` };
  };
}
