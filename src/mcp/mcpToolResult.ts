// Turns an MCP tools/call result into what the model reads: text parts joined,
// structuredContent as JSON, audio and resources described in words; images
// described too, and kept to be shown to a model that takes them.
import { MAX_ATTACHED_IMAGE_BYTES, MAX_IMAGES_PER_RESULT, unsendableReason } from '../models/chatImages';
import { base64Bytes } from '../protocol/imageRules';
import type { ChatImage } from '../models/chatModel';
import type { ToolResult } from '../tools/tool';
import { isRecord } from './isRecord';
import { byteSize } from '../common/byteSize';

const PREVIEW_LENGTH = 200;

export function toToolResult(result: unknown): ToolResult {
  if (!isRecord(result)) return errorResult('The MCP server sent a result that is not an object.');
  const parts: string[] = [];
  const images: ChatImage[] = [];
  const content = Array.isArray(result['content']) ? result['content'] : [];
  for (const block of content) parts.push(isRecord(block) && block['type'] === 'image' ? keepImage(block, images) : describeContent(block));
  const structured = result['structuredContent'];
  if (structured !== undefined && !textRepeatsJson(parts, structured)) parts.push(JSON.stringify(structured, null, 2));
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  if (content.length === 0 && result['toolResult'] !== undefined) parts.push(stringify(result['toolResult']));
  const text = parts.filter((part) => part !== '').join('\n');
  const isError = result['isError'] === true;
  return {
    text: text === '' ? (isError ? 'The tool reported an error without details.' : '(no output)') : text,
    isError,
    summary: { kind: 'text', preview: text.slice(0, PREVIEW_LENGTH) },
    ...(images.length > 0 && { images }),
  };
}

/** Describes an image block and keeps it when a model could be shown it; says why not otherwise. */
function keepImage(block: Record<string, unknown>, images: ChatImage[]): string {
  const mimeType = typeof block['mimeType'] === 'string' ? block['mimeType'] : 'unknown type';
  const data = typeof block['data'] === 'string' ? block['data'] : '';
  const described = `[image: ${mimeType}, ${base64Bytes(data)} bytes`;
  const keptBytes = images.reduce((sum, image) => sum + base64Bytes(image.data), 0);
  const unsendable =
    unsendableReason(mimeType, data) ??
    (images.length >= MAX_IMAGES_PER_RESULT
      ? `only ${MAX_IMAGES_PER_RESULT} images of a result are shown`
      : keptBytes + base64Bytes(data) > MAX_ATTACHED_IMAGE_BYTES
        ? `the result's images are over ${byteSize(MAX_ATTACHED_IMAGE_BYTES)} together`
        : undefined);
  if (unsendable !== undefined) return `${described}; not shown to the model: ${unsendable}]`;
  images.push({ mimeType: mimeType.toLowerCase(), data });
  return `${described}; image ${images.length} of this result]`;
}

export function errorResult(text: string): ToolResult {
  return { text, isError: true, summary: { kind: 'text', preview: text.slice(0, PREVIEW_LENGTH) } };
}

function describeContent(block: unknown): string {
  if (!isRecord(block)) return '';
  switch (block['type']) {
    case 'text':
      return typeof block['text'] === 'string' ? block['text'] : '';
    case 'audio':
      return `[audio: ${String(block['mimeType'] ?? 'unknown type')}, ${typeof block['data'] === 'string' ? base64Bytes(block['data']) : 0} bytes]`;
    case 'resource_link':
      return `[resource link: ${String(block['name'] ?? block['uri'])} <${String(block['uri'])}>${describeMime(block['mimeType'])}]` +
        (typeof block['description'] === 'string' ? ` ${block['description']}` : '');
    case 'resource': {
      const resource = isRecord(block['resource']) ? block['resource'] : {};
      const header = `[resource <${String(resource['uri'] ?? 'unknown')}>${describeMime(resource['mimeType'])}]`;
      if (typeof resource['text'] === 'string') return `${header}\n${resource['text']}`;
      return `${header} ${typeof resource['blob'] === 'string' ? base64Bytes(resource['blob']) : 0} bytes of binary data`;
    }
    default:
      return `[${String(block['type'])} content]`;
  }
}

function describeMime(mimeType: unknown): string {
  return typeof mimeType === 'string' ? ` (${mimeType})` : '';
}

/** Servers should also put structuredContent in a text part; do not show it twice. */
function textRepeatsJson(parts: readonly string[], structured: unknown): boolean {
  const wanted = JSON.stringify(structured);
  return parts.some((part) => {
    try {
      return JSON.stringify(JSON.parse(part)) === wanted;
    } catch {
      return false;
    }
  });
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
