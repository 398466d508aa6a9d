// Usage per model role across one run: tokens, calls, phase times and cost.
// Counts a server did not report stay undefined rather than becoming 0.
import type { TokenUsage as AgUiTokenUsage } from '@ag-ui/core';
import type { ModelTurn, TokenUsage } from '../models/chatModel';
import { callEstimatedCounts } from '../models/usageEstimate';
import type { ModelRole, ModelUsage, RunUsage } from '../protocol/agentEvents';
import { agUiTokenUsage } from '../protocol/agUiTokenUsage';
import { reportedUsd, wasCalled } from '../protocol/usageFigures';
import type { ModelPrice } from './agentSettings';
import { costOf, findPrice } from './pricing';

interface Tally {
  model: string;
  calls: number;
  promptTokens: number | undefined;
  completionTokens: number | undefined;
  cachedTokens: number | undefined;
  reasoningTokens: number | undefined;
  /** Calls and attempts whose prompt / completion count was a local estimate. */
  estimatedPrompts: number;
  estimatedCompletions: number;
  /** Calls whose counts were missing entirely (cost cannot be complete). */
  incomplete: boolean;
  /** Failed or aborted attempts whose (estimated) tokens are included. */
  partialAttempts: number;
  /** The model's price, looked up once: the model and the pricing table are fixed for the run. */
  readonly price: ReturnType<typeof findPrice>;
}

function add(total: number | undefined, value: number | undefined, first: boolean): number | undefined {
  if (value === undefined) return first ? undefined : total;
  return (total ?? 0) + value;
}

/** Where a run's model calls are also counted: a subagent's in the run that started it. */
export interface UsageRecorder {
  recordCall(role: ModelRole, turn: Pick<ModelTurn, 'usage'>, options?: { meter?: boolean }): void;
  recordPartial(role: ModelRole, usage: TokenUsage): void;
}

export class UsageTracker implements UsageRecorder {
  private readonly tallies: Record<ModelRole, Tally>;
  private toolPhaseMs = 0;
  private answerPhaseMs = 0;

  constructor(
    functionCallModel: string,
    answerModel: string,
    pricing: Readonly<Record<string, ModelPrice>>,
    /** Time the run has spent waiting on a person (the run's clock, paused): left out of the phases. */
    private readonly waitedMs: () => number = () => 0,
    /** The roles whose model's server runs on this machine. */
    private readonly servedLocally: Partial<Record<ModelRole, boolean>> = {},
  ) {
    const empty = (model: string): Tally => ({
      model,
      calls: 0,
      promptTokens: undefined,
      completionTokens: undefined,
      cachedTokens: undefined,
      reasoningTokens: undefined,
      estimatedPrompts: 0,
      estimatedCompletions: 0,
      incomplete: false,
      partialAttempts: 0,
      price: findPrice(model, pricing),
    });
    this.tallies = { 'function-call': empty(functionCallModel), answer: empty(answerModel) };
  }

  /** Also told of every call and partial attempt (a subagent's tracker tells its caller's). */
  alsoRecordIn: UsageRecorder | undefined;

  /** Told of every finished call (the run's context meter listens). */
  onCall: ((role: ModelRole, turn: Pick<ModelTurn, 'usage'>) => void) | undefined;

  /** `meter: false`: a call on the side (a condensed summary) that is not the request the context meter shows. */
  recordCall(role: ModelRole, turn: Pick<ModelTurn, 'usage'>, options?: { meter?: boolean }): void {
    if (options?.meter !== false) this.onCall?.(role, turn);
    this.alsoRecordIn?.recordCall(role, turn, { meter: false });
    const tally = this.tallies[role];
    const first = tally.calls === 0 && tally.partialAttempts === 0;
    tally.calls++;
    tally.promptTokens = add(tally.promptTokens, turn.usage.promptTokens, first);
    tally.completionTokens = add(tally.completionTokens, turn.usage.completionTokens, first);
    tally.cachedTokens = add(tally.cachedTokens, turn.usage.cachedTokens, first);
    // Said only by servers that say it: a call that did not leaves the total as it was.
    if (turn.usage.reasoningTokens !== undefined) tally.reasoningTokens = (tally.reasoningTokens ?? 0) + turn.usage.reasoningTokens;
    const estimated = callEstimatedCounts(turn.usage);
    if (estimated.prompt) tally.estimatedPrompts++;
    if (estimated.completion) tally.estimatedCompletions++;
    if (turn.usage.promptTokens === undefined || turn.usage.completionTokens === undefined) tally.incomplete = true;
  }

