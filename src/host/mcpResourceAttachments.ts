// An MCP resource the user attached to the next message (from Tandem: Show
// MCP Servers), as a context chip: sending reads it from its server and adds
// its text, marked with its URI.
import type { McpHub } from '../mcp/mcpHub';
import type { McpServerRef } from '../mcp/mcpToolSwitches';
import { contextBlock } from '../tools/contextContent';
import type { ContextAttachment } from './contextAttachments';

export interface AttachedResource {
  readonly server: McpServerRef;
  readonly uri: string;
  readonly label: string;
}

export function mcpResourceAttachment(item: AttachedResource, hub: McpHub): ContextAttachment {
  return {
    path: item.uri,
    key: `${item.server.source}\u0000${item.server.name}\u0000${item.uri}`,
    label: item.label,
    title: `${item.uri} (MCP server "${item.server.name}")`,
    name: `Attached resource ${item.uri}`,
    read: async (signal) => contextBlock(`Attached resource ${item.uri} (MCP server "${item.server.name}")`, await hub.readResource(item.server, item.uri, signal)),
  };
}
