// The ReAct loop of the function-call model: think, call tools, read the
// results, repeat. Each iteration is one model call; the loop ends by one of
// the StopReasons and returns what was gathered for the answer phase.
import { EventType } from '@ag-ui/core';
import type { ChatMessage, ModelTurn, ToolCall, ToolSchema } from '../models/chatModel';
import type { RunUsage } from '../protocol/agentEvents';
import type { Tool } from '../tools/tool';
import { CustomEventName, type RetryPayload, type SteeredPayload, type StopReason } from '../protocol/agentEvents';
import { AgentClock } from './agentClock';
import type { AgentSettings } from './agentSettings';
import { CancelledError, isCancellation } from '../common/errors';
import { LoopDetector } from './loopDetector';
import { rawCallSignature } from './canonicalJson';
import { runModelTurn } from './modelTurn';
import { systemPrompt } from './promptTemplates';
import { nestedRulesNotice } from './rules';
import type { RunRules } from './runRules';
import { FINISH_TOOL_NAME, finishTool, functionCallSystemPrompt, toolList, insufficientNote, loopWarning, REMINDER, TRUNCATED_NOTE, type Finding } from './prompts';
import type { EvaluatedResult, ResultEvaluator } from './resultEvaluator';
import type { RunEmitter, StreamedMessage } from './runEmitter';
import type { SessionCache } from './sessionCache';
import { TextGate } from './textGate';
import { showTextAsReasoning } from './reasoningFromText';
import { executeCalls, InterruptedRound, resultForModel, type CallOutcome } from './toolExecutor';
import { capResult } from './resultCap';
import { callsLeftOutNote, callsLeftOutNotice, callsToMake } from './callLimit';
import { dropOlderImages, imagesMessage, keptImages, withoutImages } from './toolImages';
import { classifyTurn, type TurnClass } from './turnClassifier';
import { budgetLimit } from './stopWhen/budgetLimit';
import { iterationLimit } from './stopWhen/iterationLimit';
import { loopGuard } from './stopWhen/loopGuard';
import { firstStop, type LoopState, type StopDecision, type StopPredicate } from './stopWhen/loopState';
import { MISTAKE_LIMIT, mistakeLimit } from './stopWhen/mistakeLimit';
import { timeLimit } from './stopWhen/timeLimit';
import type { UsageTracker } from './usageTracker';
import type { ApprovalGate } from '../tools/tool';
import type { ElicitationHandler } from '../tools/elicitation';
import type { RunSampler } from './runSampling';
import type { ChatModel } from '../models/chatModel';
import type { ContextBudget } from './contextBudget';
import { steerChatMessage, type Steering } from './steering';
import { todoLines } from '../tools/todoText';

export { MISTAKE_LIMIT };

export interface ToolPhaseContext {
  readonly runId: string;
  readonly conversation: readonly ChatMessage[];
  readonly question: string;
  readonly model: ChatModel;
  readonly tools: readonly Tool[];
  readonly approval: ApprovalGate;
  readonly elicit?: ElicitationHandler | undefined;
  /** Lends the run's model to an MCP server during its tool call (sampling), once the user approves. */
  readonly sample?: RunSampler | undefined;
  readonly cache: SessionCache;
  readonly settings: AgentSettings;
  readonly evaluator: ResultEvaluator;
  readonly emitter: RunEmitter;
  readonly usage: UsageTracker;
  readonly signal: AbortSignal;
  readonly log?: ((line: string) => void) | undefined;
  /** Agent time for the time limit; a wait on a person pauses it. */
  readonly clock?: AgentClock | undefined;
  /** The repository's rules files, appended to the system prompt; nested ones join as files are touched. */
  readonly rules?: RunRules | undefined;
  /** One model serves both phases: a reply without a tool call is the answer, streamed as a text message. */
  readonly singleModel?: boolean | undefined;
  /** Keeps each request inside the window (condenses older turns); absent: requests go as they are. */
  readonly budget?: ContextBudget | undefined;
  /** Messages the user sends into the run while it goes, read before the next step (absent: none can be). */
  readonly steering?: Steering | undefined;
}

