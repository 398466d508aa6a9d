// Usage figures as the panel, the transcript and the log print them; here,
// below host and webview, because both print them. A count the server did
// not report, or a cost with no known price, shows as "–", never as 0 (the
// line under the table says why); each estimated count is labelled, not its
// neighbours.
import type { ModelUsage, RunUsage } from './agentEvents';
import { estimatedCounts, reportedUsd, wasCalled, type EstimatedCounts } from './usageFigures';

export interface UsageRow {
  readonly label: string;
  /** The row's tooltip when it names no model (else the role and the model). */
  readonly title?: string;
  readonly model: string;
  readonly tokensIn: string;
  readonly tokensOut: string;
  /** What the counts hold that the cells do not say (cached input, reasoning output); empty when nothing. */
  readonly tokensInTitle?: string;
  readonly tokensOutTitle?: string;
  readonly calls: string;
  readonly time: string;
  readonly cost: string;
}

/** Plain digits (no thousands separator), so a figure reads and compares the same as the server's count. */
export function formatCount(value: number | undefined, estimated = false): string {
  if (value === undefined) return '–';
  return `${estimated ? '~' : ''}${value}`;
}

export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatCost(usd: number | undefined, estimate: boolean): string {
  if (usd === undefined) return '–';
  const digits = usd !== 0 && usd < 1 ? 4 : 2;
  return `${estimate ? '≈ ' : ''}$${usd.toFixed(digits)}`;
}

/** "3 + 1 partial": attempts cut short (Stop, a dropped stream) spent tokens too, and are counted apart. */
export function formatCalls(calls: number, partialAttempts: number | undefined): string {
  return partialAttempts ? `${calls} + ${partialAttempts} partial` : String(calls);
}

const ESTIMATE_TITLE = '~ estimated locally, not counted by the server';

/** "1400 of them read from the cache" / "40 of them reasoning", when the server said so; and whether the count is an estimate. */
function cellTitle(count: number | undefined, what: string, estimated: boolean): string {
  return [...(estimated ? [ESTIMATE_TITLE] : []), ...(count ? [`${count} of them ${what}`] : [])].join('; ');
}

