// ChatModel over the `openai` SDK, for any OpenAI-compatible base URL.
// The SDK is imported on first use so that activating the extension stays
// cheap. Its own retries are off: retryPolicy.ts decides, and each retry is
// announced to the consumer as a `retry` delta.

import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { CancelledError, ModelApiError } from '../common/errors';
import { IMAGES_NOT_SENT } from './chatImages';
import { callTokenLimit, type ChatModel, type ModelDelta, type ModelSettings, type ModelTurn, type TokenUsage, type TurnRequest } from './chatModel';
import { classifyFailure, toModelApiError, type ModelFailure } from './modelFailure';
import { toOpenAiMessages, toOpenAiTools } from './openAiMessages';
import { resolveRetryOptions, retryDelayMs, type ResolvedRetryOptions, type RetryOptions } from './retryPolicy';
import { SseChunkParser } from './sseChunks';
import { StreamAccumulator, type WireUsage } from './streamAccumulator';
import { samplingParameters } from './modelQuirks';
import { fallbackFor, fallbackReason, rememberedFallbacks, rememberFallback, shortenedDescription, TOOL_DESCRIPTION_LIMIT, type RequestFallback } from './requestFallbacks';
import { estimateUsage, tokensInCharacters } from './usageEstimate';
import { withNestedErrorBodies } from './errorBodies';
import { isHttpUrl } from '../common/httpUrl';

export interface ChatModelOptions {
  readonly retry?: RetryOptions;
  /** Silence this long once the reply has begun streaming ends the attempt as stalled (retried, then a clear error). Default 90 s. */
  readonly stallTimeoutMs?: number;
  /**
   * How long to wait for the reply's first byte (default: the stall bound).
   * A reasoning model or a local one reading a long prompt can be silent for
   * minutes; this wait ends the turn with a clear error and is not retried,
   * since the server may still be working on (and billing) the request.
   * Hosts pass firstByteTimeoutFor(the run's time limit).
   */
  readonly firstByteTimeoutMs?: number;
  /** Replaces the global fetch (tests, proxies). */
  readonly fetch?: typeof fetch;
}

type OpenAiModule = typeof import('openai');

/** The SDK, loaded once per process on first use (each model and run shares it). */
let sdkModule: Promise<OpenAiModule> | undefined;
const loadSdk = () => (sdkModule ??= import('openai'));

const DEFAULT_STALL_MS = 90_000;

/**
 * The wait for a reply's first byte when a run may take `maxExecutionSeconds`:
 * never shorter than the run itself would wait, nor than the stall bound.
 */
export function firstByteTimeoutFor(maxExecutionSeconds: number): number {
  return Math.max(DEFAULT_STALL_MS, maxExecutionSeconds * 1000);
}

/**
 * Aborts an attempt when nothing arrives: `firstByteMs` for the first byte,
 * then `ms` between bytes. `touch` runs on every streamed chunk, so it only
 * notes the time; one timer checks that note and re-arms for what is left,
 * instead of a timer reset per chunk.
 */
class StallWatch {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastActivity = performance.now();
  private readonly forwardAbort = () => this.controller.abort(this.outer.reason);
  /** Some of the reply arrived. */
  private begun = false;
  stalled = false;
  readonly signal: AbortSignal;
  constructor(
    private readonly ms: number,
    private readonly firstByteMs: number,
    private readonly outer: AbortSignal,
  ) {
    // A listener, not AbortSignal.any: cheaper per attempt and removed in dispose.
    this.signal = this.controller.signal;
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.forwardAbort, { once: true });
    this.arm(firstByteMs);
  }
  /** Nothing at all arrived before the watch stalled the attempt. */
  get silentFromStart(): boolean {
    return this.stalled && !this.begun;
  }
  touch(): void {
    this.lastActivity = performance.now();
    if (this.begun) return;
    // From now on the shorter bound between bytes applies, so the timer set for the first byte goes.
    this.begun = true;
    clearTimeout(this.timer);
    this.arm(this.ms);
  }
  private arm(delay: number): void {
    this.timer = setTimeout(() => {
      const bound = this.begun ? this.ms : this.firstByteMs;
      const quiet = performance.now() - this.lastActivity;
      if (quiet < bound) return this.arm(bound - quiet);
      this.stalled = true;
      this.controller.abort(new Error('stalled'));
    }, delay);
  }
  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.forwardAbort);
  }
}

