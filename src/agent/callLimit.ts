// How many tool calls of one reply are made. A model caught in repetition can
// ask for hundreds of distinct calls in one reply (read file1 … file500):
// each would run, show a card and go back in the next request. So a reply
// gets its first MAX_CALLS_PER_REPLY calls made and is told of the rest; the
// calls left out are dropped from the reply as the history keeps it, so every
// call the model sees there has its result.
import type { PlannedCall } from './toolExecutor';

export const MAX_CALLS_PER_REPLY = 32;

export interface CallsToMake {
  readonly calls: readonly PlannedCall[];
  /** How many calls the reply asked for, when that is more than are made. */
  readonly asked: number | undefined;
}

export function callsToMake(calls: readonly PlannedCall[], limit = MAX_CALLS_PER_REPLY): CallsToMake {
  if (calls.length <= limit) return { calls, asked: undefined };
  return { calls: calls.slice(0, limit), asked: calls.length };
}

/** Appended to the last result the model reads. */
export function callsLeftOutNote(asked: number, made: number): string {
  return `Note: your reply asked for ${asked} tool calls; only the first ${made} were made (at most ${made} a reply), and the other ${asked - made} were not. Make the ones you still need in your next reply.`;
}

/** The user's words. */
export function callsLeftOutNotice(asked: number, made: number): string {
  return `The function-call model asked for ${asked} tool calls in one reply: the first ${made} were made, the other ${asked - made} were not (at most ${made} a reply), and the model was told so.`;
}
