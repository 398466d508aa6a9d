// A stable text form of JSON values (object keys sorted), so that the same
// arguments written in another key order are recognised as the same call.

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The identity of a tool call: its name and its canonical arguments. */
export function callSignature(toolName: string, args: unknown): string {
  return `${toolName} ${canonicalJson(args)}`;
}
