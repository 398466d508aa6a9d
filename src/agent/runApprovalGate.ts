// Human-in-the-loop for one run: the policy decides which calls ask; a call
// that asks becomes a `tandem.approval` event (pending), the run's clock
// stops, the host's Approver asks the person (the panel's card, the diff
// editor, an AG-UI interrupt, a test), and the decision follows as a second
// event with the same id. "Always allow" applies at once for the rest of the
// run, and the Approver remembers it for the next runs.
import { randomUUID } from 'node:crypto';
import type { ApprovalGate, ApprovalRequest } from '../tools/tool';
import { CustomEventName, replyOf, type ApprovalAnswer, type ApprovalDecision, type ApprovalPayload } from '../protocol/agentEvents';

export type { ApprovalAnswer, ApprovalDecision };
import { alwaysAllowOffer, needsAsking, type ApprovalPolicy } from './policyApprovalGate';
import type { AgentClock } from './agentClock';
import type { RunEmitter } from './runEmitter';


/** What the Approver shows: the event's payload plus the whole request (an edit's texts, for the diff). */
export interface ApprovalPrompt extends ApprovalPayload {
  readonly request: ApprovalRequest;
}

/** How a host asks a person. Injected into the agent; VS Code's is the panel card + diff editor. */
export interface Approver {
  /** Resolves with the person's answer (a rejection may carry a note for the model); rejects (CancelledError) when `signal` aborts. */
  ask(prompt: ApprovalPrompt, signal: AbortSignal): Promise<ApprovalDecision>;
  /** Persists an "Always allow" choice (VS Code: the user's `tandem.tools.alwaysAllow`). */
  rememberAlwaysAllow?(key: string): Promise<void>;
}

export function isApprover(value: ApprovalGate | Approver): value is Approver {
  return typeof (value as Partial<Approver>).ask === 'function';
}

function payloadArgs(request: ApprovalRequest): unknown {
  return request.kind === 'edit' ? { path: request.path } : request.arguments;
}

function defaultSummary(request: ApprovalRequest): string {
  if (request.kind === 'edit') {
    const verb = request.after === undefined ? 'Delete' : request.before === undefined ? 'Create' : 'Change';
    return `${verb} ${request.path}`;
  }
  return `Run ${request.toolName}`;
}

export interface RunApprovalOptions {
  readonly approver: Approver;
  readonly policy: ApprovalPolicy;
  readonly emitter: RunEmitter;
  readonly clock: AgentClock;
  readonly log?: ((line: string) => void) | undefined;
}

export function createRunApprovalGate(options: RunApprovalOptions): ApprovalGate {
  const { approver, emitter, clock } = options;
  const learned: string[] = [];
  /** The person's notes on rejected requests, by tool call. */
  const notes = new Map<string, string>();
  const policy = (): ApprovalPolicy => ({ autoApprove: options.policy.autoApprove, alwaysAllow: [...options.policy.alwaysAllow, ...learned] });
  return {
    request: async (request, signal) => {
      if (!needsAsking(request, policy())) return true;
      const offer = alwaysAllowOffer(request);
      const pending: ApprovalPayload = {
        id: randomUUID(),
        toolCallId: request.toolCallId,
        tool: request.toolName,
        kind: request.kind,
        args: payloadArgs(request),
        summary: request.summary ?? defaultSummary(request),
        sensitive: request.sensitive === true,
        status: 'pending',
        alwaysAllowKey: offer?.key,
        alwaysAllowLabel: offer?.label,
      };
      emitter.custom(CustomEventName.approval, pending);
      const resume = clock.pause();
      let answer: ApprovalAnswer;
      let note: string | undefined;
      try {
        ({ answer, note } = replyOf(await approver.ask({ ...pending, request }, signal)));
      } catch (error) {
        emitter.custom(CustomEventName.approval, { ...pending, status: 'rejected', reason: 'cancelled' } satisfies ApprovalPayload);
        throw error;
      } finally {
        resume();
      }
      const alwaysAllowed = answer === 'alwaysAllowed' && offer !== undefined;
      if (alwaysAllowed) {
        learned.push(offer.key);
        try {
          await approver.rememberAlwaysAllow?.(offer.key);
        } catch (error) {
          options.log?.(`could not remember "always allow ${offer.key}": ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      const status = answer === 'rejected' ? 'rejected' : 'approved';
      if (note !== undefined && request.toolCallId !== undefined) notes.set(request.toolCallId, note);
      emitter.custom(CustomEventName.approval, { ...pending, status, alwaysAllowed: alwaysAllowed || undefined, note } satisfies ApprovalPayload);
      return status === 'approved';
    },
    rejectionNote: (toolCallId) => notes.get(toolCallId),
  };
}

/** A gate that decides by itself (AG-UI's interrupt gate, a test's): the clock still stops while it waits. */
export function pausingGate(gate: ApprovalGate, clock: AgentClock): ApprovalGate {
  return aroundGate(gate, () => clock.pause());
}

/** `gate`, with `start` called as each request begins; what it returns is called once the request is decided (or given up). */
export function aroundGate(gate: ApprovalGate, start: () => () => void): ApprovalGate {
  return {
    request: async (request, signal) => {
      const end = start();
      try {
        return await gate.request(request, signal);
      } finally {
        end();
      }
    },
    rejectionNote: (toolCallId) => gate.rejectionNote?.(toolCallId),
  };
}
