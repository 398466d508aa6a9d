// `tandem.elicitation` events into the panel's state: an MCP server's
// question becomes an elicitation step (the card), its answer updates that
// same step, matched by the question's id.
import type { ElicitationPayload } from '../src/protocol/agentEvents';
import { push, text, touch, type ConversationView, type ElicitationStep } from './steps';

const ANSWERS: ReadonlySet<string> = new Set(['accept', 'decline', 'cancel']);

export function applyElicitationEvent(view: ConversationView, value: Record<string, unknown>): void {
  const payload = value as unknown as Partial<ElicitationPayload>;
  const id = text(payload.id);
  if (id === '') return;
  const existing = view.byElicitation.get(id);
  if (payload.status === 'pending') {
    if (existing) return;
    const schema = payload.requestedSchema;
    const step = push<ElicitationStep>(view, {
      kind: 'elicitation',
      elicitationId: id,
      serverName: text(payload.serverName),
      message: text(payload.message),
      mode: payload.mode === 'url' ? 'url' : 'form',
      requestedSchema: schema !== undefined && typeof schema === 'object' && typeof schema.properties === 'object' ? schema : undefined,
      url: text(payload.url) || undefined,
      status: 'pending',
      answering: false,
      draft: {},
      model: undefined,
    });
    view.byElicitation.set(id, step);
    view.chromeDirty = true;
    return;
  }
  if (!existing || payload.status === undefined || !ANSWERS.has(payload.status)) return;
  existing.status = payload.status;
  existing.answering = false;
  touch(view, existing);
  view.chromeDirty = true;
}

/** Questions nobody can answer any more (the run ended, or a stored conversation). */
export function expireElicitations(view: ConversationView): void {
  for (const step of view.byElicitation.values()) {
    if (step.status === 'pending') {
      step.status = 'expired';
      touch(view, step);
    }
  }
}

/** True while a server's question waits for the user. */
export function waitingForElicitation(view: ConversationView): boolean {
  for (const step of view.byElicitation.values()) if (step.status === 'pending') return true;
  return false;
}
