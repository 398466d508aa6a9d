// Stops at the run budget (tandem.agent.maxTokensPerRun, tandem.agent.maxCostPerRun;
// 0 = no limit). The answer model still answers from what was gathered.
import type { StopPredicate } from './loopState';

export function budgetLimit(maxTokensPerRun: number, maxCostPerRun: number): StopPredicate {
  return (state) => {
    if (maxTokensPerRun > 0 && state.tokensUsed >= maxTokensPerRun) {
      const reason = `Reached the run budget of ${maxTokensPerRun} tokens (tandem.agent.maxTokensPerRun; ${state.tokensUsed} used); answering from what was gathered.`;
      return { stopReason: 'budget', reason, notice: { code: 'budget', text: reason } };
    }
    if (maxCostPerRun > 0 && state.costUsd !== undefined && state.costUsd >= maxCostPerRun) {
      const reason = `Reached the run budget of $${maxCostPerRun} (tandem.agent.maxCostPerRun; $${state.costUsd.toFixed(4)} spent); answering from what was gathered.`;
      return { stopReason: 'budget', reason, notice: { code: 'budget', text: reason } };
    }
    return undefined;
  };
}
