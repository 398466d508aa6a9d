// Stops when the loop detector refused a repeated call.
import type { StopPredicate } from './loopState';

export function loopGuard(): StopPredicate {
  return (state) =>
    state.repeatedCall === undefined
      ? undefined
      : {
          stopReason: 'loopDetected',
          reason: `The model repeated ${state.repeatedCall} with the same arguments and nothing written in between; answering from what was gathered.`,
          notice: {
            code: 'loopDetected',
            text: `Stopped the tool phase: ${state.repeatedCall} was called again with the same arguments and nothing changed in between. Rephrase the question or switch to Chat mode if this keeps happening.`,
          },
        };
}
