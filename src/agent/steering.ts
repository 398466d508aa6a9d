// Steering: a message the user sends into a run while its tools go, read by
// the function-call model before its next step instead of after the answer.
// The run takes what is waiting at the start of each iteration, adds it to
// the conversation as a user message, and says so (`tandem.steered`, stored
// with the run, so later turns and a reload see it). A message that comes too
// late for the tool phase stays with whoever sent it (the host's queue sends
// it after the answer, as any follow-up). No vscode import.
import type { ChatImage, ChatMessage } from '../models/chatModel';
import { steerContent } from '../protocol/conversationHistory';

/** One message sent into the run. */
export interface SteerMessage {
  /** The queued message's id (the panel removes it from its queue by it). */
  readonly id: string;
  /** As typed. */
  readonly text: string;
  /** What was attached to it: the chips' labels (shown) and blocks (read by the models). */
  readonly attached?: { readonly labels: readonly string[]; readonly text: string } | undefined;
  /** Pictures, for this run only (never stored). */
  readonly images?: readonly ChatImage[] | undefined;
}

/** Where a run takes the messages sent into it. */
export interface Steering {
  /** Whether a message waits to be taken (synchronous: the loop asks before it ends). */
  pending(): boolean;
  /** Takes what waits, each message once; resolves to none when nothing does. */
  take(): Promise<readonly SteerMessage[]>;
}

/** The message as the function-call model gets it, after the round it arrived in. */
export function steerChatMessage(message: SteerMessage): ChatMessage {
  const content = steerContent(message.text, message.attached?.text);
  return message.images?.length ? { role: 'user', content, images: message.images } : { role: 'user', content };
}

/**
 * Steering that first hands over `carried` (messages a first try took, sent
 * again by Retry), at the run's first step, then whatever `then` holds.
 */
export function carriedSteering(carried: readonly SteerMessage[], then: Steering | undefined): Steering {
  let left = [...carried];
  return {
    pending: () => left.length > 0 || then?.pending() === true,
    take: async () => {
      const first = left;
      left = [];
      const live = then?.pending() === true ? await then.take() : [];
      return [...first, ...live];
    },
  };
}
