// `tandem.approval` events into the panel's state: the pending request
// becomes an approval step (the card), its decision updates that same step,
// matched by the request's id.
import type { ApprovalPayload } from '../src/protocol/agentEvents';
import { push, text, touch, unfinished, type ApprovalStep, type ConversationView } from './steps';

export function applyApprovalEvent(view: ConversationView, value: Record<string, unknown>): void {
  const payload = value as unknown as Partial<ApprovalPayload>;
  const id = text(payload.id);
  if (id === '') return;
  const existing = view.byApproval.get(id);
  if (payload.status === 'pending') {
    if (existing) return;
    const step = push<ApprovalStep>(view, {
      kind: 'approval',
      approvalId: id,
      toolCallId: text(payload.toolCallId) || undefined,
      tool: text(payload.tool),
      requestKind: payload.kind === 'edit' ? 'edit' : 'toolCall',
      args: payload.args,
      summary: text(payload.summary),
      sensitive: payload.sensitive === true,
      alwaysAllowKey: text(payload.alwaysAllowKey) || undefined,
      alwaysAllowLabel: text(payload.alwaysAllowLabel) || undefined,
      status: 'pending',
      alwaysAllowed: false,
      answering: false,
      note: '',
      model: undefined,
    });
    view.byApproval.set(id, step);
    view.chromeDirty = true;
    callAwaits(view, step.toolCallId, true);
    return;
  }
  if (!existing || (payload.status !== 'approved' && payload.status !== 'rejected')) return;
  existing.status = payload.reason === 'cancelled' ? 'expired' : payload.status;
  existing.alwaysAllowed = payload.alwaysAllowed === true;
  existing.answering = false;
  existing.note = existing.status === 'rejected' ? text(payload.note) : '';
  touch(view, existing);
  view.chromeDirty = true;
  callAwaits(view, existing.toolCallId, false);
}

/** The tool call row says when its approval waits, and goes back to running once decided. */
function callAwaits(view: ConversationView, toolCallId: string | undefined, awaiting: boolean): void {
  const call = toolCallId === undefined ? undefined : view.byToolCall.get(toolCallId);
  if (!call || !unfinished(call.state) || (call.state === 'awaiting') === awaiting) return;
  call.state = awaiting ? 'awaiting' : 'running';
  touch(view, call);
}

/** True while any approval waits for the user (the panel says so). */
export function waitingForApproval(view: ConversationView): boolean {
  for (const step of view.byApproval.values()) if (step.status === 'pending') return true;
  return false;
}
