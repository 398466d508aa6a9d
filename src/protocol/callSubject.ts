// What a tool call is about, from its arguments' JSON, in a few words: the
// panel's step titles and a subagent's list of steps say it the same way.

/** The arguments that say what a call is about, in the order they are looked for. */
const SUBJECT_KEYS = ['query', 'pattern', 'glob', 'path', 'command', 'url', 'uri', 'file', 'symbol', 'name', 'task'] as const;
const QUOTED_SUBJECTS: ReadonlySet<string> = new Set(['query', 'pattern', 'glob', 'task']);

/** `"needle"` for a search, the path for a read, the command for run_command; undefined when no argument says it. */
export function callSubject(argsText: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(argsText);
  } catch {
    return undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  for (const key of SUBJECT_KEYS) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const line = value.replace(/\s+/g, ' ').trim();
    const cut = line.length > 60 ? `${line.slice(0, 57)}...` : line;
    return QUOTED_SUBJECTS.has(key) ? `"${cut}"` : cut;
  }
  return undefined;
}
