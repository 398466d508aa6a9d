// A reply whose prompt opened a <think> streams its reasoning as text until
// it closes the tag (thinkTags.ts). Then what the panel shows moves: the
// reasoning message carries all the reasoning, and the text goes.
import { CustomEventName, type ModelRole, type ReclassifiedPayload } from '../protocol/agentEvents';
import type { RunEmitter, StreamedMessage } from './runEmitter';

export interface ShownReply {
  readonly thinking: StreamedMessage;
  /** The message the reply's text streams into; the thinking message itself when text shows as thinking. */
  readonly text: StreamedMessage;
}

/**
 * Shows `reasoning` as the reply's reasoning; returns the messages to stream
 * the rest into. When nothing showed as text and the thinking shown so far
 * starts the reasoning, the rest is appended (nothing flickers); otherwise the
 * shown messages are discarded and a new reasoning message carries it all.
 */
export function showTextAsReasoning(
  emitter: RunEmitter,
  role: ModelRole,
  model: string,
  shown: ShownReply,
  reasoning: string,
  newText: () => StreamedMessage,
): ShownReply {
  const separate = shown.text !== shown.thinking;
  if ((!separate || shown.text.text === '') && reasoning.startsWith(shown.thinking.text)) {
    shown.thinking.append(reasoning.slice(shown.thinking.text.length));
    return shown;
  }
  shown.thinking.close();
  shown.text.close();
  const discarded = [...new Set([shown.thinking, shown.text])].filter((message) => message.text).map((message) => message.messageId);
  if (discarded.length > 0) emitter.custom(CustomEventName.reclassified, { role, model, discarded } satisfies ReclassifiedPayload);
  const thinking = emitter.reasoning(role, model);
  thinking.append(reasoning);
  return { thinking, text: separate ? newText() : thinking };
}