function row(label: string, usage: ModelUsage, ms: number): UsageRow {
  const estimated = estimatedCounts(usage);
  return {
    label,
    model: usage.model,
    tokensIn: formatCount(usage.promptTokens, estimated.prompt),
    tokensOut: formatCount(usage.completionTokens, estimated.completion),
    tokensInTitle: cellTitle(usage.cachedTokens, 'read from the cache', estimated.prompt),
    tokensOutTitle: cellTitle(usage.reasoningTokens, 'reasoning', estimated.completion),
    calls: formatCalls(usage.calls, usage.partialAttempts),
    time: formatSeconds(ms),
    // A model never asked (the function-call model in chat mode) cost nothing, rather than "≈ $0.00".
    cost: wasCalled(usage) ? formatCost(usage.costUsd, true) : '–',
  };
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

/** A sum of counts is an estimate where any of its parts is. */
function anyEstimated(usages: readonly ModelUsage[]): EstimatedCounts {
  const each = usages.map(estimatedCounts);
  return { prompt: each.some((counts) => counts.prompt), completion: each.some((counts) => counts.completion) };
}

export interface UsageTable {
  readonly functionCall: UsageRow;
  readonly answer: UsageRow;
  readonly total: UsageRow;
  /** One model served both phases: a single row for it (the total, under the model's name) replaces the two. */
  readonly singleModel: UsageRow | undefined;
  /** Why the cost is an estimate. */
  readonly costNote: string;
}

export function usageTable(usage: RunUsage): UsageTable {
  const estimated = anyEstimated([usage.functionCall, usage.answer]);
  const defaultPrice = usage.functionCall.costIsDefaultPrice || usage.answer.costIsDefaultPrice;
  const total: UsageRow = {
    label: 'Total',
    model: '',
    tokensIn: formatCount(sum(usage.functionCall.promptTokens, usage.answer.promptTokens), estimated.prompt),
    tokensOut: formatCount(sum(usage.functionCall.completionTokens, usage.answer.completionTokens), estimated.completion),
    tokensInTitle: cellTitle(sum(usage.functionCall.cachedTokens, usage.answer.cachedTokens), 'read from the cache', estimated.prompt),
    tokensOutTitle: cellTitle(sum(usage.functionCall.reasoningTokens, usage.answer.reasoningTokens), 'reasoning', estimated.completion),
    calls: formatCalls(usage.functionCall.calls + usage.answer.calls, (usage.functionCall.partialAttempts ?? 0) + (usage.answer.partialAttempts ?? 0)),
    time: formatSeconds(usage.toolPhaseMs + usage.answerPhaseMs),
    // No call completed: nothing was spent, and "≈ $0.00" would read as a figure.
    cost: wasCalled(usage.functionCall) || wasCalled(usage.answer) ? formatCost(usage.totalCostUsd, true) : '–',
  };
  return {
    functionCall: row('Function-call', usage.functionCall, usage.toolPhaseMs),
    answer: row('Answer', usage.answer, usage.answerPhaseMs),
    singleModel: sameModelBothPhases(usage) ? { ...total, label: 'Both phases', model: usage.functionCall.model } : undefined,
    total,
    costNote:
      'Estimated cost' +
      (defaultPrice ? ' (built-in prices; set tandem.pricing for yours)' : ' (from tandem.pricing)') +
      (estimated.prompt || estimated.completion ? '; ~ marks token counts estimated locally' : ''),
  };
}

/**
 * One model served both phases: the same name, and nothing telling them apart
 * (one name at two endpoints, a local server and a paid one, is two models).
 */
function sameModelBothPhases(usage: RunUsage): boolean {
  const { functionCall, answer } = usage;
  if (functionCall.model !== answer.model || (functionCall.servedLocally === true) !== (answer.servedLocally === true)) return false;
  // Prices go by name, so one model has one price (or none) in both phases.
  return !wasCalled(functionCall) || !wasCalled(answer) || (functionCall.costUsd === undefined) === (answer.costUsd === undefined);
}

/** The cost line under the table; a model without a price is named, never shown as free. */
export function costLine(usage: RunUsage, costNote: string, totalCost: string): string {
  const called = [usage.functionCall, usage.answer].filter(wasCalled);
  if (called.length === 0) return 'Cost: none (no model call completed).';
  if (usage.totalCostUsd !== undefined) return `${costNote}: ${totalCost}.`;
  // One name for two models (two endpoints): each is named with its phase.
  const twoOfOneName = called.length === 2 && usage.functionCall.model === usage.answer.model && !sameModelBothPhases(usage);
  const nameOf = (model: ModelUsage) => (twoOfOneName ? `"${model.model}" (${model === usage.functionCall ? 'function-call' : 'answer'} model)` : `"${model.model}"`);
  const unpricedModels = called.filter((model) => model.costUsd === undefined);
  const unpriced = [...new Set(unpricedModels.map(nameOf))];
  if (unpriced.length === 0) return 'Cost: unknown.';
  const names = unpriced.join(' and ');
  // A server on this machine bills nothing per token as a rule (a local proxy to a paid API may: hence "if").
  if (unpricedModels.every((model) => model.servedLocally)) {
    const local = `${names} ${unpriced.length === 1 ? 'runs' : 'run'} on this machine (if ${unpriced.length === 1 ? 'it costs' : 'they cost'}, add a price to tandem.pricing)`;
    // A priced model elsewhere in the same run still has its sum said, not hidden behind the local one's.
    const priced = called.filter((model) => model.costUsd !== undefined);
    if (priced.length > 0) {
      const pricedNames = [...new Set(priced.map(nameOf))].join(' and ');
      const pricedSum = priced.reduce((total, model) => total + (model.costUsd ?? 0), 0);
      return `${costNote}: ${formatCost(pricedSum, true)} for ${pricedNames}; not counted: ${local}.`;
    }
    return `Cost: not counted, ${local}.`;
  }
  return `Cost: unknown, no price is known for ${names} (add ${unpriced.length === 1 ? 'it' : 'them'} to tandem.pricing).`;
}

/**
 * The time line under the table, naming only the phases that ran: chat mode
 * has no function-call phase, and a model that answered directly in the tool
 * phase had no answer phase ("answer 0 ms" would suggest it answered in no time).
 * The function-call phase is the model's turns, the tools it called and any
 * retry waits, not the tools alone.
 */
export function timeLine(usage: RunUsage): string {
  const ran = (model: ModelUsage, ms: number) => wasCalled(model) || Math.round(ms) > 0;
  const phases = [
    ...(ran(usage.functionCall, usage.toolPhaseMs) ? [`function-call phase ${formatSeconds(usage.toolPhaseMs)}`] : []),
    ...(ran(usage.answer, usage.answerPhaseMs) ? [`answer ${formatSeconds(usage.answerPhaseMs)}`] : []),
  ];
  // Time the run stood waiting for the user is theirs, not the models': said apart, and in no phase.
  const waiting = (usage.waitingMs ?? 0) >= 500 ? [`waiting for you ${formatSeconds(usage.waitingMs ?? 0)}`] : [];
  if (phases.length === 1) return `Time: ${[phases[0], ...waiting].join(' · ')}`;
  return `Time: ${[...phases, `total ${formatSeconds(usage.toolPhaseMs + usage.answerPhaseMs)}`, ...waiting].join(' · ')}`;
}

/** The conversation's totals: every run's last usage added up. A cost is shown only if every run's is known. */
export function conversationRow(runs: readonly RunUsage[]): UsageRow & {
  readonly numbers: { tokensIn: number; tokensOut: number; cachedTokens: number; calls: number; partialAttempts: number; costUsd: number | undefined };
} {
  let tokensIn = 0;
  let tokensOut = 0;
  let cachedTokens = 0;
  let reasoningTokens = 0;
  let calls = 0;
  let partialAttempts = 0;
  let costUsd: number | undefined = 0;
  const estimated = anyEstimated(runs.flatMap((run) => [run.functionCall, run.answer]));
  let ms = 0;
  for (const run of runs) {
    for (const usage of [run.functionCall, run.answer]) {
      tokensIn += usage.promptTokens ?? 0;
      tokensOut += usage.completionTokens ?? 0;
      cachedTokens += usage.cachedTokens ?? 0;
      reasoningTokens += usage.reasoningTokens ?? 0;
      calls += usage.calls;
      partialAttempts += usage.partialAttempts ?? 0;
    }
    ms += run.toolPhaseMs + run.answerPhaseMs;
    costUsd = costUsd === undefined || run.totalCostUsd === undefined ? undefined : costUsd + run.totalCostUsd;
  }
  return {
    // "Chat", as the panel's New chat button calls a conversation: short enough for a narrow sidebar.
    label: 'Chat',
    title: 'Every run of this chat',
    model: '',
    tokensIn: formatCount(tokensIn, estimated.prompt),
    tokensOut: formatCount(tokensOut, estimated.completion),
    tokensInTitle: cellTitle(cachedTokens, 'read from the cache', estimated.prompt),
    tokensOutTitle: cellTitle(reasoningTokens, 'reasoning', estimated.completion),
    calls: formatCalls(calls, partialAttempts),
    time: formatSeconds(ms),
    cost: formatCost(costUsd, true),
    // Summed unrounded, reported rounded: the runs' costs add up without float noise.
    numbers: { tokensIn, tokensOut, cachedTokens, calls, partialAttempts, costUsd: reportedUsd(costUsd) },
  };
}

/** `local-fc 2200 in (1400 cached) / ~60 out, 2 calls; local-answer 900 in / 30 out, 1 call; ≈ $0.0278`: a run's usage on one line, for the log. */
export function usageLogLine(usage: RunUsage): string {
  const models = [usage.functionCall, usage.answer].filter(wasCalled).map((model) => {
    const estimated = estimatedCounts(model);
    const cached = model.cachedTokens ? ` (${model.cachedTokens} cached)` : '';
    const calls = `${formatCalls(model.calls, model.partialAttempts)} call${model.calls === 1 && !model.partialAttempts ? '' : 's'}`;
    return `${model.model} ${formatCount(model.promptTokens, estimated.prompt)} in${cached} / ${formatCount(model.completionTokens, estimated.completion)} out, ${calls}`;
  });
  return [...models, usage.totalCostUsd === undefined ? 'cost unknown' : formatCost(usage.totalCostUsd, true)].join('; ');
}
