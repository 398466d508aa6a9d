// The narrow interface the agent loop speaks to a model through. The OpenAI
// SDK lives behind it (openAiChatModel.ts); the loop never sees wire types.

/** Where a model is served and how it is sampled. */
export interface ModelSettings {
  /** `openai` (default): any OpenAI-compatible endpoint at `baseUrl`; `vscode`: VS Code's language models (the host provides it). */
  readonly provider?: 'openai' | 'vscode' | undefined;
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string | undefined;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
  /** Tokens the model's window holds; 0 or absent = find out (contextWindow.ts). */
  readonly contextWindow?: number | undefined;
}

/** One tool call as the model asked for it; `arguments` is the raw JSON text. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** An image a tool returned (an MCP server's screenshot), base64 as the server sent it. */
export interface ChatImage {
  readonly mimeType: string;
  readonly data: string;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  /** `images` go after the text to a model that takes them (their text says they are there). */
  | { readonly role: 'user'; readonly content: string; readonly images?: readonly ChatImage[] | undefined }
  | { readonly role: 'assistant'; readonly content: string | null; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool as the model sees it: OpenAI function schema. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/**
 * Token counts of one call. A count the server did not send is `undefined`,
 * never a fake 0; `estimated` is true when any count was estimated locally
 * because the server did not send it.
 */
export interface TokenUsage {
  readonly promptTokens: number | undefined;
  readonly completionTokens: number | undefined;
  readonly cachedTokens: number | undefined;
  /** Of completionTokens, the model's reasoning (absent when the server does not say). */
  readonly reasoningTokens?: number | undefined;
  readonly estimated: boolean;
  /** Which counts were estimated when only some were (a server that sent one); absent: `estimated` says it for both. */
  readonly estimatedCounts?: { readonly prompt: boolean; readonly completion: boolean } | undefined;
}

/** What streams out of a model call while it runs. */
export type ModelDelta =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  | { readonly type: 'toolCallStart'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'toolCallArgs'; readonly index: number; readonly delta: string }
  /**
   * The text this attempt streamed so far was the model's reasoning (its
   * prompt opened a <think> the reply has now closed). Consumers drop the
   * text and the reasoning they showed and show `reasoning`: all of this
   * attempt's reasoning, that text included. Text after it is the reply's.
   */
  | { readonly type: 'textWasReasoning'; readonly reasoning: string }
  /**
   * The call failed and will be tried again after `delayMs`. Anything this
   * call streamed before is void: consumers drop their partial state.
   */
  | { readonly type: 'retry'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  /**
   * An attempt that failed or was aborted after the server had started
   * replying, or aborted after its request went out (Stop, the first-byte
   * bound): its tokens were spent, so they count (estimated, marked partial).
   */
  | { readonly type: 'partialUsage'; readonly usage: TokenUsage };

/** The finished result of one model call. */
export interface ModelTurn {
  readonly model: string;
  readonly content: string;
  readonly reasoning: string;
  readonly toolCalls: readonly ToolCall[];
  /** Tool calls the reply began (an id or arguments) without a tool name: not in `toolCalls`, which cannot run them. */
  readonly namelessToolCalls?: number;
  readonly finishReason: string | undefined;
  readonly usage: TokenUsage;
  /** Wall time of the call including retries, in milliseconds. */
  readonly durationMs: number;
  /** 1 when the first attempt succeeded. */
  readonly attempts: number;
}

export interface TurnRequest {
  readonly messages: readonly ChatMessage[];
  /** Omitted or empty: the model is called without tools. */
  readonly tools?: readonly ToolSchema[] | undefined;
  /** At most this many output tokens for this call (an MCP server's sampling limit); the model's own `maxTokens` still applies when smaller. */
  readonly maxTokens?: number | undefined;
}

/** The output-token limit of one call: the smaller of the model's setting and the request's own, each counted only when positive. */
export function callTokenLimit(settingMaxTokens: number | undefined, request: Pick<TurnRequest, 'maxTokens'>): number | undefined {
  const limits = [settingMaxTokens, request.maxTokens].filter((limit): limit is number => limit !== undefined && limit > 0);
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

export interface ChatModel {
  /** The model id as configured, e.g. `gpt-4o-mini`. */
  readonly name: string;
  /**
   * Streams one chat completion. Yields deltas while the model writes and
   * returns the finished turn. Throws `ModelApiError` once retries are spent
   * and `CancelledError` when `signal` aborts (the HTTP stream ends at once).
   */
  streamTurn(request: TurnRequest, signal: AbortSignal): AsyncGenerator<ModelDelta, ModelTurn, void>;
}
