// An image the user pasted into the prompt box, as a context chip. The models
// get it as a picture with the message it was sent with, for that run only
// (like a tool's screenshot, it is never stored): the message keeps a line
// that describes it, which is all later turns, History and Retry after a
// reload see. The page's word for its type is not taken: the data's first
// bytes decide (chatImages.ts). No `vscode` here.
import { byteSize } from '../common/byteSize';
import { inspectImage, MAX_IMAGE_BYTES, MAX_IMAGES_PER_RESULT } from '../models/chatImages';
import { base64Bytes } from '../protocol/imageRules';
import type { ContextAttachment } from './contextAttachments';

/** Images one message carries at most, as a tool result does. */
export const MAX_IMAGES_PER_MESSAGE = MAX_IMAGES_PER_RESULT;

export interface PastedImage {
  /** The page's name for it (its chip is `image:<id>`). */
  readonly id: string;
  /** The file name the clipboard gave, if any ("image.png" for a screenshot). */
  readonly name?: string | undefined;
  readonly mimeType: string;
  /** Base64; empty when the page did not read it (over MAX_IMAGE_BYTES). */
  readonly data: string;
  /** Its size as the page saw it. */
  readonly bytes: number;
}

/**
 * The chip for pasted image number `index` (1, 2, …, for its label; its
 * `data-path` is `image:<id>`); `attachedBefore`: images already above the prompt box.
 * One that cannot go (not a picture, too big, one too many) is an error chip
 * that says why.
 */
export function imageAttachment(pasted: PastedImage, index: number, attachedBefore: number): ContextAttachment {
  const bytes = Math.max(pasted.bytes, base64Bytes(pasted.data));
  const inspected =
    attachedBefore >= MAX_IMAGES_PER_MESSAGE
      ? { reason: `a message takes at most ${MAX_IMAGES_PER_MESSAGE} images` }
      : bytes > MAX_IMAGE_BYTES
        ? { reason: `${byteSize(bytes)}, over the ${byteSize(MAX_IMAGE_BYTES)} an image may have` }
        : inspectImage(pasted.data);
  const label = imageLabel(pasted.name, index, 'image' in inspected ? inspected.image.mimeType : undefined);
  const base = { path: `image:${pasted.id}`, label, name: `Attached image ${label}` };
  if ('reason' in inspected) {
    const error = inspected.reason;
    return { ...base, title: `Pasted image, ${byteSize(bytes)}`, error, read: () => Promise.reject(new Error(error)) };
  }
  const { image, description } = inspected;
  return {
    ...base,
    title: description,
    image,
    read: () =>
      Promise.resolve(
        `[Image ${label} (${description}) pasted by the user: attached to this message as a picture for this run; later turns keep only this line.]`,
      ),
  };
}

/** The clipboard's name unless it is a browser's generic one ("image.png"): "Pasted image 2" then. */
function imageLabel(name: string | undefined, index: number, type: string | undefined): string {
  const trimmed = name?.trim().replace(/[\r\n]+/gu, ' ').slice(0, 120) ?? '';
  if (trimmed !== '' && !/^image\.\w+$/iu.test(trimmed)) return trimmed;
  return `Pasted image ${index}${type ? ` (${type.slice('image/'.length).toUpperCase()})` : ''}`;
}
