// How the panel names MCP servers: by name, and by name and where it is
// configured when two servers share a name (one in the settings, one in a
// workspace's .vscode/mcp.json, say), so their statuses can be told apart.

export interface NamedServer {
  readonly name: string;
  readonly source: string;
}

/** The label of each server, in the order given. */
export function serverLabels(servers: readonly NamedServer[]): string[] {
  const counts = new Map<string, number>();
  for (const server of servers) counts.set(server.name, (counts.get(server.name) ?? 0) + 1);
  return servers.map((server) => ((counts.get(server.name) ?? 0) > 1 ? `${server.name} (${shortSource(server.source)})` : server.name));
}

/** "settings", or a configuration file by its last folder and name (".vscode/mcp.json"). */
function shortSource(source: string): string {
  const parts = source.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? source : parts.slice(-2).join('/');
}
