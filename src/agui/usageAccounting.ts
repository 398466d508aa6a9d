// AG-UI's own usage accounting for runs that span interrupts: one entry per
// model (both phases on one model make one entry), and a run that resumes an
// interrupted one reports only the calls it made itself, in RUN_FINISHED's
// `usage` and in Tandem's `tandem.usage` events alike. An estimated count
// (the server reported none) says so: `tandem: { estimated: true }`.
import type { TokenUsage } from '@ag-ui/core';
import type { ModelUsage, RunUsage } from '../protocol/agentEvents';

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'reasoningTokens'] as const;
type Count = (typeof COUNTS)[number];
type Mutable = { -readonly [K in keyof TokenUsage]: TokenUsage[K] };

/** Sums entries of the same model; a count no entry reported stays absent, never 0. */
export function mergeByModel(entries: readonly TokenUsage[]): TokenUsage[] {
  const byModel = new Map<string, Mutable>();
  for (const entry of entries) {
    const key = entry.model ?? '';
    const total = byModel.get(key) ?? { ...(entry.model !== undefined && { model: entry.model }) };
    for (const count of COUNTS) {
      const value = entry[count];
      if (value !== undefined) total[count] = (total[count] ?? 0) + value;
    }
    if (isEstimated(entry)) Object.assign(total, ESTIMATED);
    byModel.set(key, total);
  }
  return [...byModel.values()];
}

/** AG-UI's TokenUsage takes more keys; this one marks counts Tandem estimated, so no client takes them for the provider's. */
const ESTIMATED = { tandem: { estimated: true } } as const;

function isEstimated(entry: TokenUsage): boolean {
  return (entry as { tandem?: { estimated?: unknown } }).tandem?.estimated === true;
}

function fromModelUsage(usage: ModelUsage): TokenUsage {
  return {
    model: usage.model,
    ...(usage.promptTokens !== undefined && { inputTokens: usage.promptTokens }),
    ...(usage.completionTokens !== undefined && { outputTokens: usage.completionTokens }),
    ...(usage.promptTokens !== undefined && usage.completionTokens !== undefined && { totalTokens: usage.promptTokens + usage.completionTokens }),
    ...(usage.cachedTokens !== undefined && { cachedInputTokens: usage.cachedTokens }),
    ...(usage.reasoningTokens !== undefined && { reasoningTokens: usage.reasoningTokens }),
    ...(usage.estimated && ESTIMATED),
  };
}

/** The `tandem.usage` snapshot as AG-UI entries (models that were called). */
export function tokenUsageOf(usage: RunUsage): TokenUsage[] {
  return mergeByModel([usage.functionCall, usage.answer].filter((entry) => entry.calls > 0 || (entry.partialAttempts ?? 0) > 0).map(fromModelUsage));
}

/** What `total` adds to `reported`, per model; models with nothing new are left out. */
export function subtractUsage(total: readonly TokenUsage[], reported: readonly TokenUsage[]): TokenUsage[] {
  const before = new Map(mergeByModel(reported).map((entry) => [entry.model ?? '', entry]));
  const result: TokenUsage[] = [];
  for (const entry of mergeByModel(total)) {
    const earlier = before.get(entry.model ?? '');
    if (!earlier) {
      result.push(entry);
      continue;
    }
    const delta: Mutable = { ...(entry.model !== undefined && { model: entry.model }), ...(isEstimated(entry) && ESTIMATED) };
    let changed = false;
    for (const count of COUNTS as readonly Count[]) {
      const value = entry[count];
      if (value === undefined) continue;
      delta[count] = Math.max(0, value - (earlier[count] ?? 0));
      if (delta[count] !== 0) changed = true;
    }
    if (changed) result.push(delta);
  }
  return result;
}

function minus(now: number | undefined, before: number | undefined): number | undefined {
  return now === undefined ? undefined : Math.max(0, now - (before ?? 0));
}

function modelUsageSince(now: ModelUsage, before: ModelUsage): ModelUsage {
  const partialAttempts = minus(now.partialAttempts, before.partialAttempts);
  const reasoningTokens = minus(now.reasoningTokens, before.reasoningTokens);
  return {
    ...now,
    calls: Math.max(0, now.calls - before.calls),
    promptTokens: minus(now.promptTokens, before.promptTokens),
    completionTokens: minus(now.completionTokens, before.completionTokens),
    cachedTokens: minus(now.cachedTokens, before.cachedTokens),
    ...(reasoningTokens !== undefined && { reasoningTokens }),
    partialAttempts: partialAttempts || undefined,
    costUsd: now.costUsd === undefined || before.costUsd === undefined ? now.costUsd : Math.max(0, now.costUsd - before.costUsd),
  };
}

/** A `tandem.usage` snapshot less what earlier runs of the same loop (before an interrupt) reported. */
export function runUsageSince(now: RunUsage, before: RunUsage | undefined): RunUsage {
  if (!before) return now;
  const waitingMs = minus(now.waitingMs, before.waitingMs);
  return {
    functionCall: modelUsageSince(now.functionCall, before.functionCall),
    answer: modelUsageSince(now.answer, before.answer),
    toolPhaseMs: Math.max(0, now.toolPhaseMs - before.toolPhaseMs),
    answerPhaseMs: Math.max(0, now.answerPhaseMs - before.answerPhaseMs),
    ...(waitingMs ? { waitingMs } : {}),
    totalCostUsd: now.totalCostUsd === undefined || before.totalCostUsd === undefined ? now.totalCostUsd : Math.max(0, now.totalCostUsd - before.totalCostUsd),
  };
}
