// MCP resources the user attached to the next message (from Tandem: Show MCP
// Servers). They show as context chips above the prompt box; sending reads
// each one from its server and adds its text to the message, marked with its
// URI, then the chips are cleared. A resource that cannot be read is named in
// the message instead of failing the send.
import type { McpHub } from '../mcp/mcpHub';
import type { McpServerRef } from '../mcp/mcpToolSwitches';

export interface AttachedResource {
  readonly server: McpServerRef;
  readonly uri: string;
  readonly label: string;
}

export class ResourceAttachments {
  private items: AttachedResource[] = [];
  private readonly listeners = new Set<() => void>();

  list(): readonly AttachedResource[] {
    return this.items;
  }

  attach(item: AttachedResource): void {
    if (this.items.some((each) => each.uri === item.uri && each.server.name === item.server.name && each.server.source === item.server.source)) return;
    this.items = [...this.items, item];
    this.changed();
  }

  detach(uri: string): void {
    this.items = this.items.filter((each) => each.uri !== uri);
    this.changed();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** `text` with every attached resource's contents added; the attachments are used up. */
  async appendTo(text: string, hub: McpHub, signal: AbortSignal): Promise<string> {
    if (this.items.length === 0) return text;
    const items = this.items;
    this.items = [];
    this.changed();
    const blocks = await Promise.all(
      items.map(async (item) => {
        try {
          const content = await hub.readResource(item.server, item.uri, signal);
          return `Attached resource ${item.uri} (MCP server "${item.server.name}"):\n${fence(content)}`;
        } catch (error) {
          return `Attached resource ${item.uri} could not be read: ${error instanceof Error ? error.message : String(error)}`;
        }
      }),
    );
    return [text, ...blocks].join('\n\n');
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}
