// Images tools return go to the model after the results that carry them: a
// tool message holds text only on the OpenAI wire, so they ride in a user
// message that says whose they are. Each request resends the conversation, so
// only the latest few stay attached; older ones keep their description.
import type { ChatImage, ChatMessage } from '../models/chatModel';

/** Images kept attached in a run's messages; older ones are described only. */
export const IMAGES_KEPT = 6;

export interface ReturnedImages {
  readonly toolName: string;
  readonly images: readonly ChatImage[];
}

/** The text that introduces a round's images, in the order they are attached. */
export function imagesIntro(returned: readonly ReturnedImages[]): string {
  const named = returned.map(({ toolName, images }) => `${toolName} (${images.length === 1 ? '1 image' : `${images.length} images`})`);
  return `The images the tool calls returned are attached, in order: ${named.join(', ')}.`;
}

/** The user message that carries a round's images, if it returned any. */
export function imagesMessage(returned: readonly ReturnedImages[]): ChatMessage | undefined {
  const withImages = returned.filter((entry) => entry.images.length > 0);
  if (withImages.length === 0) return undefined;
  return { role: 'user', content: imagesIntro(withImages), images: withImages.flatMap((entry) => entry.images) };
}

/** `messages` with the images beyond the latest `keep` taken off (in place), each message saying so. */
export function dropOlderImages(messages: ChatMessage[], keep = IMAGES_KEPT): void {
  let kept = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user' || !message.images?.length) continue;
    const room = Math.max(0, keep - kept);
    kept += Math.min(room, message.images.length);
    if (room >= message.images.length) continue;
    const dropped = message.images.length - room;
    messages[index] = {
      role: 'user',
      content: `${message.content}\n(${dropped === 1 ? 'One image is' : `${dropped} images are`} no longer attached, to keep the request small.)`,
      ...(room > 0 && { images: message.images.slice(0, room) }),
    };
  }
}
