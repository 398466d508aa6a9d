// Approvals over AG-UI: whatever would ask the user (by `autoApprove`, or
// always, like a delete) becomes an interrupt bound to the tool call. A
// resume entry `resolved` approves (unless its payload says
// `{ "approved": false }`); `cancelled` rejects.
import type { ResumeEntry } from '@ag-ui/core';
import { callSignature } from '../agent/canonicalJson';
import { createPolicyApprovalGate, type AutoApprovePolicy } from '../agent/policyApprovalGate';
import type { ApprovalGate, ApprovalRequest } from '../tools/tool';
import type { InterruptBoard, WaitSpec } from './interruptBoard';

const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' } },
  required: ['approved'],
} as const;

/** Enough of a file's text for a client to show the change, never megabytes. */
const PREVIEW_CHARS = 20_000;

function clip(text: string | undefined): string | undefined {
  return text === undefined || text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS)}\n[...]`;
}

function describe(request: ApprovalRequest): string {
  if (request.kind === 'edit') {
    const verb = request.after === undefined ? 'Delete' : request.before === undefined ? 'Create' : 'Change';
    return `${verb} ${request.path} (${request.toolName})?`;
  }
  return `Run ${request.toolName} with ${JSON.stringify(request.arguments).slice(0, 500)}?`;
}

export function isApproval(entry: ResumeEntry): boolean {
  if (entry.status !== 'resolved') return false;
  const payload: unknown = entry.payload;
  if (payload === false) return false;
  return !(payload !== null && typeof payload === 'object' && (payload as { approved?: unknown }).approved === false);
}

/**
 * The gate for one run (pre-run approvals: the call is matched by name and
 * arguments) or for one call (`callId`: approvals a tool asks for itself).
 */
export function createInterruptApprovalGate(policy: AutoApprovePolicy, board: InterruptBoard, call?: { readonly callId: string }): ApprovalGate {
  return createPolicyApprovalGate(policy, async (request, signal) => {
    const spec: WaitSpec = {
      reason: 'tool_call',
      message: describe(request),
      toolCallId: call?.callId,
      toolName: request.toolName,
      argumentsSignature: request.kind === 'toolCall' ? callSignature(request.toolName, request.arguments) : undefined,
      responseSchema: APPROVAL_SCHEMA,
      metadata: {
        tandem:
          request.kind === 'edit'
            ? { kind: 'approval', request: 'edit', toolName: request.toolName, path: request.path, before: clip(request.before), after: clip(request.after) }
            : { kind: 'approval', request: 'toolCall', toolName: request.toolName, arguments: request.arguments, readOnly: request.readOnly },
      },
    };
    return isApproval(await board.wait(spec, signal, call !== undefined));
  });
}
