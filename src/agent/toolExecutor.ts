// Runs the tool calls of one turn. Every fault becomes the call's result
// (bad JSON, unknown tool, rejection, a throw inside the tool) so the model
// can react; only cancellation escapes. Read-only calls of a turn run
// concurrently (eight at work at once); as soon as a turn holds a call that
// changes something, the calls run one after another, in the order given.

import { EventType } from '@ag-ui/core';
import { repairArguments } from './argumentRepair';
import { CACHEABLE_RESULT_CHARS, capResult, EVENT_RESULT_CAP_CHARS, logPreview } from './resultCap';
import { randomUUID } from 'node:crypto';
import type { ApprovalGate, ApprovalRequest, Tool, ToolResult } from '../tools/tool';
import { CustomEventName, type ToolCallStatus, type ToolImagesPayload, type ToolStartedPayload, type ToolStatusPayload } from '../protocol/agentEvents';
import { CancelledError, isCancellation } from '../common/errors';
import { unlessAborted } from '../common/unlessAborted';
import type { RunEmitter } from './runEmitter';
import type { SessionCache } from './sessionCache';
import { aroundGate } from './runApprovalGate';
import { rawCallSignature } from './canonicalJson';
import { CallSlots } from './callSlots';
import type { ElicitationHandler } from '../tools/elicitation';
import type { RunSampler } from './runSampling';

export interface PlannedCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON text of the arguments, as the model wrote it. */
  readonly rawArguments: string;
}

export interface CallOutcome {
  readonly call: PlannedCall;
  /** Parsed arguments; undefined when they could not be parsed. */
  readonly args: unknown;
  readonly result: ToolResult;
  readonly status: ToolCallStatus;
  readonly durationMs: number;
}

export interface ExecutionContext {
  readonly runId: string;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly cache: SessionCache;
  readonly approval: ApprovalGate;
  /** Asks the user on a tool's behalf (MCP elicitation), with the run's clock paused. */
  readonly elicit?: ElicitationHandler | undefined;
  /** Lends the run's model to a tool (MCP sampling), asking through the call's gate. */
  readonly sample?: RunSampler | undefined;
  readonly emitter: RunEmitter;
  readonly signal: AbortSignal;
  /** Agent time left before the phase's time limit aborts `signal`. */
  readonly timeLeftMs?: (() => number) | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** Text appended to a call's result for the model (e.g. a loop warning), by call id. */
  readonly notes: ReadonlyMap<string, string>;
  /** Called as each result arrives (streaming response mode shows it as a message). */
  readonly onOutcome?: ((outcome: CallOutcome) => void) | undefined;
}

/** `twice`: the object came encoded twice (a JSON string holding it), and was taken as the object (argumentRepair.ts). */
function parseArguments(raw: string): { ok: true; value: unknown; twice: boolean } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {}, twice: false };
  try {
    const parsed: unknown = JSON.parse(raw);
    const value = typeof parsed === 'string' ? repairArguments(parsed, {}).value : parsed;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, error: 'the arguments must be a JSON object' };
    }
    return { ok: true, value, twice: typeof parsed === 'string' };
  } catch (error) {
    return { ok: false, error: `the arguments are not valid JSON (${(error as Error).message})` };
  }
}

/** The gate a tool asks itself, with its call's id on every request. */
function forCall(gate: ApprovalGate, toolCallId: string): ApprovalGate {
  return {
    request: (request, signal) => gate.request(request.toolCallId === undefined ? { ...request, toolCallId } : request, signal),
    rejectionNote: (id) => gate.rejectionNote?.(id),
  };
}

/** A gate that adds the time each request waited (on a person, mostly) to `waited.ms`. */
function timedGate(gate: ApprovalGate, waited: { ms: number }): ApprovalGate {
  return aroundGate(gate, () => {
    const from = Date.now();
    return () => (waited.ms += Date.now() - from);
  });
}

/** A rejected call's result, with what the person told the model when they rejected it. */
function withRejectionNote(result: ToolResult, note: string | undefined): ToolResult {
  return note ? { ...result, text: `${result.text}\nThe user said why: ${note}` } : result;
}

function errorResult(text: string): ToolResult {
  return { text, isError: true };
}

