// A rough token count for servers that send no usage. About four characters
// a token holds for English text and JSON under the common BPE tokenizers;
// the result is always labelled `estimated` so nobody mistakes it for a bill.

import { withoutImageData } from './chatImages';
import type { TokenUsage } from './chatModel';

const CHARACTERS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return tokensInCharacters(text.length);
}

/** The estimate for text known only by its length (output counted as it streamed). */
export function tokensInCharacters(characters: number): number {
  return characters === 0 ? 0 : Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/** Prompt = the request as sent (messages and tools); completion = what came back. */
export function estimateUsage(request: { messages: unknown; tools?: unknown }, output: string): TokenUsage {
  // An image costs tokens by its size, not by its data URL's length.
  const messages = withoutImageData(request.messages);
  const prompt = messages.text + (request.tools === undefined ? '' : JSON.stringify(request.tools));
  return {
    promptTokens: estimateTokens(prompt) + messages.imageTokens,
    completionTokens: estimateTokens(output),
    cachedTokens: undefined,
    estimated: true,
  };
}

/** Which counts of one call are estimates: those named, else all when any is. */
export function callEstimatedCounts(usage: TokenUsage): { readonly prompt: boolean; readonly completion: boolean } {
  return usage.estimatedCounts ?? { prompt: usage.estimated, completion: usage.estimated };
}
