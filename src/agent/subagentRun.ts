// `run_subagent` for one run: a fresh run of the same agent on the task alone,
// with the workspace's reads, the caller's models and rules, what is left of
// its budgets, and a time limit that leaves the caller time to answer. Its
// model calls count in the caller's usage as they happen.
import type { AgentEvent } from '../protocol/agentEvents';
import { CustomEventName } from '../protocol/agentEvents';
import type { Tool } from '../tools/tool';
import { AgentClock } from './agentClock';
import type { AgentSettings } from './agentSettings';
import type { AgentDependencies, RunInput } from './runAgent';
import type { RunEmitter } from './runEmitter';
import { SessionCache } from './sessionCache';
import { createSubagentTool, subagentPrompt, subagentTools, type SubagentStarter } from './subagentTool';
import type { UsageRecorder, UsageTracker } from './usageTracker';

export type RunAgent = (input: RunInput, deps: AgentDependencies, signal: AbortSignal) => AsyncIterable<AgentEvent>;

/**
 * `deps.tools` with `run_subagent` when the setting is on and there are reads to give it.
 * `run` is runAgent, passed in: runAgent offers this tool, so importing it here would be a cycle.
 */
export function withSubagent(run: RunAgent, input: RunInput, deps: AgentDependencies, usage: UsageTracker, emitter: RunEmitter): readonly Tool[] {
  const reads = subagentTools(deps.tools);
  if (deps.settings.subagents !== true || reads.length === 0) return deps.tools;
  const recorder: UsageRecorder = {
    recordCall: (role, turn) => {
      usage.recordCall(role, turn, { meter: false });
      emitter.custom(CustomEventName.usage, usage.snapshot());
    },
    recordPartial: (role, partial) => usage.recordPartial(role, partial),
  };
  const start: SubagentStarter = (task, tools, approval, context) => {
    const spent = usage.snapshot();
    const tokens = [spent.functionCall, spent.answer].reduce((sum, role) => sum + (role.promptTokens ?? 0) + (role.completionTokens ?? 0), 0);
    const { maxTokensPerRun, maxCostPerRun, maxExecutionSeconds } = deps.settings;
    // Its tool phase ends with a quarter of the caller's time left, for its report: cut off by the caller's limit, it would report nothing.
    const left = context.timeLeftMs?.();
    const seconds = left === undefined ? maxExecutionSeconds : Math.min(maxExecutionSeconds, Math.max(1, Math.floor((left * 0.75) / 1000)));
    const settings: AgentSettings = {
      ...deps.settings,
      mode: 'agent',
      subagents: false,
      // Its report is all the caller reads: it streams nothing to the user and answers rather than waits.
      responseMode: 'integrated',
      nonToolReply: 'answer',
      maxExecutionSeconds: seconds,
      maxTokensPerRun: maxTokensPerRun > 0 ? Math.max(1, maxTokensPerRun - tokens) : 0,
      maxCostPerRun: maxCostPerRun > 0 && spent.totalCostUsd !== undefined ? Math.max(Number.EPSILON, maxCostPerRun - spent.totalCostUsd) : maxCostPerRun,
    };
    const log = deps.log;
    return run(
      {
        threadId: input.threadId,
        runId: `${input.runId}/${context.callId}`,
        messages: [{ role: 'user', content: subagentPrompt(task) }],
        mode: 'agent',
        rules: input.rules,
        nestedRules: input.nestedRules,
      },
      {
        ...deps,
        tools,
        approval,
        settings,
        cache: new SessionCache(),
        clock: new AgentClock(),
        elicitor: undefined,
        usageParent: recorder,
        log: log && ((line) => log(`subagent ${context.callId}: ${line}`)),
      },
      context.signal,
    );
  };
  return [...deps.tools, createSubagentTool(reads, start)];
}
