// Arguments some models send in the wrong JSON type: an array or object
// written as a JSON string (`"edits": "[{...}]"`), a number or a boolean in
// quotes (`"startLine": "10"`), or the whole arguments object encoded twice.
// Each is taken as what it plainly says when the tool's schema leaves no
// doubt (the field is declared with that one type and the string is exactly
// such a value), so the call runs instead of costing a round to refuse it.
// Anything else is left as sent, for the tool to refuse. No vscode import.

type JsonType = 'array' | 'object' | 'integer' | 'number' | 'boolean';

export interface RepairedArguments {
  readonly value: unknown;
  /** The fields taken from a string (`""` for the whole object); empty when nothing was changed. */
  readonly repaired: readonly string[];
}

/** `args` as the tool's JSON schema (`parameters`) declares them, where a string plainly stands for the declared type. */
export function repairArguments(args: unknown, parameters: Readonly<Record<string, unknown>>): RepairedArguments {
  let value = args;
  const repaired: string[] = [];
  if (typeof value === 'string') {
    const inner = parseJson(value);
    if (!isPlainObject(inner)) return { value: args, repaired };
    value = inner;
    repaired.push('');
  }
  if (!isPlainObject(value)) return { value, repaired };
  const properties = parameters['properties'];
  if (!isPlainObject(properties)) return { value, repaired };
  let fixed: Record<string, unknown> | undefined;
  for (const [name, given] of Object.entries(value)) {
    if (typeof given !== 'string') continue;
    const declared = singleType(properties[name]);
    if (declared === undefined) continue;
    const taken = fromString(given, declared);
    if (taken === undefined) continue;
    fixed ??= { ...value };
    fixed[name] = taken.value;
    repaired.push(name);
  }
  return { value: fixed ?? value, repaired };
}

/** The one non-string type a property declares (`type: "array"`, or `["array", "null"]`); undefined when a string could be meant. */
function singleType(schema: unknown): JsonType | undefined {
  if (!isPlainObject(schema)) return undefined;
  const type = schema['type'];
  const types = Array.isArray(type) ? type.filter((entry) => entry !== 'null') : [type];
  if (types.length !== 1) return undefined;
  const [only] = types;
  return only === 'array' || only === 'object' || only === 'integer' || only === 'number' || only === 'boolean' ? only : undefined;
}

function fromString(text: string, type: JsonType): { value: unknown } | undefined {
  const trimmed = text.trim();
  if (type === 'boolean') return trimmed === 'true' ? { value: true } : trimmed === 'false' ? { value: false } : undefined;
  if (type === 'integer' || type === 'number') {
    // Only a plain decimal numeral: not "", "0x10", "1e3" nor "10 lines".
    if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return undefined;
    const number = Number(trimmed);
    return type === 'integer' && !Number.isInteger(number) ? undefined : { value: number };
  }
  const parsed = parseJson(trimmed);
  if (type === 'array') return Array.isArray(parsed) ? { value: parsed } : undefined;
  return isPlainObject(parsed) ? { value: parsed } : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
