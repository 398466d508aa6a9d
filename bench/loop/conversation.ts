// The benchmark's conversation: five rounds of one tool call each against an
// instant scripted model, then a text reply. Every stack gets the same turns
// and the same tool; only the agent code between them differs.

import type { ScriptedTurn } from '../../test/fixtures/scriptedModelReplies';

export const ROUNDS = 5;
export const TOOL_NAME = 'lookup';
export const TOOL_DESCRIPTION = 'Looks a key up in the inventory table.';
export const TOOL_PARAMETERS = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'], additionalProperties: false } as const;
export const QUESTION = 'What do keys k0 to k4 hold?';

/** The tool's work: the same constant-time lookup for every stack. */
export function lookup(key: string): string {
  return `The value stored under ${key} is ${key.toUpperCase()}-${key.length * 7} (checked in the inventory table).`;
}

/** Words of each text reply in a short run (the cost per run) and a long one (the cost per chunk: the extra chunks of the long). */
export const SHORT_WORDS = 20;
export const LONG_WORDS = 2000;

/** The pace of the bench's paced replies (the panel bench's): a chunk per network read. */
export const PACED_TOKENS_PER_SECOND = 2000;

/** Words of the final reply; `long` makes the per-chunk cost measurable. */
export function replyText(words: number): string {
  return Array.from({ length: words }, (_, index) => `word${index}`).join(' ');
}

/**
 * Turns for one run: the tool rounds, then `replies` text replies (Tandem's
 * answer model asks once more). With `tokensPerSecond` the replies stream at
 * that pace, a chunk per network read as from a real model, instead of all at
 * once (where one read holds many chunks and the cost per read is shared).
 */
export function turnsForRun(replies: number, words: number, tokensPerSecond?: number): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    turns.push({ toolCalls: [{ name: TOOL_NAME, arguments: { key: `k${round}` } }], usage: { prompt_tokens: 100, completion_tokens: 10 } });
  }
  const pace = tokensPerSecond ? { tokensPerSecond } : {};
  for (let reply = 0; reply < replies; reply++) turns.push({ content: replyText(words), usage: { prompt_tokens: 200, completion_tokens: words }, ...pace });
  return turns;
}
