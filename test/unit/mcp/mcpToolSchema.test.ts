import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeToolSchema } from '../../../src/mcp/mcpToolSchema';

describe('sanitizeToolSchema', () => {
  it('keeps a plain object schema as it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'number', description: 'first' } }, required: ['a'], additionalProperties: false };
    assert.deepEqual(sanitizeToolSchema(schema), schema);
  });

  it('drops keywords the model API rejects, at every depth', () => {
    const clean = sanitizeToolSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        when: { type: 'string', if: { minLength: 1 }, then: {}, examples: ['x'] },
        list: { type: 'array', prefixItems: [{ type: 'string' }] },
        any: true,
      },
      unevaluatedProperties: false,
    });
    assert.deepEqual(clean, {
      type: 'object',
      properties: { when: { type: 'string' }, list: { type: 'array', items: {} }, any: {} },
    });
  });

  it('makes any root an object and keeps only required names that exist', () => {
    assert.deepEqual(sanitizeToolSchema({ anyOf: [{ type: 'string' }], required: ['gone', 7] }), { type: 'object', properties: {} });
    assert.deepEqual(sanitizeToolSchema(undefined), { type: 'object', properties: {} });
    assert.deepEqual(sanitizeToolSchema({ type: 'object', properties: { a: {} }, required: ['a', 'b'] }), { type: 'object', properties: { a: {} }, required: ['a'] });
  });

  it('cuts a runaway nesting into "anything" instead of failing', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 40; level++) deep = { type: 'object', properties: { next: deep } };
    const text = JSON.stringify(sanitizeToolSchema(deep));
    assert.ok(text.length < 1_000);
  });
  it('merges a root oneOf into one object: every branch\'s properties, required only where all branches agree', () => {
    const merged = sanitizeToolSchema({
      type: 'object',
      properties: { mode: { type: 'string' } },
      oneOf: [
        { properties: { path: { type: 'string' }, recursive: { type: 'boolean' } }, required: ['path', 'mode'] },
        { properties: { url: { type: 'string', format: 'uri' } }, required: ['url', 'mode'] },
      ],
    });
    assert.deepEqual(merged, {
      type: 'object',
      properties: { mode: { type: 'string' }, path: { type: 'string' }, recursive: { type: 'boolean' }, url: { type: 'string', format: 'uri' } },
      required: ['mode'],
    });
  });

  it('drops a type JSON Schema does not have, and keeps the known ones of a list', () => {
    assert.deepEqual(sanitizeToolSchema({ type: 'object', properties: { x: { type: 'mystery' }, y: { type: ['string', 'date', 'null'] }, z: { type: ['when'] } } }).properties, {
      x: {},
      y: { type: ['string', 'null'] },
      z: {},
    });
  });
});
