// Where an offset into a text is, as a person finds it in an editor.

/** "line 3, column 14" (both 1-based) for a character offset into `text`. */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** The first line (1-based) where `after` differs from `before`; 1 for a new file. */
export function firstChangedLine(before: string | undefined, after: string): number {
  if (before === undefined) return 1;
  const end = Math.min(before.length, after.length);
  let offset = 0;
  while (offset < end && before.charCodeAt(offset) === after.charCodeAt(offset)) offset++;
  let line = 1;
  for (let index = after.indexOf('\n'); index !== -1 && index < offset; index = after.indexOf('\n', index + 1)) line++;
  return line;
}
