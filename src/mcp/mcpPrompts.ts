// A server's prompts (MCP prompts/list, prompts/get): what the prompt box
// offers as `/<server>.<prompt>` and the text a chosen prompt becomes. The
// list follows prompts/list_changed (the session refreshes it).
import type { McpSession } from './mcpSession';

export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string | undefined;
  readonly required: boolean;
}

export interface McpPromptInfo {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly arguments: readonly McpPromptArgument[];
}

const MAX_PROMPT_PAGES = 20;

/** Every prompt of a server that offers prompts; empty for one that does not. */
export async function listPrompts(session: McpSession, timeoutMs: number, signal: AbortSignal): Promise<McpPromptInfo[]> {
  if (session.client.getServerCapabilities()?.prompts === undefined) return [];
  const prompts: McpPromptInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PROMPT_PAGES; page++) {
    const result = await session.client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, signal });
    for (const prompt of result.prompts) prompts.push(toPromptInfo(prompt));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return prompts;
}

export function toPromptInfo(prompt: { name: string; title?: string | undefined; description?: string | undefined; arguments?: { name: string; description?: string | undefined; required?: boolean | undefined }[] | undefined }): McpPromptInfo {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: (prompt.arguments ?? []).map((argument) => ({ name: argument.name, description: argument.description, required: argument.required === true })),
  };
}

/** The prompt's messages as one text for the prompt box: text parts as they are, other content named. */
export async function promptText(session: McpSession, name: string, args: Readonly<Record<string, string>>, timeoutMs: number, signal: AbortSignal): Promise<string> {
  const result = await session.client.getPrompt({ name, arguments: { ...args } }, { timeout: timeoutMs, signal });
  const parts: string[] = [];
  for (const message of result.messages) {
    const content = message.content;
    if (content.type === 'text') parts.push(content.text);
    else if (content.type === 'resource') parts.push('text' in content.resource ? content.resource.text : `[resource ${content.resource.uri}]`);
    else if (content.type === 'resource_link') parts.push(`[resource ${content.uri}]`);
    else parts.push(`[${content.type}]`);
  }
  return parts.join('\n\n');
}
