// AG-UI's own usage accounting for runs that span interrupts: one entry per
// model (both phases on one model make one entry), and a run that resumes an
// interrupted one reports only the calls it made itself.
import type { TokenUsage } from '@ag-ui/core';
import type { ModelUsage, RunUsage } from '../protocol/agentEvents';

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens'] as const;
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
    byModel.set(key, total);
  }
  return [...byModel.values()];
}

function fromModelUsage(usage: ModelUsage): TokenUsage {
  return {
    model: usage.model,
    ...(usage.promptTokens !== undefined && { inputTokens: usage.promptTokens }),
    ...(usage.completionTokens !== undefined && { outputTokens: usage.completionTokens }),
    ...(usage.promptTokens !== undefined && usage.completionTokens !== undefined && { totalTokens: usage.promptTokens + usage.completionTokens }),
    ...(usage.cachedTokens !== undefined && { cachedInputTokens: usage.cachedTokens }),
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
    const delta: Mutable = { ...(entry.model !== undefined && { model: entry.model }) };
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
