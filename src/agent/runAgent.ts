// One run of Tandem: agent mode (tool phase, then answer phase) or chat mode
// (answer phase only), as a stream of AG-UI events. Nothing here throws out
// of the stream: every way out ends with RUN_FINISHED or RUN_ERROR.
import { EventType } from '@ag-ui/core';
import type { ChatMessage, ChatModel, ModelSettings } from '../models/chatModel';
import { isLoopbackUrl } from '../common/httpUrl';
import type { ApprovalGate, Tool } from '../tools/tool';
import { CustomEventName, type AgentEvent, type MessageKindPayload, type PhasePayload, type StopReason } from '../protocol/agentEvents';
import { AgentClock } from './agentClock';
import type { AgentSettings } from './agentSettings';
import { runAnswerPhase, StoppedAnswer } from './answerPhase';
import { noticeAnswerEnding } from './answerEnding';
import { offeredTools } from './toolLimit';
import { attachContextMeter } from './contextMeter';
import { CancelledError, ContextOverflowError, isCancellation, ModelApiError, TandemError } from '../common/errors';
import { ContextBudget } from './contextBudget';
import { EventChannel } from './eventChannel';
import { answerMessages, CHAT_SYSTEM_PROMPT, FINDING_LIMIT } from './prompts';
import { rulesNotice } from './rules';
import { costCapWithoutPrice } from './pricing';
import { systemPrompt } from './promptTemplates';
import type { NestedRulesFinder } from '../tools/nestedRules';
import type { RuleFile } from '../tools/rulesFiles';
import { RunRules } from './runRules';
import { lengthEvaluator, type ResultEvaluator } from './resultEvaluator';
import { RunEmitter } from './runEmitter';
import { createRunElicitation, type Elicitor } from './runElicitation';
import { createRunSampling } from './runSampling';
import { createRunApprovalGate, isApprover, pausingGate, type Approver } from './runApprovalGate';
import { capResult } from './resultCap';
import { runToolPhase, type ToolPhaseResult } from './toolPhase';
import { UsageTracker, type UsageRecorder } from './usageTracker';
import { withSubagent } from './subagentRun';
import { SessionCache } from './sessionCache';
import type { Steering } from './steering';

export interface RunInput {
  readonly threadId: string;
  readonly runId: string;
  /** The conversation so far, ending with the user's new message. */
  readonly messages: readonly ChatMessage[];
  /** Overrides `settings.mode` for this run. */
  readonly mode?: 'agent' | 'chat' | undefined;
  /** The repository's rules files; their text joins both models' system prompts. */
  readonly rules?: readonly RuleFile[] | undefined;
  /** Finds the nested rules files (the nearest AGENTS.md) above files the run touches; absent: root rules only. */
  readonly nestedRules?: NestedRulesFinder | undefined;
  /** Where messages the user sends into the run while its tools go come from (steering.ts); absent: none can be. */
  readonly steering?: Steering | undefined;
}

export interface AgentDependencies {
  readonly functionCallModel: ChatModel;
  /** The same object as `functionCallModel` in single-model mode. */
  readonly answerModel: ChatModel;
  readonly tools: readonly Tool[];
  /**
   * How a call that needs approval is asked: an Approver (the run applies the
   * policy from `settings`, emits `tandem.approval` events and pauses its
   * clock), or a gate that decides by itself (the clock still pauses).
   */
  readonly approval: Approver | ApprovalGate;
  readonly settings: AgentSettings;
  readonly cache: SessionCache;
  /** Judges tool results; defaults to the length check of `tandem.agent.minResultLength`. */
  readonly evaluator?: ResultEvaluator | undefined;
  /** Verbose log sink (thoughts, tool inputs and outputs). */
  readonly log?: ((line: string) => void) | undefined;
  /** Agent time for the time limits; whoever waits on a person pauses it (default: a clock nobody pauses). */
  readonly clock?: AgentClock | undefined;
  /** Asks a person an MCP server's question (the panel's card); absent: such questions are declined. */
  readonly elicitor?: Elicitor | undefined;
  /** Where this run's model calls are also counted (a subagent's run: in its caller's usage). */
  readonly usageParent?: UsageRecorder | undefined;
}

/** What RUN_FINISHED carries as its `result`. */
export interface RunResult {
  readonly stopReason: StopReason | 'cancelled';
  readonly answer: string;
}

const STOP_NOTICE: Partial<Record<StopReason, 'info' | 'warning'>> = {
  maxIterations: 'warning',
  timeLimit: 'warning',
  mistakes: 'warning',
  awaitingUser: 'info',
};

export function runAgent(input: RunInput, deps: AgentDependencies, signal: AbortSignal): AsyncGenerator<AgentEvent, void, void> {
  const channel = new EventChannel<AgentEvent>();
  const emitter = new RunEmitter((event) => channel.push(event));
  void execute(input, deps, signal, emitter).finally(() => channel.close());
  // The channel is the stream itself: no generator wrapped around it, one promise hop per event.
  return channel;
}

