// Keeps every request of a run inside its model's window. Before a request:
// when it nears the window (over 85% of what the window leaves after the
// reply's reserved tokens) the older turns are condensed by the answer model
// into a summary. When the server still says the request is too long, the
// conversation is condensed as far as it goes and the request is sent once
// more; if that fails too, the error says plainly that it does not fit.
import type { ChatMessage, ChatModel, ModelSettings, ToolSchema } from '../models/chatModel';
import type { ContextWindow } from '../models/contextWindow';
import { RequestTokenCounter, type TokenCount } from '../models/tokenCounter';
import { ContextOverflowError, isCancellation, ModelApiError } from '../common/errors';
import { CustomEventName, type CondensedPayload, type ModelRole } from '../protocol/agentEvents';
import { summaryMessage } from '../protocol/conversationHistory';
import { condenseRequest, planCondense, transcriptOf } from './condensePlan';
import type { RunWindows } from './contextMeter';
import { SMALLEST_OLLAMA_WINDOW } from '../models/ollamaWindow';
import { runModelTurn } from './modelTurn';
import type { RunEmitter } from './runEmitter';
import type { UsageTracker } from './usageTracker';

/** Condense when a request passes this share of what the window leaves for it. */
export const NEAR_WINDOW = 0.85;

export interface ContextBudgetOptions {
  readonly models: Readonly<Record<ModelRole, ModelSettings>>;
  readonly windows: RunWindows;
  /** Writes the summaries: the answer model. */
  readonly summarizer: ChatModel;
  readonly emitter: RunEmitter;
  readonly usage?: UsageTracker | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

/** Tokens kept free for the reply: the model's maxTokens, else an eighth of the window (at most 4096). */
export function reservedTokens(settings: ModelSettings, window: number): number {
  return settings.maxTokens && settings.maxTokens > 0 ? settings.maxTokens : Math.min(4096, Math.floor(window / 8));
}

/** The request size above which a request is condensed first. */
export function condenseThreshold(settings: ModelSettings, window: ContextWindow): number {
  return Math.floor(NEAR_WINDOW * Math.max(0, window.tokens - reservedTokens(settings, window.tokens)));
}

export class ContextBudget {
  private readonly counters: Record<ModelRole, RequestTokenCounter>;
  private conversationNow: readonly ChatMessage[];
  private readonly task: ChatMessage | undefined;

  constructor(
    private readonly options: ContextBudgetOptions,
    conversation: readonly ChatMessage[],
  ) {
    this.counters = { 'function-call': new RequestTokenCounter(options.models['function-call']), answer: new RequestTokenCounter(options.models.answer) };
    this.conversationNow = conversation;
    const last = conversation[conversation.length - 1];
    this.task = last?.role === 'user' ? last : undefined;
  }

  /** The run's conversation as later requests see it: earlier turns replaced by their summary once condensed. */
  get conversation(): readonly ChatMessage[] {
    return this.conversationNow;
  }

