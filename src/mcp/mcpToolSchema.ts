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

export function sanitizeToolSchema(schema: unknown): Record<string, unknown> {
  const clean = isRecord(schema) ? (cleanNode(schema, 0) as Record<string, unknown>) : {};
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
  // An array without items is rejected by some APIs.
  if (result['type'] === 'array' && result['items'] === undefined) result['items'] = {};
  return result;
}

function cleanSubschema(child: unknown, depth: number): unknown {
  // `true` means "anything"; some APIs reject boolean schemas.
  if (child === true) return {};
  if (child === false) return { enum: [] };
  return cleanNode(child, depth + 1);
}