async function runOne(call: PlannedCall, context: ExecutionContext): Promise<CallOutcome> {
  context.emitter.custom(CustomEventName.toolStarted, { toolCallId: call.id } satisfies ToolStartedPayload);
  const started = Date.now();
  // A call's time is the tool's, not the time its approval card waited for a decision.
  const waited = { ms: 0 };
  const approval = timedGate(context.approval, waited);
  const finish = (args: unknown, result: ToolResult, status: ToolCallStatus): CallOutcome => ({
    call,
    args,
    result: status === 'rejected' ? withRejectionNote(result, context.approval.rejectionNote?.(call.id)) : result,
    status,
    durationMs: Math.max(0, Date.now() - started - waited.ms),
  });

  const parsed = parseArguments(call.rawArguments);
  if (!parsed.ok) return finish(undefined, errorResult(`Error: ${parsed.error}. Call ${call.name} again with a JSON object.`), 'failed');
  const tool = context.tools.get(call.name);
  if (!tool) {
    const known = [...context.tools.keys()].join(', ') || 'none';
    return finish(parsed.value, errorResult(`Error: there is no tool named "${call.name}". Available tools: ${known}.`), 'failed');
  }
  // Fields sent as a string of the declared type (`"edits": "[...]"`) are taken as that type.
  const { value: args, repaired } = repairArguments(parsed.value, tool.parameters);
  const fromStrings = [...(parsed.twice ? ['the arguments'] : []), ...repaired];
  if (fromStrings.length > 0) context.log?.(`tool ${tool.name}: took ${fromStrings.join(', ')} from a JSON string`);
  const cacheable = tool.readOnly && tool.repeatable !== true && (tool.source.kind !== 'mcp' || tool.cacheable === true);
  if (cacheable) {
    const cached = context.cache.get(tool.name, args);
    if (cached) return finish(args, cached, 'cached');
  }
  if (!tool.approvesItself) {
    const approved = await approval.request(
      { kind: 'toolCall', toolName: tool.name, toolCallId: call.id, arguments: args, readOnly: tool.readOnly, ...approvalWords(tool) },
      context.signal,
    );
    if (context.signal.aborted) throw new CancelledError();
    if (!approved) return finish(args, { text: `The user rejected this call of ${tool.name}; it did not run.` }, 'rejected');
  }
  context.log?.(`tool ${tool.name} input: ${call.rawArguments || '{}'}`);
  const sample = context.sample;
  try {
    const running = tool.run(args, {
      runId: context.runId,
      callId: call.id,
      signal: context.signal,
      timeLeftMs: context.timeLeftMs,
      approval: forCall(approval, call.id),
      elicit: context.elicit,
      sample: sample && ((request, signal) => sample(request, signal, forCall(approval, call.id), call.id)),
      onProgress: (progress) => context.emitter.custom(CustomEventName.toolProgress, { toolCallId: call.id, ...progress }),
    });
    // Stop and the time limit do not wait for a read that ignores the signal: nothing it does needs
    // reporting. A change is waited for, so that a write that lands is never left unmentioned.
    const result = tool.readOnly ? await unlessAborted(running, context.signal) : await running;
    if (result === undefined) throw new CancelledError();
    // A tool that finished is reported even if the run was stopped meanwhile:
    // a completed write must never go unmentioned.
    context.log?.(`tool ${tool.name} output${result.isError ? ' (error)' : ''}: ${logPreview(result.text)}`);
    // A declined read is asked again next time, not answered from the cache.
    // Nor are images kept: a screenshot is large and shows a moment, not a state to reuse.
    if (cacheable && !result.isError && !result.rejected && !result.images?.length && result.text.length <= CACHEABLE_RESULT_CHARS) context.cache.set(tool.name, args, result);
    // A change that failed may still have changed something (a command that exits 1 after writing).
    if (!tool.readOnly && !result.rejected) context.cache.invalidate();
    return finish(args, result, result.rejected ? 'rejected' : result.stopped ? 'stopped' : result.isError ? 'failed' : 'done');
  } catch (error) {
    if (context.signal.aborted || isCancellation(error)) throw error instanceof CancelledError ? error : new CancelledError();
    const message = error instanceof Error ? error.message : String(error);
    context.log?.(`tool ${tool.name} threw: ${message}`);
    return finish(args, errorResult(`Error: ${tool.name} failed: ${message}`), 'failed');
  }
}

/** A call that got a slot: not started once the run is stopped, and its waits on a person lend the slot out. */
function runInSlot(call: PlannedCall, context: ExecutionContext, slots: CallSlots): Promise<CallOutcome> {
  if (context.signal.aborted) return Promise.reject(new CancelledError());
  const approval: ApprovalGate = {
    request: (request, signal) => slots.aside(() => context.approval.request(request, signal)),
    rejectionNote: (toolCallId) => context.approval.rejectionNote?.(toolCallId),
  };
  const elicit = context.elicit;
  return runOne(call, { ...context, approval, elicit: elicit && ((request, signal) => slots.aside(() => elicit(request, signal))) });
}

