// Images tools return go to the model after the results that carry them: a
// tool message holds text only on the OpenAI wire, so they ride in a user
// message that says whose they are. Each request resends the conversation, so
// only the latest few stay attached, within a byte limit; older ones keep
// their description.
import { base64Bytes, MAX_ATTACHED_IMAGE_BYTES } from '../models/chatImages';
import type { ChatImage, ChatMessage } from '../models/chatModel';
import type { ToolResult } from '../tools/tool';

/** Images kept attached in a run's messages; older ones are described only. */
export const IMAGES_KEPT = 6;

const NO_LONGER_ATTACHED = '(Earlier images here are no longer attached, to keep the request small; the results still describe them.)';

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
export function imagesMessage(returned: readonly ReturnedImages[]): Extract<ChatMessage, { role: 'user' }> | undefined {
  const withImages = returned.filter((entry) => entry.images.length > 0);
  if (withImages.length === 0) return undefined;
  return { role: 'user', content: imagesIntro(withImages), images: withImages.flatMap((entry) => entry.images) };
}

/**
 * How many images of each group stay: the latest groups first, each from its
 * first image, while within `keep` images and `maxBytes` together.
 */
export function imagesToKeep(groups: readonly (readonly ChatImage[])[], keep = IMAGES_KEPT, maxBytes = MAX_ATTACHED_IMAGE_BYTES): number[] {
  const counts = groups.map(() => 0);
  let images = 0;
  let bytes = 0;
  for (let group = groups.length - 1; group >= 0; group--) {
    for (const image of groups[group] ?? []) {
      const size = base64Bytes(image.data);
      if (images >= keep || bytes + size > maxBytes) return counts;
      images++;
      bytes += size;
      counts[group]!++;
    }
  }
  return counts;
}

/** `messages` with the images beyond the latest kept taken off (in place), each message that lost some saying so once. */
export function dropOlderImages(messages: ChatMessage[], keep = IMAGES_KEPT, maxBytes = MAX_ATTACHED_IMAGE_BYTES): void {
  const carriers = messages.flatMap((message, index) => (message.role === 'user' && message.images?.length ? [{ index, images: message.images, content: message.content }] : []));
  const counts = imagesToKeep(
    carriers.map((carrier) => carrier.images),
    keep,
    maxBytes,
  );
  carriers.forEach((carrier, position) => {
    const kept = counts[position] ?? 0;
    if (kept === carrier.images.length) return;
    const content = carrier.content.endsWith(NO_LONGER_ATTACHED) ? carrier.content : `${carrier.content}\n${NO_LONGER_ATTACHED}`;
    messages[carrier.index] = { role: 'user', content, ...(kept > 0 && { images: carrier.images.slice(0, kept) }) };
  });
}

/** A result as kept for the rest of the run (the evaluator reads text): its images go, they are held elsewhere only while they can be sent. */
export function withoutImages(result: ToolResult): ToolResult {
  if (!result.images) return result;
  const { images: _images, ...rest } = result;
  return rest;
}
