// Where an offset into a text is, as a person finds it in an editor.

/** "line 3, column 14" (both 1-based) for a character offset into `text`. */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
