// Elicitation answers checked against the server's schema, and its defaults
// applied (SEP-1034). The request types are in tools/elicitation.
import { isRecord } from '../mcp/isRecord';

import type { ElicitationSchema } from './elicitation';

/** Fills every field the answer left out with the schema's default (SEP-1034). */
export function applySchemaDefaults(
  schema: ElicitationSchema,
  content: Readonly<Record<string, unknown>> | undefined,
): Record<string, string | number | boolean | string[]> {
  const result: Record<string, string | number | boolean | string[]> = {};
  for (const [name, value] of Object.entries(content ?? {})) {
    if (isFieldValue(value)) result[name] = Array.isArray(value) ? [...value] : value;
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    if (name in result) continue;
    const fallback = property['default'];
    if (isFieldValue(fallback)) result[name] = Array.isArray(fallback) ? [...fallback] : fallback;
  }
  return result;
}

/** Checks an answer against the schema; returns the problems, one line per field. */
export function validateElicitationContent(schema: ElicitationSchema, content: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const name of schema.required ?? []) {
    const value = content[name];
    if (value === undefined || value === '') problems.push(`"${name}" is required.`);
  }
  for (const [name, value] of Object.entries(content)) {
    const property = schema.properties[name];
    if (property === undefined || value === undefined) continue;
    const problem = checkField(property, value);
    if (problem !== undefined) problems.push(`"${name}" ${problem}`);
  }
  return problems;
}

function checkField(property: Readonly<Record<string, unknown>>, value: unknown): string | undefined {
  const type = property['type'];
  const choices = enumValues(property);
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false.';
  if (type === 'number' || type === 'integer') {
    if (typeof value !== 'number' || Number.isNaN(value)) return 'must be a number.';
    if (type === 'integer' && !Number.isInteger(value)) return 'must be a whole number.';
    const minimum = property['minimum'];
    const maximum = property['maximum'];
    if (typeof minimum === 'number' && value < minimum) return `must be at least ${minimum}.`;
    if (typeof maximum === 'number' && value > maximum) return `must be at most ${maximum}.`;
    return undefined;
  }
  if (type === 'array') {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return 'must be a list of choices.';
    const items = isRecord(property['items']) ? enumValues(property['items']) : undefined;
    if (items !== undefined && !value.every((item) => items.includes(item as string))) return 'has a choice that is not offered.';
    const minItems = property['minItems'];
    const maxItems = property['maxItems'];
    if (typeof minItems === 'number' && value.length < minItems) return `needs at least ${minItems} choice${minItems === 1 ? '' : 's'}.`;
    if (typeof maxItems === 'number' && value.length > maxItems) return `allows at most ${maxItems} choice${maxItems === 1 ? '' : 's'}.`;
    return undefined;
  }
  if (typeof value !== 'string') return 'must be text.';
  if (choices !== undefined && !choices.includes(value)) return `must be one of: ${choices.join(', ')}.`;
  const minLength = property['minLength'];
  const maxLength = property['maxLength'];
  if (typeof minLength === 'number' && value.length < minLength) return `must be at least ${minLength} characters.`;
  if (typeof maxLength === 'number' && value.length > maxLength) return `must be at most ${maxLength} characters.`;
  if (property['format'] === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) return 'must be an email address.';
  if (property['format'] === 'uri' && !URL.canParse(value)) return 'must be a URL.';
  if (property['format'] === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'must be a date (YYYY-MM-DD).';
  return undefined;
}

/** The allowed values of a field: `enum`, or `oneOf`/`anyOf` entries with `const`. */
export function enumValues(property: Readonly<Record<string, unknown>>): string[] | undefined {
  const plain = property['enum'];
  if (Array.isArray(plain)) return plain.filter((item): item is string => typeof item === 'string');
  const titled = property['oneOf'] ?? property['anyOf'];
  if (Array.isArray(titled)) return titled.flatMap((item) => (isRecord(item) && typeof item['const'] === 'string' ? [item['const']] : []));
  return undefined;
}

function isFieldValue(value: unknown): value is string | number | boolean | string[] {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
}
