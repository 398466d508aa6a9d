// Approvals over AG-UI: the run applies the policy (autoApprove, alwaysAllow,
// sensitive paths, deletes) and emits its `tandem.approval` events; whatever
// would ask a person becomes an interrupt bound to the tool call. A resume
// entry `resolved` approves (unless its payload says `false` or
// `{ "approved": false }`, which may add `"note"`: why, for the model;
// `{ "approved": true, "alwaysAllow": true }` also allows the tool for the
// rest of the run where offered); `cancelled` rejects.
import type { ResumeEntry } from '@ag-ui/core';
import type { ApprovalDecision, ApprovalPrompt, Approver } from '../agent/runApprovalGate';
import type { InterruptBoard } from './interruptBoard';

/** Enough of a file's text for a client to show the change, never megabytes. */
const PREVIEW_CHARS = 20_000;

function clip(text: string | undefined): string | undefined {
  return text === undefined || text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS)}\n[...]`;
}

function responseSchema(prompt: ApprovalPrompt): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      approved: { type: 'boolean' },
      note: { type: 'string', description: 'When not approved: why, passed to the model' },
      ...(prompt.alwaysAllowKey !== undefined && { alwaysAllow: { type: 'boolean', description: prompt.alwaysAllowLabel ?? 'Always allow' } }),
    },
    required: ['approved'],
  };
}

/**
 * Only an explicit yes approves: `true`, or `{ approved: true }` as the
 * response schema asks. Anything else — no payload, `"false"` from a form, a
 * typo'd key — rejects: a client's mistake must not change files.
 */
export function answerOf(entry: ResumeEntry, prompt?: Pick<ApprovalPrompt, 'alwaysAllowKey'>): ApprovalDecision {
  if (entry.status !== 'resolved') return 'rejected';
  const payload: unknown = entry.payload;
  if (payload === true) return 'approved';
  if (payload === null || typeof payload !== 'object') return 'rejected';
  const answer = payload as { approved?: unknown; alwaysAllow?: unknown; note?: unknown };
  if (answer.approved !== true) return typeof answer.note === 'string' ? { answer: 'rejected', note: answer.note } : 'rejected';
  return answer.alwaysAllow === true && prompt?.alwaysAllowKey !== undefined ? 'alwaysAllowed' : 'approved';
}

/**
 * `runningCalls` names the calls whose tool is running: an approval a tool
 * asks for itself (an edit) happens inside work the board already counts.
 */
export function createInterruptApprover(board: InterruptBoard, runningCalls: ReadonlySet<string>): Approver {
  return {
    ask: async (prompt, signal) => {
      const { request } = prompt;
      const entry = await board.wait(
        {
          kind: 'approval',
          reason: 'tool_call',
          message: `${prompt.summary}?`,
          toolCallId: prompt.toolCallId,
          responseSchema: responseSchema(prompt),
          metadata: {
            tandem: {
              kind: 'approval',
              approvalId: prompt.id,
              request: prompt.kind,
              toolName: prompt.tool,
              args: prompt.args,
              sensitive: prompt.sensitive,
              ...(prompt.alwaysAllowKey !== undefined && { alwaysAllowKey: prompt.alwaysAllowKey }),
              ...(request.kind === 'edit' && { path: request.path, before: clip(request.before), after: clip(request.after) }),
            },
          },
        },
        signal,
        prompt.toolCallId !== undefined && runningCalls.has(prompt.toolCallId),
      );
      return answerOf(entry, prompt);
    },
  };
}
