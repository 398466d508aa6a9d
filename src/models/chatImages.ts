// Images in a request: which a model is sent, how they go on the wire, and
// what they cost in tokens. A model reads an image as a fixed number of
// tokens set by its size, not by its base64 length, so counting the data URL
// as text would overstate a screenshot's share of the window a hundredfold.
import { base64Bytes, isBase64, isImageType, MAX_IMAGE_BYTES } from '../protocol/imageRules';
import type { ChatImage } from './chatModel';
import { byteSize } from '../common/byteSize';

export { MAX_IMAGE_BYTES } from '../protocol/imageRules';

/** Images of one tool result sent at most; the rest are only described. */
export const MAX_IMAGES_PER_RESULT = 4;

/**
 * Image bytes one tool result keeps, and one request carries, at most: every
 * request of a run resends what is attached, so this bounds each body.
 */
export const MAX_ATTACHED_IMAGE_BYTES = 8 * 1024 * 1024;

/** What a full-detail image of unknown size is counted as: a 1024×768 picture. */
const UNKNOWN_SIZE_TOKENS = 765;

/** Said in place of images a model was not sent. */
export const IMAGES_NOT_SENT = 'The images were not sent: this model does not take images. Rely on their descriptions (in the results, or the lines about images the user pasted), and tell the user what you could not see.';

/** Why an image cannot be sent, or undefined when it can. */
export function unsendableReason(mimeType: string, data: string): string | undefined {
  if (!isImageType(mimeType)) return `${mimeType} is not a type models take`;
  // The size first: a huge string is not worth scanning.
  if (base64Bytes(data) > MAX_IMAGE_BYTES) return `over ${byteSize(MAX_IMAGE_BYTES)}`;
  if (!isBase64(data)) return 'its data is not base64';
  return undefined;
}

export function dataUrl(image: ChatImage): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** The type the data's first bytes say it is (PNG, JPEG, GIF, WebP), whatever it was labelled; undefined for anything else. */
export function sniffedImageType(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 16), 'base64');
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * An image a person or a client handed over (pasted, sent in a message): the
 * picture typed by its bytes and how to name it ("PNG image, 120 KB,
 * 800×600"), or why the models cannot take it.
 */
export function inspectImage(data: string): { readonly image: ChatImage; readonly description: string } | { readonly reason: string } {
  const mimeType = sniffedImageType(data);
  if (mimeType === undefined) return { reason: 'not a PNG, JPEG, GIF or WebP image' };
  const unsendable = unsendableReason(mimeType, data);
  if (unsendable !== undefined) return { reason: unsendable };
  const size = imageSize(data);
  const description = [`${mimeType.slice('image/'.length).toUpperCase()} image`, byteSize(base64Bytes(data)), ...(size ? [`${size.width}×${size.height}`] : [])].join(', ');
  return { image: { mimeType, data }, description };
}

/** Width and height from a PNG's or GIF's header, when the data is one. */
export function imageSize(data: string): { width: number; height: number } | undefined {
  const head = Buffer.from(data.slice(0, 44), 'base64');
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47 && head.toString('latin1', 12, 16) === 'IHDR') {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (head.length >= 10 && head.toString('latin1', 0, 4) === 'GIF8') return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  return undefined;
}

/**
 * Tokens an image costs at full detail by OpenAI's published rule: fit in
 * 2048×2048, shortest side down to 768, then 170 a 512-pixel tile plus 85.
 */
export function imageTokens(data: string): number {
  const size = imageSize(data);
  if (!size || size.width === 0 || size.height === 0) return UNKNOWN_SIZE_TOKENS;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shorten = Math.min(1, 768 / Math.min(width, height));
  width *= shorten;
  height *= shorten;
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/**
 * A count no common vision model exceeds for the image: OpenAI's rule, or a
 * token per 28×28 pixels (Qwen-VL's patches), whichever is more.
 */
export function imageTokensBound(data: string): number {
  const size = imageSize(data);
  if (!size) return 4096;
  return Math.max(imageTokens(data), Math.ceil((size.width * size.height) / 784) + 2);
}

const DATA_URL = /^data:image\/[\w.+-]+;base64,/;

/**
 * A wire request's JSON as text, with each image's data URL left out, and the
 * tokens those images cost: for estimates made from the request as sent.
 */
export function withoutImageData(value: unknown): { readonly text: string; readonly imageTokens: number } {
  let tokens = 0;
  const text = JSON.stringify(value, (key, item: unknown) => {
    if (key === 'url' && typeof item === 'string' && DATA_URL.test(item)) {
      tokens += imageTokens(item.slice(item.indexOf(',') + 1));
      return '';
    }
    return item;
  });
  return { text: text ?? '', imageTokens: tokens };
}
