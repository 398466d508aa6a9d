// What counts as an image a tool may hand on, for the models (src/models/
// chatImages.ts) and the panel (webview/resultImages.ts) alike: one list of
// types and one data check, so the two cannot drift apart. No Buffer here:
// the panel's bundle imports it.

/** The raster types OpenAI-compatible vision models take (never SVG: it is a document, not a picture). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** OpenAI's limit per image is 20 MB; a screenshot far above a few MB is a mistake, not a picture to read. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function isImageType(mimeType: string): boolean {
  return IMAGE_TYPES.has(mimeType.toLowerCase());
}

export function isBase64(data: string): boolean {
  return BASE64.test(data);
}

/** Bytes the base64 `data` decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
