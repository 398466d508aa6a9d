// Stops after `maxIterations` model calls: the hard cap that always holds.
import type { StopPredicate } from './loopState';

export function iterationLimit(maxIterations: number): StopPredicate {
  return (state) =>
    state.iteration > maxIterations
      ? { stopReason: 'maxIterations', reason: `Reached the limit of ${maxIterations} iteration${maxIterations === 1 ? '' : 's'} (tandem.agent.maxIterations); answering from what was gathered.` }
      : undefined;
}
