// What a `ModelUsage` says beyond its numbers, read the same way by the
// tracker, the AG-UI accounting, the panel, the transcript and the log.
import type { ModelUsage } from './agentEvents';

export interface EstimatedCounts {
  readonly prompt: boolean;
  readonly completion: boolean;
}

/** Asked at least once, whether or not a reply finished. */
export function wasCalled(usage: Pick<ModelUsage, 'calls' | 'partialAttempts'>): boolean {
  return usage.calls + (usage.partialAttempts ?? 0) > 0;
}

/** Which of a model's summed counts hold local estimates (one call's: `callEstimatedCounts`); usage saved before they were told apart says it for both. */
export function estimatedCounts(usage: Pick<ModelUsage, 'estimated' | 'estimatedCalls'>): EstimatedCounts {
  if (!usage.estimatedCalls) return { prompt: usage.estimated, completion: usage.estimated };
  return { prompt: usage.estimatedCalls.prompt > 0, completion: usage.estimatedCalls.completion > 0 };
}

/**
 * A cost as reported, without binary noise (0.0016400000000000002). Ten
 * decimals keep a single token at the cheapest list price (5e-9 USD) exact.
 * Round what is reported, never what is still to be summed.
 */
export function reportedUsd(usd: number): number;
export function reportedUsd(usd: number | undefined): number | undefined;
export function reportedUsd(usd: number | undefined): number | undefined {
  return usd === undefined ? undefined : Math.round(usd * 1e10) / 1e10;
}
