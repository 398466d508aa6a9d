// A server's resources (MCP resources/list, resources/read): what the user can
// attach to a message as context. The list follows resources/list_changed.
import type { McpSession } from './mcpSession';

export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly mimeType?: string | undefined;
}

const MAX_RESOURCE_PAGES = 20;
/** An attached resource's text is cut here: context is not free. */
export const MAX_RESOURCE_CHARACTERS = 100_000;

/** Every listed resource of a server that offers resources; empty for one that does not. */
export async function listResources(session: McpSession, timeoutMs: number, signal: AbortSignal): Promise<McpResourceInfo[]> {
  if (session.client.getServerCapabilities()?.resources === undefined) return [];
  const resources: McpResourceInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_RESOURCE_PAGES; page++) {
    const result = await session.client.listResources(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, signal });
    for (const resource of result.resources) resources.push({ uri: resource.uri, name: resource.name, title: resource.title, mimeType: resource.mimeType });
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return resources;
}

/** A resource's contents as text: text parts as they are, binary ones named with their size; capped. */
export async function readResourceText(session: McpSession, uri: string, timeoutMs: number, signal: AbortSignal): Promise<string> {
  const result = await session.client.readResource({ uri }, { timeout: timeoutMs, signal });
  const text = result.contents
    .map((content) => ('text' in content && typeof content.text === 'string' ? content.text : `[binary ${content.mimeType ?? 'data'}, ${'blob' in content ? Math.floor((String(content.blob).length * 3) / 4) : 0} bytes]`))
    .join('\n');
  return text.length > MAX_RESOURCE_CHARACTERS ? `${text.slice(0, MAX_RESOURCE_CHARACTERS)}\n[… ${text.length - MAX_RESOURCE_CHARACTERS} more characters left out]` : text;
}
