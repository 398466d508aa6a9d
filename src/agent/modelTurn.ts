// Drives one streamed model call and hands its deltas to the caller's
// handlers; returns the finished turn. Kept apart from the loop so both
// phases share it.
import type { ChatModel, ModelDelta, ModelTurn, TokenUsage, TurnRequest } from '../models/chatModel';

export interface TurnHandlers {
  onReasoning?(delta: string): void;
  onText?(delta: string): void;
  /** The text streamed so far was reasoning: show `reasoning` (all of it) instead. */
  onTextWasReasoning?(reasoning: string): void;
  /** Partial output of the failed attempt is void. */
  onRetry?(delta: Extract<ModelDelta, { type: 'retry' }>): void;
  /** Tokens of a failed or aborted attempt. */
  onPartialUsage?(usage: TokenUsage): void;
  /** The reply began a tool call (its name is known; the arguments follow). */
  onToolCallStart?(): void;
}

export async function runModelTurn(model: ChatModel, request: TurnRequest, signal: AbortSignal, handlers: TurnHandlers): Promise<ModelTurn> {
  const stream = model.streamTurn(request, signal);
  for (;;) {
    const next = await stream.next();
    if (next.done) return next.value;
    const delta = next.value;
    switch (delta.type) {
      case 'reasoning':
        handlers.onReasoning?.(delta.delta);
        break;
      case 'text':
        handlers.onText?.(delta.delta);
        break;
      case 'textWasReasoning':
        handlers.onTextWasReasoning?.(delta.reasoning);
        break;
      case 'retry':
        handlers.onRetry?.(delta);
        break;
      case 'partialUsage':
        handlers.onPartialUsage?.(delta.usage);
        break;
      // Tool-call deltas are assembled by the client; the loop reports whole calls.
      case 'toolCallStart':
        handlers.onToolCallStart?.();
        break;
      case 'toolCallArgs':
        break;
    }
  }
}
