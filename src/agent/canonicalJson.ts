// A stable text form of JSON values (object keys sorted), so that the same
// arguments written in another key order are recognised as the same call.

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index++) out += (index > 0 ? ',' : '') + canonicalJson(value[index]);
    return `${out}]`;
  }
  // One pass over the sorted keys, no intermediate arrays of entries: the loop guard runs this on every call's arguments.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** The identity of a tool call: its name and its canonical arguments. */
export function callSignature(toolName: string, args: unknown): string {
  return `${toolName} ${canonicalJson(args)}`;
}

/** callSignature of a call as the model wrote it: arguments that are not JSON are compared as text. */
export function rawCallSignature(toolName: string, rawArguments: string): string {
  let args: unknown = rawArguments;
  try {
    args = JSON.parse(rawArguments || '{}');
  } catch {
    // Compared as the text it is.
  }
  return callSignature(toolName, args);
}
