// Stops after `maxIterations` model calls: the hard cap that always holds.
import { MAX_ITERATIONS } from '../agentSettings';
import type { StopPredicate } from './loopState';

export function iterationLimit(maxIterations: number): StopPredicate {
  return (state) =>
    state.iteration > maxIterations
      ? { stopReason: 'maxIterations', reason: `Reached the limit of ${maxIterations} iteration${maxIterations === 1 ? '' : 's'} (tandem.agent.maxIterations${maxIterations < MAX_ITERATIONS ? `, which goes up to ${MAX_ITERATIONS}` : ''}); answering from what was gathered.` }
      : undefined;
}
