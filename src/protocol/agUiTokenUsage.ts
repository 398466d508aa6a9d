// A model's usage as AG-UI's TokenUsage: the one mapping RUN_FINISHED and the
// AG-UI accounting share. A count never reported stays absent, never 0.
import type { TokenUsage } from '@ag-ui/core';
import type { ModelUsage } from './agentEvents';
import { estimatedCounts } from './usageFigures';

export type AgUiCount = 'inputTokens' | 'outputTokens' | 'totalTokens';

/**
 * TokenUsage takes more keys: this one marks counts Tandem estimated, so no
 * client takes them for the provider's. `estimated` stays true when any is;
 * `estimatedCounts` names which.
 */
export interface EstimateMarker {
  readonly tandem: { readonly estimated: true; readonly estimatedCounts: readonly AgUiCount[] };
}

export function agUiTokenUsage(usage: ModelUsage): TokenUsage {
  const { prompt, completion } = estimatedCounts(usage);
  const total = usage.promptTokens !== undefined && usage.completionTokens !== undefined ? usage.promptTokens + usage.completionTokens : undefined;
  const estimates: AgUiCount[] = [];
  if (prompt && usage.promptTokens !== undefined) estimates.push('inputTokens');
  if (completion && usage.completionTokens !== undefined) estimates.push('outputTokens');
  if (total !== undefined && estimates.length > 0) estimates.push('totalTokens');
  return {
    model: usage.model,
    ...(usage.promptTokens !== undefined && { inputTokens: usage.promptTokens }),
    ...(usage.completionTokens !== undefined && { outputTokens: usage.completionTokens }),
    ...(total !== undefined && { totalTokens: total }),
    ...(usage.cachedTokens !== undefined && { cachedInputTokens: usage.cachedTokens }),
    ...(usage.reasoningTokens !== undefined && { reasoningTokens: usage.reasoningTokens }),
    ...(estimates.length > 0 && estimateMarker(estimates)),
  };
}

export function estimateMarker(counts: readonly AgUiCount[]): EstimateMarker {
  return { tandem: { estimated: true, estimatedCounts: counts } };
}

/** The counts an entry marks as estimated; a bare `estimated: true` marks them all. */
export function estimatedAgUiCounts(entry: TokenUsage): readonly AgUiCount[] {
  const marker = (entry as { tandem?: { estimated?: unknown; estimatedCounts?: unknown } }).tandem;
  if (marker?.estimated !== true) return [];
  return Array.isArray(marker.estimatedCounts) ? (marker.estimatedCounts as AgUiCount[]) : ['inputTokens', 'outputTokens', 'totalTokens'];
}
