// Images tools return go to the model after the results that carry them: a
// tool message holds text only on the OpenAI wire, so they ride in a user
// message that says whose they are. Each request resends the conversation, so
// only the latest few stay attached, within a byte limit; older ones keep
// their description.
import { MAX_ATTACHED_IMAGE_BYTES } from '../models/chatImages';
import { base64Bytes } from '../protocol/imageRules';
import type { ChatImage, ChatMessage } from '../models/chatModel';
import type { ToolResult } from '../tools/tool';

/** Images kept attached in a run's messages; older ones are described only. */
export const IMAGES_KEPT = 6;

const NO_LONGER_ATTACHED = '(Earlier images here are no longer attached, to keep the request small; the results still describe them.)';

export interface ReturnedImages {
  readonly toolName: string;
  readonly images: readonly ChatImage[];
}

const INTRO_START = 'The images the tool calls returned are attached, in order: ';

/** The text that introduces a round's images, in the order they are attached. */
export function imagesIntro(returned: readonly ReturnedImages[]): string {
  const named = returned.map(({ toolName, images }) => `${toolName} (${images.length === 1 ? '1 image' : `${images.length} images`})`);
  return `${INTRO_START}${named.join(', ')}.`;
}

/**
 * `content` without the lines about its attached images (the intro, the "no
 * longer attached" note): for text read where the images are not, such as a
 * summary's input. The results' own text still describes each image.
 */
export function withoutImageNotes(content: string): string {
  const lines = content.split('\n');
  const kept = lines.filter((line) => !line.startsWith(INTRO_START) && line !== NO_LONGER_ATTACHED);
  return kept.length === lines.length ? content : kept.join('\n').trim();
}

/** The user message that carries a round's images, if it returned any. */
export function imagesMessage(returned: readonly ReturnedImages[]): Extract<ChatMessage, { role: 'user' }> | undefined {
  const withImages = returned.filter((entry) => entry.images.length > 0);
  if (withImages.length === 0) return undefined;
  return { role: 'user', content: imagesIntro(withImages), images: withImages.flatMap((entry) => entry.images) };
}

/** Anything that holds images in an ordered list: a run's findings, a request's messages. */
export interface ImageHolder {
  readonly images?: readonly ChatImage[] | undefined;
}

/**
 * The keep rule, for findings and messages alike: the images each holder
 * keeps. The latest holders keep theirs first, each from its first image,
 * while within `keep` images and `maxBytes` together; the first image that
 * does not fit ends it, so nothing older than it is kept either.
 */
export function keptImages(holders: readonly ImageHolder[], keep = IMAGES_KEPT, maxBytes = MAX_ATTACHED_IMAGE_BYTES): (readonly ChatImage[])[] {
  const counts = holders.map(() => 0);
  let images = 0;
  let bytes = 0;
  keeping: for (let index = holders.length - 1; index >= 0; index--) {
    for (const image of holders[index]?.images ?? []) {
      const size = base64Bytes(image.data);
      if (images >= keep || bytes + size > maxBytes) break keeping;
      images++;
      bytes += size;
      counts[index]!++;
    }
  }
  return holders.map((holder, index) => holder.images?.slice(0, counts[index]) ?? []);
}

/** `messages` with the images beyond the latest kept taken off (in place), each message that lost some saying so once. */
export function dropOlderImages(messages: ChatMessage[], keep = IMAGES_KEPT, maxBytes = MAX_ATTACHED_IMAGE_BYTES): void {
  const kept = keptImages(
    messages.map((message) => ({ images: message.role === 'user' ? message.images : undefined })),
    keep,
    maxBytes,
  );
  messages.forEach((message, index) => {
    const images = kept[index] ?? [];
    if (message.role !== 'user' || images.length === (message.images?.length ?? 0)) return;
    const content = message.content.endsWith(NO_LONGER_ATTACHED) ? message.content : `${message.content}\n${NO_LONGER_ATTACHED}`;
    messages[index] = images.length > 0 ? { role: 'user', content, images } : { role: 'user', content };
  });
}

/** A result as kept for the rest of the run (the evaluator reads text): its images go, they are held elsewhere only while they can be sent. */
export function withoutImages(result: ToolResult): ToolResult {
  if (!result.images) return result;
  const { images: _images, ...rest } = result;
  return rest;
}
