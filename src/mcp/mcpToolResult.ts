// Turns an MCP tools/call result into what the model reads: text parts joined,
// structuredContent as JSON, images, audio and resources described in words.
import type { ToolResult } from '../tools/tool';
import { isRecord } from './isRecord';

const PREVIEW_LENGTH = 200;

export function toToolResult(result: unknown): ToolResult {
  if (!isRecord(result)) return errorResult('The MCP server sent a result that is not an object.');
  const parts: string[] = [];
  const content = Array.isArray(result['content']) ? result['content'] : [];
  for (const block of content) parts.push(describeContent(block));
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
  };
}

export function errorResult(text: string): ToolResult {
  return { text, isError: true, summary: { kind: 'text', preview: text.slice(0, PREVIEW_LENGTH) } };
}

function describeContent(block: unknown): string {
  if (!isRecord(block)) return '';
  switch (block['type']) {
    case 'text':
      return typeof block['text'] === 'string' ? block['text'] : '';
    case 'image':
    case 'audio':
      return `[${block['type']}: ${String(block['mimeType'] ?? 'unknown type')}, ${base64Bytes(block['data'])} bytes]`;
    case 'resource_link':
      return `[resource link: ${String(block['name'] ?? block['uri'])} <${String(block['uri'])}>${describeMime(block['mimeType'])}]` +
        (typeof block['description'] === 'string' ? ` ${block['description']}` : '');
    case 'resource': {
      const resource = isRecord(block['resource']) ? block['resource'] : {};
      const header = `[resource <${String(resource['uri'] ?? 'unknown')}>${describeMime(resource['mimeType'])}]`;
      if (typeof resource['text'] === 'string') return `${header}\n${resource['text']}`;
      return `${header} ${base64Bytes(resource['blob'])} bytes of binary data`;
    }
    default:
      return `[${String(block['type'])} content]`;
  }
}

function describeMime(mimeType: unknown): string {
  return typeof mimeType === 'string' ? ` (${mimeType})` : '';
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
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
