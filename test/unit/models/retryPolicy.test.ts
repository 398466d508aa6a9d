import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CancelledError } from '../../../src/common/errors';
import {
  isRetryableStatus,
  parseRetryAfterMs,
  resolveRetryOptions,
  retryDelayMs,
  sleep,
} from '../../../src/models/retryPolicy';

describe('retryPolicy', () => {
  it('retries rate limits, timeouts, conflicts and server faults only', () => {
    assert.deepEqual(
      [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503].filter(isRetryableStatus),
      [408, 409, 429, 500, 502, 503],
    );
  });

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs('2', null, now), 2_000);
    assert.equal(parseRetryAfterMs('0.25', null, now), 250);
    assert.equal(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', null, now), 7_000);
    assert.equal(parseRetryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', null, now), 0, 'a date in the past means now');
    assert.equal(parseRetryAfterMs('9', '1500', now), 1_500);
    assert.equal(parseRetryAfterMs('soon', null, now), undefined);
    assert.equal(parseRetryAfterMs(undefined, undefined, now), undefined);
  });

  it('backs off exponentially with jitter, capped', () => {
    const low = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0 });
    const high = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.999 });
    assert.deepEqual([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, undefined, low)), [50, 100, 200, 400, 500]);
    assert.deepEqual([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, undefined, high)), [100, 200, 400, 800, 1_000]);
  });

  it('takes the server Retry-After over backoff, up to the cap', () => {
    const options = resolveRetryOptions({ maxRetryAfterMs: 5_000 });
    assert.equal(retryDelayMs(1, 1_200, options), 1_200);
    assert.equal(retryDelayMs(1, 3_600_000, options), 5_000);
  });

  it('defaults to three retries', () => {
    assert.equal(resolveRetryOptions().maxRetries, 3);
  });

  it('sleeps, and rejects with CancelledError on abort', async () => {
    const started = Date.now();
    await sleep(30, new AbortController().signal);
    assert.ok(Date.now() - started >= 25);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const abortedStart = Date.now();
    await assert.rejects(sleep(10_000, controller.signal), CancelledError);
    assert.ok(Date.now() - abortedStart < 500);
    await assert.rejects(sleep(10, AbortSignal.abort()), CancelledError);
  });
});