export interface Connection {
  readonly sdk: OpenAiModule;
  readonly client: OpenAI;
}

/**
 * SDK clients by what they connect with (base URL and key, per fetch): a
 * client holds only that configuration, and building one costs as much as a
 * few streamed chunks, so the models of every run (the function-call and the
 * answer model, run after run) share it. Bounded: the oldest goes first.
 */
const MAX_SHARED_CLIENTS = 8;
const sharedClients = new WeakMap<typeof fetch | typeof sharedFetchKey, Map<string, Promise<Connection>>>();
/** The key of the clients that use the global fetch. */
const sharedFetchKey = {};

export function sharedConnection(settings: Pick<ModelSettings, 'baseUrl' | 'apiKey'>, fetchOverride: typeof fetch | undefined): Promise<Connection> {
  const owner = fetchOverride ?? sharedFetchKey;
  let clients = sharedClients.get(owner);
  if (!clients) sharedClients.set(owner, (clients = new Map()));
  const key = `${settings.baseUrl}\n${settings.apiKey ?? ''}`;
  let connection = clients.get(key);
  if (!connection) {
    connection = connectTo(settings, fetchOverride);
    // A failed load is not kept: the next request tries again.
    connection.catch(() => clients.delete(key));
    clients.set(key, connection);
    if (clients.size > MAX_SHARED_CLIENTS) clients.delete(clients.keys().next().value!);
  }
  return connection;
}

export function createChatModel(settings: ModelSettings, options: ChatModelOptions = {}): ChatModel {
  const retry = resolveRetryOptions(options.retry);
  let connection: Promise<Connection> | undefined;
  const connect = () => (connection ??= sharedConnection(settings, options.fetch));
  return {
    name: settings.model,
    streamTurn: (request, signal) => {
      const stallMs = options.stallTimeoutMs ?? DEFAULT_STALL_MS;
      return streamTurn(settings, connect, retry, request, signal, { stallMs, firstByteMs: options.firstByteTimeoutMs ?? stallMs });
    },
  };
}

/**
 * Model ids the server offers (GET /models), sorted, for the model pickers.
 * An abort by `AbortSignal.timeout` is a ModelApiError (the server is slow or
 * gone); any other abort is a CancelledError.
 */
export async function listModels(
  settings: ModelSettings,
  signal?: AbortSignal,
  options: Pick<ChatModelOptions, 'fetch'> = {},
): Promise<string[]> {
  const { sdk, client } = await connectTo(settings, options.fetch);
  try {
    const ids: string[] = [];
    for await (const model of client.models.list(signal ? { signal } : undefined)) ids.push(model.id);
    if (signal?.aborted) throw new CancelledError();
    return ids.sort((a, b) => a.localeCompare(b));
  } catch (error) {
    if (signal?.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') {
      throw new ModelApiError(`Listing the models of ${settings.baseUrl} timed out.`, {
        retryable: true,
        attempts: 1,
        suggestion: `Is the server at ${settings.baseUrl} running and reachable?`,
      });
    }
    if (error instanceof CancelledError || signal?.aborted || isAbort(error, sdk)) throw new CancelledError();
    throw toModelApiError(classifyFailure(error, sdk, Date.now(), settings.apiKey), 1, settings.baseUrl, settings.model);
  }
}

async function connectTo(settings: Pick<ModelSettings, 'baseUrl' | 'apiKey'>, fetchOverride: typeof fetch | undefined): Promise<Connection> {
  const sdk = await loadSdk();
  const hasKey = Boolean(settings.apiKey);
  const client = new sdk.OpenAI({
    baseURL: settings.baseUrl,
    // Local servers need no key but the SDK insists on one; the placeholder
    // is never sent because the Authorization header is removed below.
    apiKey: hasKey ? settings.apiKey : 'no-key',
    ...(hasKey ? {} : { defaultHeaders: { Authorization: null } }),
    // Not from the environment: those belong to OpenAI, not to any base URL.
    organization: null,
    project: null,
    maxRetries: 0,
    // The SDK would print unparsable stream lines (model output) to the console.
    logLevel: 'off',
    fetch: withNestedErrorBodies(fetchOverride ?? ((input, init) => fetch(input, init))),
  });
  return { sdk, client };
}