  /** Tokens a failed or aborted attempt spent: counted, marked estimated and partial. */
  recordPartial(role: ModelRole, usage: TokenUsage): void {
    this.alsoRecordIn?.recordPartial(role, usage);
    const tally = this.tallies[role];
    const first = tally.calls === 0 && tally.partialAttempts === 0;
    tally.partialAttempts++;
    tally.promptTokens = add(tally.promptTokens, usage.promptTokens, first);
    tally.completionTokens = add(tally.completionTokens, usage.completionTokens, first);
    const estimated = callEstimatedCounts(usage);
    if (estimated.prompt) tally.estimatedPrompts++;
    if (estimated.completion) tally.estimatedCompletions++;
  }

  private running: { phase: 'tools' | 'answer'; since: number; waitedBefore: number } | undefined;

  /** Starts timing a phase (ending the one before); snapshots include its time so far. */
  beginPhase(phase: 'tools' | 'answer', now = Date.now()): void {
    this.endPhase(now);
    this.running = { phase, since: now, waitedBefore: this.waitedMs() };
  }

  /** The running phase's time so far, without the waits on a person in it. */
  private runningMs(now: number): number {
    if (!this.running) return 0;
    return Math.max(0, now - this.running.since - (this.waitedMs() - this.running.waitedBefore));
  }

  currentPhase(): 'tools' | 'answer' | undefined {
    return this.running?.phase;
  }

  endPhase(now = Date.now()): void {
    if (!this.running) return;
    this.addPhaseTime(this.running.phase, this.runningMs(now));
    this.running = undefined;
  }

  private addPhaseTime(phase: 'tools' | 'answer', milliseconds: number): void {
    if (phase === 'tools') this.toolPhaseMs += milliseconds;
    else this.answerPhaseMs += milliseconds;
  }

  /** Unrounded, to be summed before it is reported. A model never called has no cost (not $0: there is nothing to price). */
  private cost(tally: Tally): number | undefined {
    // An attempt cut short (Stop in the middle of the answer) was paid for too: its estimated tokens are priced.
    return tally.price && !tally.incomplete && wasCalled(tally) ? costOf(tally, tally.price.price) : undefined;
  }

  private modelUsage(role: ModelRole): ModelUsage {
    const tally = this.tallies[role];
    const estimated = tally.estimatedPrompts + tally.estimatedCompletions > 0;
    return {
      role,
      model: tally.model,
      calls: tally.calls,
      promptTokens: tally.promptTokens,
      completionTokens: tally.completionTokens,
      cachedTokens: tally.cachedTokens,
      ...(tally.reasoningTokens !== undefined && { reasoningTokens: tally.reasoningTokens }),
      estimated,
      ...(estimated && { estimatedCalls: { prompt: tally.estimatedPrompts, completion: tally.estimatedCompletions } }),
      ...(tally.partialAttempts > 0 && { partialAttempts: tally.partialAttempts }),
      costUsd: reportedUsd(this.cost(tally)),
      costIsDefaultPrice: tally.price?.isDefault ?? false,
      ...(this.servedLocally[role] && { servedLocally: true }),
    };
  }

  snapshot(): RunUsage {
    const functionCall = this.modelUsage('function-call');
    const answer = this.modelUsage('answer');
    const costs = Object.values(this.tallies).filter(wasCalled).map((tally) => this.cost(tally));
    const totalCostUsd = costs.some((cost) => cost === undefined) ? undefined : reportedUsd(costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0));
    const elapsed = this.runningMs(Date.now());
    const toolPhaseMs = this.toolPhaseMs + (this.running?.phase === 'tools' ? elapsed : 0);
    const answerPhaseMs = this.answerPhaseMs + (this.running?.phase === 'answer' ? elapsed : 0);
    const waitingMs = this.waitedMs();
    return { functionCall, answer, toolPhaseMs, answerPhaseMs, ...(waitingMs > 0 && { waitingMs }), totalCostUsd };
  }

  /** AG-UI's own accounting, for RUN_FINISHED: one entry per model role that was called. */
  toAgUi(): AgUiTokenUsage[] {
    return (['function-call', 'answer'] as const).map((role) => this.modelUsage(role)).filter(wasCalled).map(agUiTokenUsage);
  }
}

