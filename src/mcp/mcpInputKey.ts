// Where an MCP input's value is kept: per workspace, config file and input id,
// so a value given to one workspace's mcp.json is never handed to another file
// that happens to use the same id.
import { createHash } from 'node:crypto';

export function mcpInputStorageKey(workspace: string, file: string, id: string): string {
  const fileHash = createHash('sha256').update(file).digest('hex').slice(0, 16);
  return `${workspace}:${fileHash}:${id}`;
}