function requestBody(settings: ModelSettings, request: TurnRequest): ChatCompletionCreateParamsStreaming {
  const tools = request.tools && request.tools.length > 0 ? toOpenAiTools(request.tools) : undefined;
  return {
    model: settings.model,
    messages: toOpenAiMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
    ...samplingParameters(settings.model, settings.temperature, callTokenLimit(settings.maxTokens, request)),
    ...(tools ? { tools } : {}),
  };
}

async function* streamTurn(
  settings: ModelSettings,
  connect: () => Promise<Connection>,
  retry: ResolvedRetryOptions,
  request: TurnRequest,
  signal: AbortSignal,
  bounds: { readonly stallMs: number; readonly firstByteMs: number },
): AsyncGenerator<ModelDelta, ModelTurn, void> {
  const startedAt = Date.now();
  if (signal.aborted) throw new CancelledError();
  // Settings keep a base URL that is not one (never swapped for OpenAI's): say so before anything is sent.
  if (!isHttpUrl(settings.baseUrl)) {
    throw new ModelApiError(`Model "${settings.model}" has no usable base URL: "${settings.baseUrl}" is not an http(s) URL.`, {
      retryable: false,
      attempts: 0,
      suggestion: 'Fix tandem.functionCallModel.baseUrl (or tandem.answerModel.baseUrl), e.g. http://localhost:11434/v1.',
    });
  }
  let body = withFallbacks(requestBody(settings, request), rememberedFallbacks(settings.baseUrl, settings.model));
  const { sdk, client } = await connect();
  for (let attempt = 1; ; attempt++) {
    const accumulator = new StreamAccumulator();
    let chunks = 0;
    const watch = new StallWatch(bounds.stallMs, bounds.firstByteMs, signal);
    /** The server answered with its headers: it has the request. */
    let answered = false;
    try {
      // The raw response, read by SseChunkParser: the SDK's own stream costs far more per event (see sseChunks.ts).
      const response = await client.chat.completions.create(body, { signal: watch.signal }).asResponse();
      answered = true;
      if (!response.body) throw new sdk.OpenAIError('Attempted to iterate over a response with no body');
      const contentType = response.headers.get('content-type') ?? '';
      if (/\btext\/html\b/i.test(contentType)) {
        // A web page (a proxy's login, a site's 200) is not going to turn into a stream on retry.
        await response.body.cancel().catch(() => undefined);
        throw toModelApiError(notAnApi(contentType), attempt, settings.baseUrl, settings.model);
      }
      const parser = new SseChunkParser((error) => new sdk.APIError(undefined, error as object, undefined, response.headers));
      try {
        for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
          watch.touch();
          for (const chunk of parser.push(bytes)) {
            chunks++;
            for (const delta of accumulator.accept(chunk as ChatCompletionChunk)) yield delta;
          }
          parser.check();
        }
        for (const chunk of parser.end()) {
          chunks++;
          for (const delta of accumulator.accept(chunk as ChatCompletionChunk)) yield delta;
        }
        parser.check();
      } catch (error) {
        // As in the SDK's stream, an abort ends the reading quietly; the checks below tell Stop from a stall.
        if (!isAbort(error, sdk)) throw error;
      }
      if (signal.aborted) throw new CancelledError();
      if (watch.stalled) throw new Error('stalled');
      // A body with no SSE event in it (e.g. a server that ignored `stream`) is not a reply.
      if (chunks === 0) throw new SyntaxError('the response held no stream chunks');
      for (const delta of accumulator.end()) yield delta;
      watch.dispose();
      const nameless = accumulator.namelessToolCalls();
      return {
        model: settings.model,
        content: accumulator.content,
        reasoning: accumulator.reasoning,
        toolCalls: accumulator.toolCalls(),
        ...(nameless > 0 ? { namelessToolCalls: nameless } : {}),
        finishReason: accumulator.finishReason,
        usage: completeUsage(accumulator, body),
        durationMs: Date.now() - startedAt,
        attempts: attempt,
      };
    } catch (error) {
      watch.dispose();
      if (error instanceof ModelApiError) throw error;
      // The server had started replying: those tokens were spent even though the attempt is void.
      if (chunks > 0) yield { type: 'partialUsage', usage: completeUsage(accumulator, body) };
      else if (answered && (signal.aborted || watch.silentFromStart)) {
        // Cut before its first chunk (Stop, the run's time limit, the first-byte bound) once the server had
        // answered its headers: it has the request, and a server reads, and bills, the prompt before it writes
        // a token, so the call counts with its prompt estimated and no output. Not with no answer at all (a
        // host that drops packets may never have had the request), nor a stall that is tried again.
        yield { type: 'partialUsage', usage: { ...completeUsage(accumulator, body), estimatedCounts: { prompt: true, completion: false } } };
      }
      if (signal.aborted) throw new CancelledError();
      if (watch.silentFromStart) {
        // Not retried: the server may still be thinking on this request, and a second one would be billed again.
        throw toModelApiError(firstByteFailure(bounds.firstByteMs, error), attempt, settings.baseUrl, settings.model);
      }
      if (watch.stalled) {
        // Silence mid-reply is not a cancellation: try again at once, then say so plainly.
        const stall = stallFailure(bounds.stallMs, error);
        if (attempt > retry.maxRetries) throw toModelApiError(stall, attempt, settings.baseUrl, settings.model);
        yield { type: 'retry', attempt, delayMs: 0, reason: stall.reason };
        continue;
      }
      if (error instanceof CancelledError || isAbort(error, sdk)) throw new CancelledError();
      const failure = classifyFailure(error, sdk, retry.now(), settings.apiKey);
      const fallback = fallbackFor(failure, {
        hasStreamOptions: body.stream_options !== undefined,
        hasTools: body.tools !== undefined,
        hasLongToolDescription: (body.tools ?? []).some((tool) => tool.type === 'function' && (tool.function.description?.length ?? 0) > TOOL_DESCRIPTION_LIMIT),
        hasMaxTokens: body.max_tokens !== undefined && body.max_tokens !== null,
        hasTemperature: body.temperature !== undefined && body.temperature !== null,
        hasImages: body.messages.some((message) => message.role === 'user' && Array.isArray(message.content) && message.content.some((part) => part.type === 'image_url')),
      });
      if (fallback && attempt <= retry.maxRetries) {
        // A changed request is worth trying at once; the loop reads the envelope from the reply's text.
        rememberFallback(settings.baseUrl, settings.model, fallback);
        body = withFallbacks(body, new Set([fallback]));
        yield { type: 'retry', attempt, delayMs: 0, reason: fallbackReason(fallback) };
        continue;
      }
      if (!failure.retryable || attempt > retry.maxRetries) {
        throw toModelApiError(failure, attempt, settings.baseUrl, settings.model);
      }
      const delayMs = retryDelayMs(attempt, failure.retryAfterMs, retry);
      yield { type: 'retry', attempt, delayMs, reason: failure.reason };
      try {
        await retry.sleep(delayMs, signal);
      } catch (sleepError) {
        if (signal.aborted) throw new CancelledError();
        throw sleepError;
      }
    } finally {
      // Also when the consumer stops iterating: no timer or listener outlives the attempt.
      watch.dispose();
    }
  }
}

