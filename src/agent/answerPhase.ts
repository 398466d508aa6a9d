// The answer phase: the answer model streams the final answer from the
// conversation and what the tool phase gathered. It always streams.
// A thinking model that put everything in its reasoning and wrote no answer
// is asked once, plainly, for the answer; how the reply ended (cut at the
// token limit, filtered) is returned so the run can say so.
import type { ChatMessage, ChatModel, ModelTurn } from '../models/chatModel';
import { CustomEventName, type RetryPayload } from '../protocol/agentEvents';
import { runModelTurn } from './modelTurn';
import type { RunEmitter, StreamedMessage } from './runEmitter';
import { showTextAsReasoning } from './reasoningFromText';
import type { UsageTracker } from './usageTracker';
import type { ContextBudget } from './contextBudget';
import { CancelledError, isCancellation } from '../common/errors';

export interface AnswerPhaseContext {
  readonly model: ChatModel;
  readonly messages: readonly ChatMessage[];
  readonly emitter: RunEmitter;
  readonly usage: UsageTracker;
  readonly signal: AbortSignal;
  /** Keeps the request inside the window (condenses older turns); absent: it goes as it is. */
  readonly budget?: ContextBudget | undefined;
}

export interface AnswerOutcome {
  readonly text: string;
  readonly finishReason: string | undefined;
  /** The model only reasoned, even after being asked for the answer. */
  readonly reasoningOnly: boolean;
}

/** Sent once when a reply held reasoning and no answer text. */
export const ANSWER_PLEASE =
  'You wrote your reasoning but no answer. Write the final answer for the user now, as plain text in your reply (not in your reasoning).';

/**
 * Stop while the answer streamed: what the user saw of it, so the
 * conversation keeps it (the next question may be about it).
 */
export class StoppedAnswer extends CancelledError {
  constructor(readonly shown: string) {
    super();
  }
}

/** Streams the answer; returns it. Throws CancelledError on Stop (StoppedAnswer once some of it was shown) and ModelApiError when the model fails. */
export async function runAnswerPhase(context: AnswerPhaseContext): Promise<AnswerOutcome> {
  // Condensed in place when it nears the window, so the follow-up below builds on the shorter list.
  const messages = [...context.messages];
  const turn = await streamAnswer(context, messages);
  if (turn.content.trim() || !turn.reasoning.trim()) return { text: turn.content, finishReason: turn.finishReason, reasoningOnly: false };
  const again = await streamAnswer(context, [...messages, { role: 'user', content: ANSWER_PLEASE }]);
  return { text: again.content, finishReason: again.finishReason, reasoningOnly: !again.content.trim() };
}

async function streamAnswer(context: AnswerPhaseContext, messages: ChatMessage[]): Promise<ModelTurn> {
  const { emitter, model } = context;
  const role = 'answer' as const;
  let thinking: StreamedMessage = emitter.reasoning(role, model.name);
  let answer: StreamedMessage = emitter.text('answer', role, model.name);
  try {
    const call = () => runModelTurn(model, { messages }, context.signal, {
      onReasoning: (delta) => thinking.append(delta),
      onText: (delta) => answer.append(delta),
      onTextWasReasoning: (reasoning) => {
        ({ thinking, text: answer } = showTextAsReasoning(emitter, role, model.name, { thinking, text: answer }, reasoning, () => emitter.text('answer', role, model.name)));
      },
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
    const turn = await (context.budget ? context.budget.request(role, messages, undefined, context.signal, call) : call());
    context.usage.recordCall(role, turn);
    emitter.custom(CustomEventName.usage, context.usage.snapshot());
    return turn;
  } catch (error) {
    if ((isCancellation(error) || context.signal.aborted) && answer.text.trim()) throw new StoppedAnswer(answer.text);
    throw error;
  } finally {
    thinking.close();
    answer.close();
  }
}
