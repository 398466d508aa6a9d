// A server's tool input schema made acceptable to the model API: the request
// carries every tool's schema, so one schema the API rejects would fail every
// request. Keeps what function calling understands, drops the rest.
import { isRecord } from './isRecord';

/** Keywords the model APIs reject or ignore in function parameters. */
const DROPPED_KEYWORDS = new Set([
  '$schema', '$id', '$anchor', '$comment', '$dynamicRef', '$dynamicAnchor', '$vocabulary',
  'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas', 'dependentRequired', 'dependencies',
  'if', 'then', 'else', 'not', 'contentEncoding', 'contentMediaType', 'contentSchema',
  'propertyNames', 'patternProperties', 'prefixItems', 'additionalItems', 'contains', 'minContains', 'maxContains',
  'examples', 'readOnly', 'writeOnly', 'deprecated',
]);
/** Combinators a function's top-level parameters may not use (it must be one plain object). */
const ROOT_ONLY_DROPPED = ['oneOf', 'anyOf', 'allOf', 'enum', 'const'];
const MAX_DEPTH = 12;

/** The types JSON Schema has; any other `type` value is dropped (an API rejects the whole request for one). */
const JSON_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export function sanitizeToolSchema(schema: unknown): Record<string, unknown> {
  const clean = isRecord(schema) ? (cleanNode(schema, 0) as Record<string, unknown>) : {};
  mergeRootAlternatives(clean);
  for (const keyword of ROOT_ONLY_DROPPED) delete clean[keyword];
  clean['type'] = 'object';
  if (!isRecord(clean['properties'])) clean['properties'] = {};
  const properties = clean['properties'] as Record<string, unknown>;
  const required = clean['required'];
  if (required !== undefined) {
    const names = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string' && name in properties) : [];
    if (names.length > 0) clean['required'] = names;
    else delete clean['required'];
  }
  return clean;
}

function cleanNode(node: unknown, depth: number): unknown {
  if (Array.isArray(node)) return node.map((item) => cleanNode(item, depth + 1));
  if (!isRecord(node)) return node;
  // Past the depth limit a subschema becomes "anything" rather than failing the request.
  if (depth > MAX_DEPTH) return {};
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYWORDS.has(key)) continue;
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      if (!isRecord(value)) continue;
      result[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, isRecord(child) || typeof child === 'boolean' ? cleanSubschema(child, depth) : {}]));
      continue;
    }
    result[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'required' ? value : cleanNode(value, depth + 1);
  }
  const type = result['type'];
  if (Array.isArray(type)) {
    const known = type.filter((each) => JSON_TYPES.has(each));
    if (known.length > 0) result['type'] = known;
    else delete result['type'];
  } else if (type !== undefined && !JSON_TYPES.has(type)) delete result['type'];
  // An array without items is rejected by some APIs.
  if (result['type'] === 'array' && result['items'] === undefined) result['items'] = {};
  return result;
}

/**
 * Function parameters must be one plain object, so a root `oneOf`/`anyOf`
 * (either these arguments or those) becomes one object with every branch's
 * properties, required only where every branch requires them: the model
 * still sees each argument's name and type, and the server checks the rest.
 */
function mergeRootAlternatives(root: Record<string, unknown>): void {
  const branches = [root['oneOf'], root['anyOf']].flatMap((list) => (Array.isArray(list) ? list.filter(isRecord) : []));
  if (branches.length === 0) return;
  const properties: Record<string, unknown> = isRecord(root['properties']) ? { ...root['properties'] } : {};
  for (const branch of branches) {
    if (!isRecord(branch['properties'])) continue;
    for (const [name, schema] of Object.entries(branch['properties'])) if (!(name in properties)) properties[name] = schema;
  }
  const requiredBy = (schema: Record<string, unknown>) => (Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string') : []);
  const inEvery = requiredBy(branches[0]!).filter((name) => branches.every((branch) => requiredBy(branch).includes(name)));
  root['properties'] = properties;
  const required = [...new Set([...requiredBy(root), ...inEvery])];
  if (required.length > 0) root['required'] = required;
}

function cleanSubschema(child: unknown, depth: number): unknown {
  // `true` means "anything"; some APIs reject boolean schemas.
  if (child === true) return {};
  if (child === false) return { enum: [] };
  return cleanNode(child, depth + 1);
}