function notAnApi(contentType: string): ModelFailure {
  return { kind: 'not-an-api', status: undefined, retryable: false, retryAfterMs: undefined, reason: `the server answered with a web page (${contentType.split(';')[0]}), not an OpenAI-compatible reply`, cause: undefined };
}

function firstByteFailure(firstByteMs: number, cause: unknown): ModelFailure {
  const seconds = Math.round(firstByteMs / 100) / 10;
  return {
    kind: 'silent',
    status: undefined,
    retryable: false,
    retryAfterMs: undefined,
    reason: `the server sent nothing for ${seconds} s after the request (not retried: it may still be working on it)`,
    cause,
  };
}

function stallFailure(stallMs: number, cause: unknown): ModelFailure {
  const seconds = Math.round(stallMs / 100) / 10;
  return { kind: 'connection', status: undefined, retryable: true, retryAfterMs: undefined, reason: `the server sent nothing for ${seconds} s (stalled)`, cause };
}

function withFallbacks(body: ChatCompletionCreateParamsStreaming, fallbacks: ReadonlySet<RequestFallback>): ChatCompletionCreateParamsStreaming {
  if (fallbacks.size === 0) return body;
  const next = { ...body };
  if (fallbacks.has('dropStreamOptions')) delete next.stream_options;
  if (fallbacks.has('defaultTemperature')) delete next.temperature;
  if (fallbacks.has('maxCompletionTokens') && next.max_tokens !== undefined && next.max_tokens !== null) {
    next.max_completion_tokens = next.max_tokens;
    delete next.max_tokens;
  }
  if (fallbacks.has('noImages') || fallbacks.has('imagesTooLarge')) next.messages = withoutImages(next.messages);
  if (fallbacks.has('noNativeTools') || fallbacks.has('envelopeOnce')) delete next.tools;
  else if (fallbacks.has('shortToolDescriptions') && next.tools) {
    next.tools = next.tools.map((tool) =>
      tool.type === 'function' && tool.function.description !== undefined && tool.function.description.length > TOOL_DESCRIPTION_LIMIT
        ? { ...tool, function: { ...tool.function, description: shortenedDescription(tool.function.description) } }
        : tool,
    );
  }
  return next;
}