  /**
   * Sends a request through `call` so that it fits: condensed first when it
   * nears the window; condensed as far as it goes and sent once more when the
   * server says it is too long. `messages` is condensed in place, so the
   * caller's later requests build on the shorter list.
   */
  async request<T>(role: ModelRole, messages: ChatMessage[], tools: readonly ToolSchema[] | undefined, signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    await this.fit(role, messages, tools, signal);
    let overflow: ContextOverflowError;
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ContextOverflowError)) throw error;
      overflow = error;
    }
    // What condensing cannot shorten is too big already: say what, rather than pay for a summary that cannot help.
    const tooBig = await this.beyondCondensing(role, messages, tools);
    if (tooBig !== undefined) throw this.doesNotFit(role, overflow, tooBig);
    let condensed: boolean;
    try {
      condensed = await this.condense(role, messages, tools, signal, 'overflow', 1);
    } catch (error) {
      if (isCancellation(error)) throw error;
      throw this.doesNotFit(role, overflow, `condensing failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!condensed) throw this.doesNotFit(role, overflow, 'nothing older is left to condense');
    try {
      return await call();
    } catch (error) {
      if (error instanceof ContextOverflowError) throw this.doesNotFit(role, error, 'even after condensing');
      throw error;
    }
  }

  /**
   * Characters each of `count` tool findings may keep in the answer request
   * (at most `limit`), so that together they take at most 60% of what the
   * answer model's window leaves (at ~3 characters a token, to be safe): the
   * conversation and the reply need the rest. A summary cannot stand in for
   * findings, which are what the answer is written from; they are shortened
   * (head and tail kept) instead.
   */
  async findingLimit(count: number, limit: number): Promise<number> {
    if (count === 0) return limit;
    let window = this.options.windows.current('answer');
    if (window.source === 'fallback') window = await this.options.windows.settled('answer');
    const share = condenseThreshold(this.options.models.answer, window) * 0.6 * 3;
    return Math.max(1_000, Math.min(limit, Math.floor(share / count)));
  }

  /** Condenses `messages` when the request nears the window. */
  async fit(role: ModelRole, messages: ChatMessage[], tools: readonly ToolSchema[] | undefined, signal: AbortSignal): Promise<void> {
    const settings = this.options.models[role];
    const counter = this.counters[role];
    const bound = counter.upperBound({ messages, tools });
    let window = this.options.windows.current(role);
    // A guessed window, or a request that may be near it or past the least window Ollama gives: wait for what the endpoint reports.
    const guessed = window.source === 'fallback' || window.source === 'table';
    if (window.source === 'fallback' || bound > condenseThreshold(settings, window) || (guessed && bound > SMALLEST_OLLAMA_WINDOW)) {
      window = await this.options.windows.settled(role);
    }
    // Ollama has not loaded the model: load it first and condense to the window it gets (Ollama would cut the request silently).
    if (window.unloadedOnOllama && bound > SMALLEST_OLLAMA_WINDOW) window = await this.options.windows.load(role, signal);
    const threshold = condenseThreshold(settings, window);
    if (bound <= threshold) return; // far from the window: no need to tokenize
    const before = await counter.count({ messages, tools });
    if (before.tokens <= threshold) return;
    const tooBig = await this.beyondCondensing(role, messages, tools);
    if (tooBig !== undefined) {
      // Sent as it is: the count may be an estimate; an overflow comes back to request(), which says what is too big.
      this.options.log?.(`context: ${role} request ~${before.tokens} tokens; not condensing: ${tooBig}`);
      return;
    }
    this.options.log?.(`context: ${role} request ~${before.tokens} tokens > ${threshold} (window ${window.tokens}); condensing`);
    try {
      await this.condense(role, messages, tools, signal, 'nearWindow', 2, before);
    } catch (error) {
      if (isCancellation(error)) throw error;
      // Sent as it is: the server may still take it, and an overflow comes back here.
      this.options.emitter.notice('condense', 'warning', `Could not condense the conversation (${error instanceof Error ? error.message : String(error)}); sending it as it is.`);
    }
  }

  /** Replaces the older part of `messages` with a summary; false when nothing older is left. */
  private async condense(
    role: ModelRole,
    messages: ChatMessage[],
    tools: readonly ToolSchema[] | undefined,
    signal: AbortSignal,
    reason: CondensedPayload['reason'],
    keepExchanges: number,
    before?: TokenCount,
  ): Promise<boolean> {
    const plan = planCondense(messages, this.task, keepExchanges);
    if (!plan) return false;
    const counter = this.counters[role];
    const counted = before ?? (await counter.count({ messages, tools }));
    const summary = await summarize(this.options.summarizer, plan.older, this.summarizerChars(), signal, this.options.usage);
    const replacement = summaryMessage(summary);
    const original = [...messages];
    messages.splice(0, messages.length, ...plan.head, replacement, ...plan.kept);
    const after = await counter.count({ messages, tools });
    if (after.tokens >= counted.tokens) {
      // A summary no shorter than what it replaces would only lose the turns' own words.
      messages.splice(0, messages.length, ...original);
      this.options.log?.(`context: the summary (~${after.tokens} tokens in all) is no shorter than the turns it replaces (~${counted.tokens}); kept the turns`);
      return false;
    }
    this.conversationNow = plan.historyMessages > 0 ? [replacement, ...this.conversationNow.slice(plan.historyMessages)] : this.conversationNow;
    this.options.emitter.custom(CustomEventName.condensed, {
      role,
      model: this.options.summarizer.name,
      summary,
      messages: plan.older.length,
      historyMessages: plan.historyMessages,
      tokensBefore: counted.tokens,
      tokensAfter: after.tokens,
      estimated: counted.estimated,
      reason,
    } satisfies CondensedPayload);
    // The meter showed the request from before (or the one before an overflow): it shows the shorter one now, not after its reply.
    this.options.windows.showLocalCount(role, after.tokens, after.estimated);
    return true;
  }

  /**
   * Why no condensing can make `messages` fit, when that is so: what stays
   * verbatim (the instructions and rules, the latest message, the tool
   * definitions) is over what the window leaves for a request. Undefined when
   * condensing may help, or the window is only a guess.
   */
  private async beyondCondensing(role: ModelRole, messages: readonly ChatMessage[], tools: readonly ToolSchema[] | undefined): Promise<string | undefined> {
    const window = this.options.windows.current(role);
    if (window.source === 'fallback') return undefined;
    const plan = planCondense(messages, this.task, 0);
    const head = plan?.head ?? messages.filter((message) => message.role === 'system');
    const task = plan?.kept[0] ?? this.task;
    const counter = this.counters[role];
    const [instructions, message, toolTokens] = await Promise.all([
      counter.count({ messages: head }),
      counter.count({ messages: task ? [task] : [] }),
      tools?.length ? counter.count({ messages: [], tools }) : undefined,
    ]);
    const limit = window.tokens - reservedTokens(this.options.models[role], window.tokens);
    const floor = instructions.tokens + message.tokens + (toolTokens?.tokens ?? 0);
    if (floor <= limit) return undefined;
    const parts = [`the latest message ~${message.tokens}`, `the instructions and rules ~${instructions.tokens}`, ...(toolTokens ? [`the tool definitions ~${toolTokens.tokens}`] : [])];
    return `what no condensing shortens is ~${floor} tokens (${parts.join(', ')}), over the ~${limit} the window leaves for a request`;
  }

  /** How much transcript the answer model can read in one summary request. */
  private summarizerChars(): number {
    const settings = this.options.models.answer;
    const window = this.options.windows.current('answer');
    return summarizerChars(settings, window.tokens);
  }

  private doesNotFit(role: ModelRole, overflow: ContextOverflowError, why: string): ContextOverflowError {
    const settings = this.options.models[role];
    const window = this.options.windows.current(role);
    // One model for both phases has one setting: the function-call model's.
    const ownAnswerModel = this.options.models.answer !== this.options.models['function-call'];
    const key = role === 'answer' && ownAnswerModel ? 'tandem.answerModel.contextWindow' : 'tandem.functionCallModel.contextWindow';
    return new ContextOverflowError(
      `The conversation does not fit the context window of "${settings.model}" (${window.tokens} tokens, ${window.source === 'fallback' ? 'a guess' : `from the ${window.source}`}): ${why}. The server said: ${overflow.message}`,
      {
        status: overflow.status,
        retryable: false,
        attempts: overflow.attempts,
        cause: overflow,
        suggestion: `Start a new chat (Tandem: New Chat) or send a shorter message. If the model can hold more, raise its window on the server and set ${key} to match; or choose a model with a larger window.`,
      },
    );
  }
}

/** Characters of transcript that fit the answer model's window with room for its reply (about 3 a token, to be safe). */
export function summarizerChars(settings: ModelSettings, window: number): number {
  return Math.max(4_000, (window - reservedTokens(settings, window) - 1_000) * 3);
}

/** The answer model's summary of `older`. Throws when the call fails or the summary is empty. */
export async function summarize(model: ChatModel, older: readonly ChatMessage[], limitChars: number, signal: AbortSignal, usage?: UsageTracker): Promise<string> {
  const turn = await runModelTurn(model, { messages: condenseRequest(transcriptOf(older, limitChars)) }, signal, {
    onPartialUsage: (partial) => usage?.recordPartial('answer', partial),
  });
  usage?.recordCall('answer', turn, { meter: false });
  const summary = turn.content.trim();
  if (!summary) throw new ModelApiError(`"${model.name}" wrote an empty summary`, { retryable: false, attempts: turn.attempts });
  return summary;
}
