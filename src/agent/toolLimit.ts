// How many tools one request may offer: OpenAI's API refuses a request with
// more than 128, so a run offers the first 128 (the workspace tools come
// first, then MCP servers' tools in name order) and says what it left out.
import type { Tool } from '../tools/tool';

export const MAX_TOOLS_PER_REQUEST = 128;

export interface OfferedTools {
  readonly tools: readonly Tool[];
  /** The user's words for what was left out, or undefined when everything fits. */
  readonly notice: string | undefined;
}

export function offeredTools(tools: readonly Tool[], limit = MAX_TOOLS_PER_REQUEST): OfferedTools {
  if (tools.length <= limit) return { tools, notice: undefined };
  const left = tools.slice(limit);
  const servers = [...new Set(left.map(({ source }) => (source.kind === 'mcp' ? `"${source.server}"` : source.kind === 'frontend' ? "the client's tools" : 'the workspace tools')))];
  const notice =
    `${tools.length} tools are on, and a request may offer at most ${limit}: the last ${left.length} (from ${servers.join(', ')}) are not offered in this run. ` +
    'Turn off the servers or tools you do not need in "Tandem: Show MCP Servers".';
  return { tools: tools.slice(0, limit), notice };
}