/** User messages' images taken out, with a line saying so: the results' text still describes them. */
function withoutImages(messages: ChatCompletionCreateParamsStreaming['messages']): ChatCompletionCreateParamsStreaming['messages'] {
  return messages.map((message) => {
    if (message.role !== 'user' || !Array.isArray(message.content) || !message.content.some((part) => part.type === 'image_url')) return message;
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
    return { ...message, content: `${text}\n(${IMAGES_NOT_SENT})` };
  });
}

function usageFromWire(usage: WireUsage): TokenUsage {
  const reasoningTokens = usage.completion_tokens_details?.reasoning_tokens ?? undefined;
  return {
    promptTokens: usage.prompt_tokens ?? undefined,
    completionTokens: usage.completion_tokens ?? undefined,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
    ...(reasoningTokens !== undefined && { reasoningTokens }),
    estimated: false,
  };
}

/**
 * What the server reported, with a count it left out (some gateways send
 * only `completion_tokens`) estimated and marked so; all of it estimated when
 * it sent no usage. Also for an attempt cut short: counts the server sent
 * before it failed are its own; only what they leave out is estimated.
 */
function completeUsage(accumulator: StreamAccumulator, body: ChatCompletionCreateParamsStreaming): TokenUsage {
  const estimate = () => estimateUsage({ messages: body.messages, tools: body.tools }, accumulator.outputText());
  if (!accumulator.usage) return estimate();
  const reported = usageFromWire(accumulator.usage);
  // A usage sent before the last of the output (on the first chunk, as some servers do, or on every chunk)
  // counts only what came before it: an early `completion_tokens: 0` is not the output's count. A stream cut
  // short before its final usage shows it; what streamed after that usage is estimated and added. Judged by
  // position, not by comparing with the estimate: a final count below a rough estimate is still the count.
  const afterUsage = accumulator.outputCharactersAfterUsage;
  if (afterUsage > 0 && reported.completionTokens !== undefined) {
    // Its reasoning count is as old: left out rather than kept too low.
    const { reasoningTokens: _stale, ...counts } = reported;
    return withEstimates({ ...counts, completionTokens: reported.completionTokens + tokensInCharacters(afterUsage) }, { prompt: reported.promptTokens === undefined, completion: true }, estimate);
  }
  return withEstimates(reported, { prompt: reported.promptTokens === undefined, completion: reported.completionTokens === undefined }, estimate);
}

/** `usage` with the counts `missing` names estimated (a missing one filled in) and marked so. */
function withEstimates(usage: TokenUsage, missing: { readonly prompt: boolean; readonly completion: boolean }, estimate: () => TokenUsage): TokenUsage {
  if (!missing.prompt && !missing.completion) return usage;
  const estimated = estimate();
  return {
    ...usage,
    promptTokens: usage.promptTokens ?? estimated.promptTokens,
    completionTokens: usage.completionTokens ?? estimated.completionTokens,
    estimated: true,
    estimatedCounts: missing,
  };
}

function isAbort(error: unknown, sdk: OpenAiModule): boolean {
  return error instanceof sdk.APIUserAbortError || (error instanceof Error && error.name === 'AbortError');
}
