// When and how long to wait before trying a model call again. The SDK's own
// retries are off so that a retry is visible (a `retry` delta) and the waits
// are ours to bound and to cancel.

import { CancelledError } from '../common/errors';

export interface RetryOptions {
  /** Retries after the first attempt; default 3. */
  readonly maxRetries?: number;
  /** First backoff step; doubles each retry. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** Upper bound of one backoff wait. Default 8 s. */
  readonly maxDelayMs?: number;
  /** Upper bound of a server's Retry-After. Default 30 s. */
  readonly maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1); injectable so tests are deterministic. */
  readonly random?: () => number;
  /** The wait itself; injectable so tests need not wait. Must reject with CancelledError on abort. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Clock for HTTP-date Retry-After values. */
  readonly now?: () => number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? 500),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? 8_000),
    maxRetryAfterMs: Math.max(0, options.maxRetryAfterMs ?? 30_000),
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    now: options.now ?? Date.now,
  };
}

/** Rate limits, timeouts, conflicts and server faults pass; client mistakes do not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Milliseconds a Retry-After (or OpenAI's retry-after-ms) header asks for:
 * delta-seconds (decimals tolerated) or an HTTP date. Undefined when absent
 * or unreadable.
 */
export function parseRetryAfterMs(
  retryAfter: string | null | undefined,
  retryAfterMs: string | null | undefined,
  now: number,
): number | undefined {
  if (retryAfterMs) {
    const value = Number(retryAfterMs);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  if (!retryAfter) return undefined;
  const trimmed = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Wait before retry number `retry` (1 = first retry). A server's Retry-After
 * wins, capped; otherwise exponential backoff with equal jitter, so waits
 * grow but parallel clients do not retry in lockstep.
 */
export function retryDelayMs(retry: number, retryAfterMs: number | undefined, options: ResolvedRetryOptions): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxRetryAfterMs);
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + options.random() * (exponential / 2));
}

/** Resolves after `ms`; rejects with CancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