export interface ToolPhaseResult {
  readonly stopReason: StopReason;
  /** Why, in words for the user. */
  readonly reason: string;
  readonly findings: readonly Finding[];
  /** The function-call model's last words without a tool call, if any. */
  readonly finalReply: string | undefined;
  /** The text message that streamed the last reply (single-model and streaming modes). */
  readonly finalMessageId?: string | undefined;
  /** The messages the user sent into the run, as the models read them, in order: the answer model reads them too. */
  readonly steered: readonly ChatMessage[];
}

/** The phase's time is up; `why` when it ends early because a wait would outlast it. */
class TimeLimitReached extends Error {
  constructor(readonly why?: string) {
    super(why);
  }
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/** What one step of the loop leads to: go on, or stop with a result. */
type StepOutcome = { readonly kind: 'continue' } | { readonly kind: 'stop'; readonly result: ToolPhaseResult };

function schemasOf(tools: readonly Tool[]): ToolSchema[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

function tokensOf(usage: RunUsage): number {
  return [usage.functionCall, usage.answer].reduce((sum, role) => sum + (role.promptTokens ?? 0) + (role.completionTokens ?? 0), 0);
}

export async function runToolPhase(context: ToolPhaseContext): Promise<ToolPhaseResult> {
  const { settings, emitter, usage } = context;
  const remind = settings.nonToolReply === 'remind';
  const schemas = schemasOf(context.tools);
  if (remind) schemas.push(finishTool);
  const toolsByName = new Map(context.tools.map((tool) => [tool.name, tool]));
  const toolNames = new Set(toolsByName.keys());
  const systemMessage = (): ChatMessage => ({
    role: 'system',
    content: systemPrompt(settings.prompts, 'functionCall', functionCallSystemPrompt(schemas, { remind, answersItself: context.singleModel === true }), {
      model: context.model.name,
      rules: context.rules?.files(),
      tools: toolList(schemas),
    }),
  });
  const messages: ChatMessage[] = [systemMessage(), ...context.conversation];
  const loops = new LoopDetector();
  const findings: Finding[] = [];
  const steered: ChatMessage[] = [];
  const allResults: EvaluatedResult[] = [];
  const role = 'function-call' as const;
  const modelName = context.model.name;
  let mistakes = 0;
  let repeatedCall: string | undefined;
  /** The last round had a call the user did not approve: a reply without a call then is no sign the model has what it needs. */
  let lastRoundRejected = false;
  /** The last round had a call that failed: a reply without a call then may be the model giving up, not having enough. */
  let lastRoundFailed = false;
  /** The text message of the latest reply, when text streams as its own message. */
  let lastText: StreamedMessage | undefined;

  // The time limit aborts the phase's own signal; Stop aborts the run's.
  const phase = new AbortController();
  const onStop = () => phase.abort(new CancelledError());
  context.signal.addEventListener('abort', onStop, { once: true });
  const limitMs = settings.maxExecutionSeconds * 1000;
  /**
   * True while one model serving both phases streams a reply that, so far, is
   * text for the user: it is probably the answer. The time limit lets it end
   * rather than cut it and ask the same model to answer all over again.
   */
  let answering = (): boolean => false;
  let timeUpWhileAnswering = false;
  const timeUp = () => phase.abort(new TimeLimitReached());
  const timer = (context.clock ?? new AgentClock()).deadline(limitMs, () => {
    if (answering()) timeUpWhileAnswering = true;
    else timeUp();
  });

  const predicates: StopPredicate[] = [
    iterationLimit(settings.maxIterations),
    timeLimit(settings.maxExecutionSeconds),
    budgetLimit(settings.maxTokensPerRun, settings.maxCostPerRun),
    loopGuard(),
    mistakeLimit(),
  ];
  const state = (iteration: number): LoopState => {
    const snapshot = usage.snapshot();
    return {
      iteration,
      mistakes,
      timeUp: phase.signal.reason instanceof TimeLimitReached,
      timeUpWhy: phase.signal.reason instanceof TimeLimitReached ? phase.signal.reason.why : undefined,
      tokensUsed: tokensOf(snapshot),
      costUsd: snapshot.totalCostUsd,
      repeatedCall,
    };
  };
  const stopWith = (decision: StopDecision, finalReply?: string): StepOutcome => {
    if (decision.notice) emitter.notice(decision.notice.code, 'warning', decision.notice.text);
    return { kind: 'stop', result: { stopReason: decision.stopReason, reason: decision.reason, findings, finalReply, finalMessageId: lastText?.text ? lastText.messageId : undefined, steered } };
  };
  const stop = (stopReason: StopReason, reason: string, finalReply?: string): StepOutcome => stopWith({ stopReason, reason }, finalReply);
  /** The phase signal aborted: Stop throws, the time limit stops with what was gathered. */
  const interrupted = (iteration: number, error: unknown): StepOutcome => {
    if (context.signal.aborted) throw new CancelledError();
    const decision = firstStop(predicates, state(iteration));
    if (decision) return stopWith(decision);
    throw error;
  };

  const addFindings = (outcomes: readonly CallOutcome[]) => {
    for (const outcome of outcomes) {
      findings.push({
        toolName: outcome.call.name,
        arguments: outcome.call.rawArguments || '{}',
        text: capResult(outcome.result.text),
        isError: outcome.result.isError === true || outcome.status === 'rejected',
        ...(outcome.result.images?.length && { images: outcome.result.images }),
      });
    }
    // Findings hold only the images the answer model could still be sent.
    const kept = keptImages(findings);
    findings.forEach((finding, index) => {
      const images = kept[index] ?? [];
      if (!finding.images || images.length === finding.images.length) return;
      const { images: _images, ...rest } = finding;
      findings[index] = images.length > 0 ? { ...rest, images } : rest;
    });
  };

  /** Acts on a reply without a usable tool call. */
  const onNoCall = (turn: ModelTurn, plan: TurnClass, iteration: number): StepOutcome => {
    if (plan.kind === 'malformed' || plan.kind === 'truncated') {
      mistakes++;
      const what = plan.kind === 'malformed' ? `could not be read: ${plan.error}` : 'was cut off at the token limit (finish_reason "length")';
      emitter.notice(plan.kind === 'malformed' ? 'malformedToolCall' : 'truncated', 'warning', `The model's reply ${what}. It was told and may try again (${mistakes} of ${MISTAKE_LIMIT}).`);
      const decision = firstStop(predicates, state(iteration + 1));
      if (decision) return stopWith(decision);
      messages.push({ role: 'assistant', content: turn.content });
      const instruction =
        plan.kind === 'malformed' ? `Error: your tool call could not be read: ${plan.error}. Reply with one valid JSON object, or call the tool natively.` : TRUNCATED_NOTE;
      messages.push({ role: 'user', content: instruction });
      return { kind: 'continue' };
    }
    const reply = plan.reply.trim();
    if (settings.nonToolReply === 'remind') {
      mistakes++;
      const decision = firstStop([mistakeLimit()], state(iteration + 1));
      if (decision) return stop('mistakes', `The model replied ${mistakes} times without calling a tool (limit ${MISTAKE_LIMIT}); answering from what was gathered.`, reply);
      emitter.notice('reminder', 'info', `The model replied without calling a tool; reminded it to call a tool or finish (${mistakes} of ${MISTAKE_LIMIT}).`);
      messages.push({ role: 'assistant', content: turn.content });
      messages.push({ role: 'user', content: REMINDER });
      return { kind: 'continue' };
    }
    if (settings.nonToolReply === 'user') return stop('awaitingUser', 'The model replied without calling a tool; its reply is shown and Tandem waits for you.', reply);
    if (!reply && !turn.reasoning.trim()) return stop('noToolCall', 'The function-call model sent an empty reply (no tool call, no text): answering from what was gathered.', reply);
    if (lastRoundRejected) return stop('noToolCall', 'The function-call model stopped calling tools after a call was not approved: answering from what was gathered.', reply);
    if (lastRoundFailed) return stop('noToolCall', 'The function-call model stopped calling tools after a call failed: answering from what was gathered.', reply);
    return stop('noToolCall', 'The function-call model replied without calling a tool: it has what it needs.', reply);
  };

  /** One iteration: one model call, then the tools it asked for. */
  const step = async (iteration: number): Promise<StepOutcome> => {
    // Thinking and interim text, shown as they stream.
    let thinking: StreamedMessage = emitter.reasoning(role, modelName);
    // Text streams as its own message where it may be the reply the user reads: streaming mode, one model
    // answering itself, or a reply without a tool call shown to the user as it is (nonToolReply "user").
    const interimKind = settings.responseMode === 'streaming' || context.singleModel === true || settings.nonToolReply === 'user';
    let interim: StreamedMessage = interimKind ? emitter.text('interim', role, modelName) : thinking;
    // Reasoning and interim text sharing one Thought (integrated mode) get a paragraph break where one gives way to the other.
    let lastShared: 'reasoning' | 'text' | undefined;
    const shared = (kind: 'reasoning' | 'text', message: StreamedMessage, text: string) => {
      if (!text) return;
      if (interim === thinking && lastShared !== undefined && lastShared !== kind && message.text) message.append('\n\n');
      lastShared = kind;
      message.append(text);
    };
    const showText = (text: string) => shared('text', interim, text);
    let gate = new TextGate(showText);
    let callStarted = false;
    if (context.singleModel === true && settings.nonToolReply !== 'remind') answering = () => interim !== thinking && interim.text !== '' && !callStarted;
    let turn: ModelTurn;
    try {
      const call = () => runModelTurn(context.model, { messages, tools: schemas }, phase.signal, {
        onReasoning: (delta) => shared('reasoning', thinking, delta),
        onText: (delta) => gate.write(delta),
        onTextWasReasoning: (reasoning) => {
          ({ thinking, text: interim } = showTextAsReasoning(emitter, role, modelName, { thinking, text: interim }, reasoning, () => emitter.text('interim', role, modelName)));
          lastShared = undefined;
          // A fresh gate: what the old one held is part of that reasoning, shown now.
          gate = new TextGate(showText);
        },
        onPartialUsage: (partial) => usage.recordPartial(role, partial),
        onToolCallStart: () => {
          callStarted = true;
          // Past the time limit, a reply that turns to calling tools is no answer: cut it now.
          if (timeUpWhileAnswering) timeUp();
        },
        onRetry: (retry) => {
          callStarted = false;
          // A wait the server asks for (a rate limit's Retry-After) that outlasts the time left ends the phase now, and says so.
          const left = timer.remainingMs();
          if (retry.delayMs > left) {
            phase.abort(new TimeLimitReached(`the server asked to wait ${seconds(retry.delayMs)} before trying again (${retry.reason}), longer than the ${seconds(left)} left`));
            return;
          }
          thinking.close();
          if (interim !== thinking) interim.close();
          const discarded = [...new Set([thinking, interim])].filter((message) => message.text).map((message) => message.messageId);
          emitter.custom(CustomEventName.retry, { role, model: modelName, attempt: retry.attempt, delayMs: retry.delayMs, reason: retry.reason, discarded } satisfies RetryPayload);
          thinking = emitter.reasoning(role, modelName);
          interim = interimKind ? emitter.text('interim', role, modelName) : thinking;
          lastShared = undefined;
          gate = new TextGate(showText);
        },
      });
      turn = await (context.budget ? context.budget.request(role, messages, schemas, phase.signal, call) : call());
    } catch (error) {
      thinking.close();
      interim.close();
      if (isCancellation(error) || phase.signal.aborted) return interrupted(iteration, error);
      throw error;
    }
    usage.recordCall(role, turn);
    emitter.custom(CustomEventName.usage, usage.snapshot());
    // The time limit passed while the reply streamed: a reply that calls tools stops the phase here.
    if (timeUpWhileAnswering) timeUp();

    const plan = classifyTurn(turn, toolNames, iteration);
    const held = gate.takeHeld();
    // Held-back text was not an envelope after all: show it. An envelope shows its `response` instead.
    if (!plan.viaEnvelope || plan.kind === 'malformed' || plan.kind === 'truncated') showText(held);
    else if (plan.response) interim.append((interim.text ? '\n' : '') + plan.response);
    thinking.close();
    interim.close();
    lastText = interim !== thinking ? interim : undefined;
    if (turn.reasoning || turn.content) context.log?.(`thought (${modelName}): ${[turn.reasoning, turn.content].filter(Boolean).join('\n')}`);

    if (plan.kind !== 'toolCalls') return onNoCall(turn, plan, iteration);
    if (phase.signal.aborted) return interrupted(iteration, new TimeLimitReached());

    const finish = plan.calls.find((call) => call.name === FINISH_TOOL_NAME);
    if (finish && remind) {
      let why = '';
      try {
        why = String((JSON.parse(finish.rawArguments || '{}') as { reason?: unknown }).reason ?? '');
      } catch {
        // A reason is optional; an unreadable one is dropped.
      }
      return stop('finished', `The function-call model said it has enough${why ? `: ${why}` : '.'}`, plan.reply.trim());
    }
    mistakes = 0;
    const { calls, asked } = callsToMake(plan.calls);

    // Loop guard before anything runs. A call repeated within one reply runs once (toolExecutor.ts)
    // and counts once: weak models often list the same call twice in a reply.
    const notes = new Map<string, string>();
    const inThisReply = new Set<string>();
    for (const call of calls) {
      if (toolsByName.get(call.name)?.repeatable === true) continue;
      const signature = rawCallSignature(call.name, call.rawArguments);
      if (inThisReply.has(signature)) continue;
      inThisReply.add(signature);
      const repetition = loops.recordSignature(signature);
      if (repetition === 'stop') {
        repeatedCall = call.name;
        const decision = firstStop([loopGuard()], state(iteration + 1));
        if (decision) return stopWith(decision);
      }
      if (repetition === 'warn') {
        notes.set(call.id, loopWarning(call.name));
        emitter.notice('loopWarning', 'warning', `${call.name} was called a second time with the same arguments, nothing written in between: the model was told its result has not changed, and that one more repeat stops the tool phase.`);
      }
    }

    if (asked !== undefined) {
      const last = calls[calls.length - 1]!;
      const note = callsLeftOutNote(asked, calls.length);
      notes.set(last.id, notes.has(last.id) ? `${notes.get(last.id)}\n\n${note}` : note);
      emitter.notice('callsCapped', 'warning', callsLeftOutNotice(asked, calls.length));
    }

    const metadata = { role, model: modelName };
    for (const call of calls) {
      emitter.emit({ type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: call.name, metadata });
      if (call.rawArguments) emitter.emit({ type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.rawArguments, metadata });
      emitter.emit({ type: EventType.TOOL_CALL_END, toolCallId: call.id, metadata });
    }

    let outcomes: CallOutcome[];
    try {
      outcomes = await executeCalls(calls, {
        runId: context.runId,
        tools: toolsByName,
        cache: context.cache,
        approval: context.approval,
        elicit: context.elicit,
        sample: context.sample,
        emitter,
        signal: phase.signal,
        timeLeftMs: () => timer.remainingMs(),
        log: context.log,
        notes,
        onOutcome: settings.responseMode === 'streaming' ? (outcome) => announceResult(outcome, emitter, modelName) : undefined,
      });
    } catch (error) {
      // The time limit hit mid-round: what finished still reaches the answer model.
      if (error instanceof InterruptedRound) addFindings(error.finished);
      if (isCancellation(error) || phase.signal.aborted) return interrupted(iteration, error);
      throw error;
    }
    lastRoundRejected = outcomes.some((outcome) => outcome.status === 'rejected');
    lastRoundFailed = outcomes.some((outcome) => outcome.status === 'failed');
    // A completed write changes what a repeated read returns: the guard starts over.
    if (outcomes.some((outcome) => outcome.status === 'done' && toolsByName.get(outcome.call.name)?.readOnly === false)) loops.reset();

    // The results join the context.
    const images = imagesMessage(outcomes.map((outcome) => ({ toolName: outcome.call.name, images: outcome.result.images ?? [] })));
    if (plan.viaEnvelope) {
      messages.push({ role: 'assistant', content: turn.content });
      const text = outcomes.map((outcome) => `Tool result for ${outcome.call.name}:\n${resultForModel(outcome, notes)}`).join('\n\n');
      // No tool messages here: the results and the round's images share one user message.
      if (images) messages.push({ role: 'user', content: `${text}\n\n${images.content}`, images: images.images });
      else messages.push({ role: 'user', content: text });
    } else {
      const toolCalls: ToolCall[] = calls.map((call) => ({ id: call.id, name: call.name, arguments: call.rawArguments || '{}' }));
      messages.push({ role: 'assistant', content: turn.content || null, toolCalls });
      for (const outcome of outcomes) messages.push({ role: 'tool', toolCallId: outcome.call.id, content: resultForModel(outcome, notes) });
      if (images) messages.push(images);
    }
    if (images) dropOlderImages(messages);
    // Rules files near what the round read or changed join the system prompt from the next call on.
    const touched = outcomes.flatMap((outcome) => (outcome.status === 'done' || outcome.status === 'cached' ? (outcome.result.touchedPaths ?? []) : []));
    const joined = touched.length > 0 && context.rules ? await context.rules.noteTouched(touched) : [];
    if (joined.length > 0) {
      messages[0] = systemMessage();
      emitter.notice('rules', 'info', nestedRulesNotice(joined));
    }
    const round: EvaluatedResult[] = outcomes.map((outcome) => ({
      toolName: outcome.call.name,
      arguments: outcome.args,
      result: withoutImages(outcome.result),
      changes: toolsByName.get(outcome.call.name)?.readOnly === false,
    }));
    allResults.push(...round);
    addFindings(outcomes);

    const evaluation = context.evaluator(round, { question: context.question, allResults, minResultLength: settings.minResultLength });
    if (evaluation.verdict === 'sufficient') return stop('sufficient', evaluation.reason);
    if (evaluation.verdict === 'insufficient') {
      const last = messages[messages.length - 1];
      if (last && (last.role === 'tool' || last.role === 'user')) {
        messages[messages.length - 1] = { ...last, content: `${last.content}\n\n${insufficientNote(evaluation.reason)}` };
      }
    }
    return { kind: 'continue' };
  };

  /** Takes in what the user sent into the run since the last step: it joins the conversation before the next model call. */
  const takeSteering = async (): Promise<void> => {
    if (context.steering?.pending() !== true) return;
    const taken = await context.steering.take();
    for (const message of taken) {
      const chat = steerChatMessage(message);
      messages.push(chat);
      steered.push(chat);
      emitter.custom(CustomEventName.steered, {
        runId: context.runId,
        id: message.id,
        text: message.text,
        ...(message.attached && { attached: message.attached }),
      } satisfies SteeredPayload);
    }
    if (taken.some((message) => message.images?.length)) dropOlderImages(messages);
    // New instructions: a call repeated from here on is no loop.
    if (taken.length > 0) loops.reset();
  };
  /**
   * The model is done (or the evaluator says it has enough), but the user sent
   * something meanwhile: rather than answer without it, the loop goes on, its
   * reply in the conversation, if the limits allow one more step.
   */
  const goesOnFor = (result: ToolPhaseResult, iteration: number): boolean => {
    if (context.steering?.pending() !== true) return false;
    if (!['noToolCall', 'finished', 'sufficient', 'awaitingUser'].includes(result.stopReason)) return false;
    if (firstStop(predicates, state(iteration + 1))) return false;
    if (result.stopReason !== 'sufficient' && result.finalReply) messages.push({ role: 'assistant', content: result.finalReply });
    return true;
  };

  try {
    for (let iteration = 1; ; iteration++) {
      const decision = firstStop(predicates, state(iteration));
      if (decision) return (stopWith(decision) as Extract<StepOutcome, { kind: 'stop' }>).result;
      await takeSteering();
      emitter.stepStarted(`tools:${iteration}`);
      try {
        const outcome = await step(iteration);
        if (outcome.kind === 'stop' && !goesOnFor(outcome.result, iteration)) return outcome.result;
      } finally {
        emitter.stepFinished();
      }
    }
  } finally {
    timer.dispose();
    context.signal.removeEventListener('abort', onStop);
  }
}

/** Streaming response mode: each tool result also appears as its own message. */
function announceResult(outcome: CallOutcome, emitter: RunEmitter, model: string): void {
  const message = emitter.text('toolResult', 'function-call', model);
  const head =
    outcome.status === 'failed' || outcome.status === 'rejected' || outcome.status === 'stopped'
      ? `[${outcome.call.name} ${outcome.status}]`
      : `[${outcome.call.name} executed${outcome.status === 'cached' ? ', cached' : ' successfully'}]`;
  const summary = outcome.result.summary;
  const body =
    summary?.kind === 'search'
      ? `${summary.total} results${summary.top.length ? `:\n${summary.top.map((hit) => `- ${hit.title}${hit.snippet ? `: ${hit.snippet}` : ''}`).join('\n')}` : ''}`
      : summary?.kind === 'todos'
        ? `${outcome.result.text}\n${todoLines(summary.items).join('\n')}`
        : outcome.result.text.length > 1500
          ? `${outcome.result.text.slice(0, 1500)}\n[...]`
          : outcome.result.text;
  message.append(`${head}\n\n${body}`);
  message.close();
}