function report(outcome: CallOutcome, context: ExecutionContext): void {
  const tool = context.tools.get(outcome.call.name);
  const note = context.notes.get(outcome.call.id);
  const text = capResult(outcome.result.text, EVENT_RESULT_CAP_CHARS);
  const content = note ? `${text}\n\n${note}` : text;
  context.emitter.emit({ type: EventType.TOOL_CALL_RESULT, messageId: randomUUID(), toolCallId: outcome.call.id, content, role: 'tool' });
  // The images themselves, for the panel to show: the text above only describes them.
  const images = outcome.result.images ?? [];
  if (images.length > 0) {
    const payload: ToolImagesPayload = { toolCallId: outcome.call.id, images: images.map(({ mimeType, data }) => ({ mimeType, data })) };
    context.emitter.custom(CustomEventName.toolImages, payload);
  }
  const status: ToolStatusPayload = {
    toolCallId: outcome.call.id,
    toolName: outcome.call.name,
    status: outcome.status,
    durationMs: outcome.durationMs,
    summary: outcome.result.summary,
    source: tool?.source.kind === 'mcp' ? `mcp:${tool.source.server}` : tool?.source.kind === 'frontend' ? 'frontend' : 'workspace',
  };
  context.emitter.custom(CustomEventName.toolStatus, status);
  context.onOutcome?.(outcome);
}

/**
 * The round was aborted (Stop or the time limit) with some calls finished:
 * they are carried so the answer model still gets them.
 */
export class InterruptedRound extends CancelledError {
  constructor(readonly finished: readonly CallOutcome[]) {
    super();
  }
}

/** Read-only calls of one reply that work at the same time (a call waiting on a person does not count). */
export const MAX_CONCURRENT_CALLS = 8;

/**
 * Runs the calls and reports each result as it arrives; returns the outcomes
 * in call order. An abort throws InterruptedRound with the calls that had
 * finished by then.
 */
export async function executeCalls(calls: readonly PlannedCall[], context: ExecutionContext): Promise<CallOutcome[]> {
  const concurrent = calls.every((call) => context.tools.get(call.name)?.readOnly ?? true);
  const slots = concurrent && calls.length > MAX_CONCURRENT_CALLS ? new CallSlots(MAX_CONCURRENT_CALLS) : undefined;
  const finished = new Map<string, CallOutcome>();
  // A call the reply already holds (same tool, same arguments) runs once; each copy gets its result.
  const firstRuns = new Map<string, Promise<CallOutcome>>();
  const runAndReport = async (call: PlannedCall) => {
    // One call (the usual round) has no copy to look for.
    const signature = calls.length > 1 ? rawCallSignature(call.name, call.rawArguments) : call.id;
    const first = firstRuns.get(signature);
    let outcome: CallOutcome;
    if (first === undefined) {
      // A copy waits for its first without a slot, so copies cannot hold every slot while their first waits for one.
      const running = slots && context.tools.get(call.name)?.source.kind !== 'frontend' ? slots.run(() => runInSlot(call, context, slots)) : runOne(call, context);
      firstRuns.set(signature, running);
      outcome = await running;
    } else {
      outcome = repeatOf(call, await first);
    }
    report(outcome, context);
    finished.set(call.id, outcome);
    return outcome;
  };
  const inOrder = () => calls.flatMap((call) => finished.get(call.id) ?? []);
  try {
    if (concurrent) {
      const settled = await Promise.allSettled(calls.map(runAndReport));
      const failure = settled.find((entry): entry is PromiseRejectedResult => entry.status === 'rejected');
      if (failure) throw failure.reason;
    } else {
      for (const call of calls) {
        if (context.signal.aborted) throw new CancelledError();
        await runAndReport(call);
      }
    }
    // Stopped (or out of time) while the calls ran, even if each of them finished: the round is
    // interrupted, its results carried, and the phase ends here rather than asking the model again.
    if (context.signal.aborted) throw new CancelledError();
    return inOrder();
  } catch (error) {
    if (isCancellation(error) || context.signal.aborted) throw new InterruptedRound(inOrder());
    throw error;
  }
}

/** A copy of a call made earlier in the same reply: not run again, and its result points to the earlier one. */
function repeatOf(call: PlannedCall, earlier: CallOutcome): CallOutcome {
  const text = `This is the same call as ${earlier.call.id} earlier in this reply, so it was not made again: see that call's result.`;
  // A copy of a refused or failed call shares its fate; of one that ran, it is served like a cached result.
  return { call, args: earlier.args, result: { text, isError: earlier.result.isError }, status: earlier.status === 'done' ? 'cached' : earlier.status, durationMs: 0 };
}

/** The result text the model reads for an outcome, with any note appended. */
export function resultForModel(outcome: CallOutcome, notes: ReadonlyMap<string, string>): string {
  const note = notes.get(outcome.call.id);
  const text = capResult(outcome.result.text);
  return note ? `${text}\n\n${note}` : text;
}

/** What a tool adds to its approval request: its own line, and its own always-allow entry. */
function approvalWords(tool: Tool): Pick<ApprovalRequest, 'summary' | 'alwaysAllow' | 'allowedBy'> {
  const key = tool.approval?.alwaysAllowKey;
  return {
    ...(tool.approval?.summary !== undefined && { summary: tool.approval.summary }),
    ...(key !== undefined && { alwaysAllow: { key, label: `Always allow ${tool.name} from this server` }, allowedBy: (entries: readonly string[]) => entries.includes(key) }),
  };
}
