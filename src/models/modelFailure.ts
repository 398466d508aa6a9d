// Turns whatever the SDK or the network threw into one plain description of
// the failure, decides whether it is worth another try, and words the final
// error so the user knows what to do.

import type * as OpenAiModule from 'openai';
import { ContextOverflowError, ModelApiError } from '../common/errors';
import { isContextOverflow } from './contextOverflow';
import { isRetryableStatus, parseRetryAfterMs } from './retryPolicy';

/** `silent`: the server took the request and sent nothing back within the first-byte bound. */
/** `not-an-api`: the server answered with something else than an API reply (a web page). */
export type FailureKind = 'http' | 'connection' | 'silent' | 'not-an-api' | 'malformed-stream' | 'stream-error' | 'context-overflow';

export interface ModelFailure {
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** What the server asked for via Retry-After, uncapped. */
  readonly retryAfterMs: number | undefined;
  /** One line for logs and retry notices; never contains credentials. */
  readonly reason: string;
  readonly cause: unknown;
}

type SdkErrors = Pick<typeof OpenAiModule, 'APIError' | 'APIConnectionError'>;

/**
 * `error` must not be an abort; callers check cancellation first. `apiKey`:
 * the key the request carried, cut out of the reason wherever the server's
 * message quotes it (some answer a 401 with the key they refused), since the
 * reason reaches logs, the panel and AG-UI clients.
 */
export function classifyFailure(error: unknown, sdk: SdkErrors, now: number, apiKey?: string): ModelFailure {
  const found = classify(error, sdk, now);
  return apiKey !== undefined && apiKey.length >= MIN_REDACTED_KEY && found.reason.includes(apiKey) ? { ...found, reason: found.reason.split(apiKey).join('***') } : found;
}

/** Shorter "keys" (a placeholder such as "x") are not looked for: they would cut up ordinary words. */
const MIN_REDACTED_KEY = 8;

function classify(error: unknown, sdk: SdkErrors, now: number): ModelFailure {
  if (error instanceof sdk.APIConnectionError) {
    // A host name that does not resolve will not resolve on the next try either (EAI_AGAIN, a DNS hiccup, is retried).
    return failure('connection', undefined, causeCode(error) !== 'ENOTFOUND', undefined, connectionReason(error), error);
  }
  if (error instanceof sdk.APIError) {
    const status = error.status;
    if (isContextOverflow(error)) {
      // Whatever the status (400, or an error inside the stream): the same request fails the same way.
      return failure('context-overflow', status, false, undefined, `the request does not fit the model's context window: ${error.message.replace(/^\d{3}\s+/, '')}`, error);
    }
    if (status === undefined) {
      // An error object inside the stream (`data: {"error": ...}`): the server
      // reported a failure mid-reply, usually an upstream hiccup.
      return failure('stream-error', undefined, true, undefined, `the server sent an error: ${error.message}`, error);
    }
    const headers = error.headers;
    const retryAfterMs = parseRetryAfterMs(headers?.get('retry-after'), headers?.get('retry-after-ms'), now);
    return failure('http', status, isRetryableStatus(status), retryAfterMs, `HTTP ${status}: ${error.message.replace(/^\d{3}\s+/, '')}`, error);
  }
  if (error instanceof SyntaxError) {
    return failure('malformed-stream', undefined, true, undefined, `malformed stream data: ${error.message}`, error);
  }
  // Anything else thrown while reading the body is the socket going away
  // (undici: "TypeError: terminated", ECONNRESET, ...).
  return failure('connection', undefined, true, undefined, `connection lost: ${describe(error)}`, error);
}

function failure(
  kind: FailureKind,
  status: number | undefined,
  retryable: boolean,
  retryAfterMs: number | undefined,
  reason: string,
  cause: unknown,
): ModelFailure {
  return { kind, status, retryable, retryAfterMs, reason, cause };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

function connectionReason(error: Error): string {
  const code = causeCode(error);
  return code ? `connection error (${code})` : `connection error: ${describe(error)}`;
}

function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What the user can do about a failure that ended a call. */
export function suggestionFor(failure: ModelFailure, baseUrl: string, model: string): string {
  if (failure.kind === 'context-overflow') {
    return `The conversation is too long for "${model}". Start a new chat or send a shorter message; or choose a model with a larger window (set its size in tandem.*.contextWindow).`;
  }
  switch (failure.status) {
    case 401:
      return 'Check the API key: in VS Code, "Tandem: Set API Key" (or the OPENAI_API_KEY environment variable); for the headless AG-UI server, OPENAI_API_KEY.';
    case 403:
      return `The key is not allowed to use "${model}". Check the key's permissions or pick another model.`;
    case 404:
      return /\/v1\/?$/.test(baseUrl)
        ? `Check the model name "${model}": "Tandem: Select Models" lists the models ${baseUrl} offers.`
        : `Check the model name "${model}" and the base URL ${baseUrl} (it usually ends in /v1).`;
    case 400:
    case 422:
      return `The server rejected the request. Check that "${model}" supports chat completions (and tools, in agent mode), and the temperature and max tokens settings.`;
    case 429:
      return 'The server is rate limiting. Wait a moment and try again, or lower usage (fewer iterations, a smaller model).';
    default:
      break;
  }
  if (failure.status !== undefined && failure.status >= 500) {
    return `The server at ${baseUrl} is failing (HTTP ${failure.status}). Try again later or check its logs.`;
  }
  if (failure.kind === 'connection') {
    const code = causeCode(failure.cause);
    if (code === 'ECONNREFUSED') return `Nothing answers at ${baseUrl}. Is the model server running?`;
    // EAI_AGAIN is a lookup that could not be made (often no network); ENOTFOUND, a name nobody knows (often a typo).
    if (code === 'EAI_AGAIN') return `The host of ${baseUrl} cannot be looked up right now. Check your network connection (and the base URL).`;
    if (code === 'ENOTFOUND') return `The host of ${baseUrl} cannot be found. Check the base URL, and your network connection.`;
    return `The connection to ${baseUrl} failed. Is the server at ${baseUrl} running and reachable?`;
  }
  if (failure.kind === 'silent') {
    return `"${model}" may still be thinking or loading: raise tandem.agent.maxExecutionSeconds (Tandem waits that long, at least 90 s, for the first byte), or check the server at ${baseUrl}.`;
  }
  if (failure.kind === 'not-an-api') {
    return `Check the base URL ${baseUrl}: it should be the API's address (usually ending in /v1), not a web page.`;
  }
  if (failure.kind === 'malformed-stream') {
    return `The server at ${baseUrl} sent a stream that is not OpenAI-compatible. Check the base URL and the server.`;
  }
  return `Try again; if it keeps failing, check the server at ${baseUrl}.`;
}

export function toModelApiError(failure: ModelFailure, attempts: number, baseUrl: string, model: string): ModelApiError {
  const tries = attempts === 1 ? '' : ` after ${attempts} attempts`;
  const ErrorClass = failure.kind === 'context-overflow' ? ContextOverflowError : ModelApiError;
  return new ErrorClass(`Model "${model}" failed${tries}: ${failure.reason}`, {
    status: failure.status,
    retryable: failure.retryable,
    attempts,
    cause: failure.cause,
    suggestion: suggestionFor(failure, baseUrl, model),
  });
}
