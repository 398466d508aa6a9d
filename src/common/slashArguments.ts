// The `name=value` words after a slash command, the one syntax both kinds of
// slash command (an MCP server's prompt, a repository's prompt file) take.

/** `name=value` words; a value may be "quoted with spaces"; other words are not arguments. */
export function parseSlashArguments(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const match of text.matchAll(/([\w-]+)=(?:"([^"]*)"|(\S*))/g)) {
    const name = match[1];
    if (name !== undefined) values.set(name, match[2] ?? match[3] ?? '');
  }
  return values;
}
