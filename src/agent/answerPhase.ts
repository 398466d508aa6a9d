// The answer phase: the answer model streams the final answer from the
// conversation and what the tool phase gathered. It always streams.
import type { ChatMessage, ChatModel } from '../models/chatModel';
import { CustomEventName, type RetryPayload } from '../protocol/agentEvents';
import { runModelTurn } from './modelTurn';
import type { RunEmitter, StreamedMessage } from './runEmitter';
import type { UsageTracker } from './usageTracker';

export interface AnswerPhaseContext {
  readonly model: ChatModel;
  readonly messages: readonly ChatMessage[];
  readonly emitter: RunEmitter;
  readonly usage: UsageTracker;
  readonly signal: AbortSignal;
}

/** Streams the answer; returns its text. Throws CancelledError on Stop and ModelApiError when the model fails. */
export async function runAnswerPhase(context: AnswerPhaseContext): Promise<string> {
  const { emitter, model } = context;
  const role = 'answer' as const;
  let thinking: StreamedMessage = emitter.reasoning(role, model.name);
  let answer: StreamedMessage = emitter.text('answer', role, model.name);
  try {
    const turn = await runModelTurn(model, { messages: context.messages }, context.signal, {
      onReasoning: (delta) => thinking.append(delta),
      onText: (delta) => answer.append(delta),
      onPartialUsage: (partial) => context.usage.recordPartial(role, partial),
      onRetry: (retry) => {
        thinking.close();
        answer.close();
        const discarded = [thinking, answer].filter((message) => message.text).map((message) => message.messageId);
        emitter.custom(CustomEventName.retry, { role, model: model.name, attempt: retry.attempt, delayMs: retry.delayMs, reason: retry.reason, discarded } satisfies RetryPayload);
        thinking = emitter.reasoning(role, model.name);
        answer = emitter.text('answer', role, model.name);
      },
    });
    context.usage.recordCall(role, turn);
    emitter.custom(CustomEventName.usage, context.usage.snapshot());
    return turn.content;
  } finally {
    thinking.close();
    answer.close();
  }
}