async function execute(input: RunInput, deps: AgentDependencies, signal: AbortSignal, emitter: RunEmitter): Promise<void> {
  const { settings } = deps;
  const mode = input.mode ?? settings.mode;
  const clock = deps.clock ?? new AgentClock();
  const local = (model: ModelSettings) => model.provider !== 'vscode' && isLoopbackUrl(model.baseUrl);
  const usage = new UsageTracker(deps.functionCallModel.name, deps.answerModel.name, settings.pricing, () => clock.pausedMs(), {
    'function-call': local(settings.functionCallModel),
    answer: local(settings.answerModel),
  });
  usage.alsoRecordIn = deps.usageParent;
  const names = { functionCallModel: deps.functionCallModel.name, answerModel: deps.answerModel.name };
  const singleModel = deps.functionCallModel === deps.answerModel;
  const models = { 'function-call': settings.functionCallModel, answer: settings.answerModel };
  const windows = attachContextMeter(usage, emitter, models);
  const budget = new ContextBudget({ models, windows, summarizer: deps.answerModel, emitter, usage, log: deps.log }, input.messages);
  let answer = '';
  const finished = (stopReason: RunResult['stopReason']) => {
    emitter.closeAll();
    emitter.custom(CustomEventName.usage, usage.snapshot());
    emitter.emit({
      type: EventType.RUN_FINISHED,
      threadId: input.threadId,
      runId: input.runId,
      // Blank lines are no answer, on every path: the result says so (empty).
      result: { stopReason, answer: answer.trim() ? answer : '' } satisfies RunResult,
      outcome: stopReason === 'cancelled' ? { type: 'cancelled' } : { type: 'success' },
      usage: usage.toAgUi(),
    });
  };

  const approval = isApprover(deps.approval)
    ? createRunApprovalGate({
        approver: deps.approval,
        policy: { autoApprove: settings.autoApprove, alwaysAllow: settings.alwaysAllow ?? [] },
        emitter,
        clock,
        log: deps.log,
      })
    : pausingGate(deps.approval, clock);
  const elicit = deps.elicitor === undefined ? undefined : createRunElicitation(deps.elicitor, emitter, clock);

  // Cached results live for one run only: between runs the user may edit any file.
  deps.cache.invalidate();
  emitter.emit({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId });
  usage.beginPhase(mode === 'chat' ? 'answer' : 'tools');
  try {
    if (signal.aborted) throw new CancelledError();
    const question = lastUserText(input.messages);
    const rules = new RunRules(input.rules, input.nestedRules);
    if (input.rules?.length) emitter.notice('rules', 'info', rulesNotice(input.rules));
    let answerInput: ChatMessage[];
    let stopReason: StopReason;

    if (mode === 'chat') {
      stopReason = 'chatMode';
      answerInput = [{ role: 'system', content: systemPrompt(settings.prompts, 'chat', CHAT_SYSTEM_PROMPT, { model: names.answerModel, rules: input.rules }) }, ...budget.conversation];
    } else {
      const offered = offeredTools(withSubagent(runAgent, input, deps, usage, emitter));
      if (offered.notice !== undefined) emitter.notice('toolsCapped', 'warning', offered.notice);
      const unenforced = costCapWithoutPrice(settings);
      if (unenforced !== undefined) emitter.notice('settings', 'warning', unenforced);
      emitter.custom(CustomEventName.phase, { phase: 'tools', role: 'function-call', model: names.functionCallModel, ...names } satisfies PhasePayload, {
        role: 'function-call',
        model: names.functionCallModel,
      });
      const tools: ToolPhaseResult = await runToolPhase({
        runId: input.runId,
        conversation: input.messages,
        question,
        model: deps.functionCallModel,
        tools: offered.tools,
        approval,
        elicit,
        sample: createRunSampling({ model: deps.answerModel, usage, emitter, log: deps.log }),
        cache: deps.cache,
        settings,
        evaluator: deps.evaluator ?? lengthEvaluator,
        emitter,
        usage,
        signal,
        log: deps.log,
        clock,
        rules,
        singleModel,
        budget,
        steering: input.steering,
      });
      usage.endPhase();
      stopReason = tools.stopReason;
      const level = STOP_NOTICE[stopReason];
      if (level) emitter.notice(stopReason, level, tools.reason);

      if (stopReason === 'awaitingUser') {
        // The reply is shown as it is (the message it streamed in becomes the answer); the next user message continues the conversation.
        if (tools.finalMessageId && tools.finalReply?.trim()) {
          emitter.custom(CustomEventName.messageKind, { messageId: tools.finalMessageId, kind: 'answer', role: 'function-call', model: names.functionCallModel } satisfies MessageKindPayload);
          answer = tools.finalReply;
        } else {
          const reply = emitter.text('answer', 'function-call', names.functionCallModel);
          reply.append(tools.finalReply || '(The model replied without text.)');
          reply.close();
          answer = reply.text;
        }
        finished(stopReason);
        return;
      }
      if (singleModel && stopReason === 'noToolCall' && tools.finalReply?.trim() && tools.finalMessageId) {
        // One model serves both phases and it has answered: its streamed reply is the answer, no second request.
        emitter.custom(
          CustomEventName.phase,
          { phase: 'answer', role: 'answer', model: names.answerModel, stopReason, reason: 'The model answered directly (one model serves both phases).', ...names } satisfies PhasePayload,
          { role: 'answer', model: names.answerModel },
        );
        emitter.custom(CustomEventName.messageKind, { messageId: tools.finalMessageId, kind: 'answer', role: 'function-call', model: names.functionCallModel } satisfies MessageKindPayload);
        answer = tools.finalReply;
        finished(stopReason);
        return;
      }
      const limited = stopReason === 'noToolCall' || stopReason === 'finished' || stopReason === 'sufficient' ? undefined : tools.reason;
      // The conversation as the tool phase left it (earlier turns condensed, if they were).
      // The model's last reply takes a finding's share too.
      const findingLimit = await budget.findingLimit(tools.findings.length + (tools.finalReply ? 1 : 0), FINDING_LIMIT);
      // Capped as a finding is: a long last reply is the model's text, not the instructions, and must not crowd them out.
      const concluded = tools.finalReply ? `The tool-using model concluded: ${capResult(tools.finalReply, findingLimit)}` : undefined;
      answerInput = answerMessages(
        [...budget.conversation, ...tools.steered],
        tools.findings,
        [limited, concluded].filter(Boolean).join(' ') || undefined,
        rules.files(),
        (builtIn) => systemPrompt(settings.prompts, 'answer', builtIn, { model: names.answerModel, rules: rules.files() }),
        findingLimit,
      );
      emitter.custom(
        CustomEventName.phase,
        { phase: 'answer', role: 'answer', model: names.answerModel, stopReason, reason: tools.reason, ...names } satisfies PhasePayload,
        { role: 'answer', model: names.answerModel },
      );
    }

    usage.beginPhase('answer');
    if (mode === 'chat') {
      emitter.custom(
        CustomEventName.phase,
        { phase: 'answer', role: 'answer', model: names.answerModel, stopReason, reason: 'Chat mode: no tools.', ...names } satisfies PhasePayload,
        { role: 'answer', model: names.answerModel },
      );
    }
    emitter.stepStarted('answer');
    const outcome = await runAnswerPhase({ model: deps.answerModel, messages: answerInput, emitter, usage, signal, budget });
    answer = outcome.text;
    emitter.stepFinished();
    noticeAnswerEnding(outcome, emitter, settings.answerModel.maxTokens);
    usage.endPhase();
    finished(stopReason);
  } catch (error) {
    const phase = usage.currentPhase() ?? 'answer';
    usage.endPhase();
    if (isCancellation(error) || signal.aborted) {
      // What the user saw of a stopped answer stays in the conversation.
      if (error instanceof StoppedAnswer) answer = error.shown;
      emitter.closeAll();
      // Stopped by something other than the Stop button (another conversation opened) says so.
      emitter.notice('cancelled', 'info', signal.reason instanceof CancelledError ? signal.reason.message : 'Stopped.');
      finished('cancelled');
      return;
    }
    emitter.closeAll();
    emitter.custom(CustomEventName.usage, usage.snapshot());
    const suggestion = suggestionFor(error, phase);
    const message = error instanceof Error ? error.message : String(error);
    deps.log?.(`run failed: ${message}`);
    emitter.emit({
      type: EventType.RUN_ERROR,
      message,
      code: error instanceof ContextOverflowError ? 'CONTEXT_OVERFLOW' : error instanceof ModelApiError ? 'MODEL_API_ERROR' : error instanceof TandemError ? error.name : 'INTERNAL_ERROR',
      metadata: { suggestion, phase },
      usage: usage.toAgUi(),
    });
  }
}

/**
 * The run's tools, with run_subagent when the settings offer it and there is
 * something to read. The subagent is this agent again, on the task alone: the
 * same models and rules, the reads only, the run's gate, its own clock and
 * cache, what is left of the run's token and cost budget, and its calls
 * counted (and shown) in this run's usage.
 */
function suggestionFor(error: unknown, phase: 'tools' | 'answer'): string {
  if (error instanceof TandemError && error.suggestion) return error.suggestion;
  if (error instanceof ModelApiError) return 'Retry, or check the model settings (base URL, model name, API key).';
  return phase === 'tools'
    ? 'Retry, or switch to Chat mode to ask without tools. Details are in the Tandem log.'
    : 'Retry; details are in the Tandem log.';
}

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user') return message.content;
  }
  return '';
}
