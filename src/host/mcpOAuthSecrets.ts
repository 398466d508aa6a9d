// OAuth credentials of remote MCP servers in VS Code's SecretStorage: one
// entry per workspace, server (name and config file) and URL, so a token is
// never sent to another server, another workspace's server of the same name,
// or a changed URL. Never logged; unreadable entries count as none.
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { McpRemoteDefinition } from '../mcp/mcpConfig';
import type { McpOAuthState, McpOAuthStore } from '../mcp/mcpOAuthProvider';
import { workspaceKey } from './workspaceIdentity';

const prefix = 'tandem.mcp.oauth/';

export function oauthSecretKey(definition: Pick<McpRemoteDefinition, 'name' | 'source' | 'url'>, workspace = workspaceKey()): string {
  const server = createHash('sha256').update(`${definition.source}\u0000${definition.name}\u0000${definition.url}`).digest('hex').slice(0, 32);
  return `${prefix}${workspace}/${server}`;
}

export function secretOAuthStore(secrets: vscode.SecretStorage, definition: McpRemoteDefinition): McpOAuthStore {
  const key = oauthSecretKey(definition);
  return {
    load: async () => {
      const text = await secrets.get(key);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as McpOAuthState;
      } catch {
        return undefined;
      }
    },
    save: async (state) => {
      if (state.tokens === undefined && state.client === undefined) await secrets.delete(key);
      else await secrets.store(key, JSON.stringify(state));
    },
  };
}
