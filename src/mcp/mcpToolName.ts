// MCP tool names as the model sees them: `<server>__<tool>`, fitted to
// OpenAI's rule ^[a-zA-Z0-9_-]{1,64}$ and unique even when two names collide
// after cleaning or truncation.

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/** `<server>__<tool>` with every character outside [a-zA-Z0-9_-] made `_`, cut to 64 characters. */
export function cleanToolName(server: string, tool: string): string {
  const clean = (part: string): string => part.replace(/[^a-zA-Z0-9_-]/g, '_');
  const name = `${clean(server) || 'server'}__${clean(tool) || 'tool'}`;
  return name.slice(0, MAX_LENGTH);
}

/**
 * Names for a list of (server, tool) pairs, in order: the first to claim a
 * name keeps it, later ones get `_2`, `_3`, ... (cut so the whole fits 64).
 */
export function assignToolNames(entries: readonly { readonly server: string; readonly tool: string }[]): string[] {
  const taken = new Set<string>();
  return entries.map(({ server, tool }) => {
    const base = cleanToolName(server, tool);
    let name = base;
    for (let counter = 2; taken.has(name); counter++) {
      const suffix = `_${counter}`;
      name = base.slice(0, MAX_LENGTH - suffix.length) + suffix;
    }
    taken.add(name);
    return name;
  });
}
