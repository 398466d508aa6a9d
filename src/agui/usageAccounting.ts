// AG-UI's own usage accounting for runs that span interrupts: one entry per
// model (both phases on one model make one entry), and a run that resumes an
// interrupted one reports only the calls it made itself, in RUN_FINISHED's
// `usage` and in Tandem's `tandem.usage` events alike, estimate marks and
// costs included.
import type { TokenUsage } from '@ag-ui/core';
import type { ModelUsage, RunUsage } from '../protocol/agentEvents';
import { agUiTokenUsage, estimatedAgUiCounts, estimateMarker, type AgUiCount } from '../protocol/agUiTokenUsage';
import { reportedUsd, wasCalled } from '../protocol/usageFigures';

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'reasoningTokens'] as const;
type Mutable = { -readonly [K in keyof TokenUsage]: TokenUsage[K] };

/** Sums entries of the same model; a count no entry reported stays absent, never 0. */
export function mergeByModel(entries: readonly TokenUsage[]): TokenUsage[] {
  const byModel = new Map<string, { total: Mutable; estimates: Set<AgUiCount> }>();
  for (const entry of entries) {
    const key = entry.model ?? '';
    const merged = byModel.get(key) ?? { total: { ...(entry.model !== undefined && { model: entry.model }) }, estimates: new Set<AgUiCount>() };
    for (const count of COUNTS) {
      const value = entry[count];
      if (value !== undefined) merged.total[count] = (merged.total[count] ?? 0) + value;
    }
    for (const count of estimatedAgUiCounts(entry)) merged.estimates.add(count);
    byModel.set(key, merged);
  }
  return [...byModel.values()].map(({ total, estimates }) =>
    estimates.size === 0 ? total : { ...total, ...estimateMarker(COUNTS.filter((count): count is AgUiCount => estimates.has(count as AgUiCount))) },
  );
}

/** The `tandem.usage` snapshot as AG-UI entries (models that were called). */
export function tokenUsageOf(usage: RunUsage): TokenUsage[] {
  return mergeByModel([usage.functionCall, usage.answer].filter(wasCalled).map(agUiTokenUsage));
}

function minus(now: number | undefined, before: number | undefined): number | undefined {
  return now === undefined ? undefined : Math.max(0, now - (before ?? 0));
}

/** A cost difference, reported: rounded, and absent for a model not called since. */
function costSince(now: number | undefined, before: number | undefined, called: boolean): number | undefined {
  if (!called) return undefined;
  return now === undefined || before === undefined ? now : reportedUsd(Math.max(0, now - before));
}

function modelUsageSince(now: ModelUsage, before: ModelUsage): ModelUsage {
  const calls = Math.max(0, now.calls - before.calls);
  const partialAttempts = minus(now.partialAttempts, before.partialAttempts);
  const reasoningTokens = minus(now.reasoningTokens, before.reasoningTokens);
  // Only the estimates among this run's calls: an earlier run's must not mark counts it did not touch.
  const prompt = minus(now.estimatedCalls?.prompt, before.estimatedCalls?.prompt) ?? 0;
  const completion = minus(now.estimatedCalls?.completion, before.estimatedCalls?.completion) ?? 0;
  const estimated = now.estimatedCalls ? prompt + completion > 0 : now.estimated;
  const { estimatedCalls: _, ...rest } = now;
  return {
    ...rest,
    calls,
    promptTokens: minus(now.promptTokens, before.promptTokens),
    completionTokens: minus(now.completionTokens, before.completionTokens),
    cachedTokens: minus(now.cachedTokens, before.cachedTokens),
    ...(reasoningTokens !== undefined && { reasoningTokens }),
    estimated,
    ...(now.estimatedCalls && estimated && { estimatedCalls: { prompt, completion } }),
    partialAttempts: partialAttempts || undefined,
    costUsd: costSince(now.costUsd, before.costUsd, wasCalled({ calls, partialAttempts })),
  };
}

/** A `tandem.usage` snapshot less what earlier runs of the same loop (before an interrupt) reported. */
export function runUsageSince(now: RunUsage, before: RunUsage | undefined): RunUsage {
  if (!before) return now;
  const waitingMs = minus(now.waitingMs, before.waitingMs);
  const functionCall = modelUsageSince(now.functionCall, before.functionCall);
  const answer = modelUsageSince(now.answer, before.answer);
  return {
    functionCall,
    answer,
    toolPhaseMs: Math.max(0, now.toolPhaseMs - before.toolPhaseMs),
    answerPhaseMs: Math.max(0, now.answerPhaseMs - before.answerPhaseMs),
    ...(waitingMs ? { waitingMs } : {}),
    totalCostUsd: costSince(now.totalCostUsd, before.totalCostUsd, true),
  };
}

/** RUN_FINISHED's `usage` for a run that may resume an interrupted loop: only what it added. */
export function tokenUsageSince(now: RunUsage, before: RunUsage | undefined): TokenUsage[] {
  return tokenUsageOf(runUsageSince(now, before));
}
