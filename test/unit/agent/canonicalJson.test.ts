import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callSignature, canonicalJson } from '../../../src/agent/canonicalJson';

describe('canonicalJson', () => {
  it('writes the same text for the same value in any key order, at any depth', () => {
    const a = { path: 'src/a.ts', range: { start: 1, end: 9 }, flags: ['x', { b: 2, a: 1 }] };
    const b = { flags: ['x', { a: 1, b: 2 }], range: { end: 9, start: 1 }, path: 'src/a.ts' };
    assert.equal(canonicalJson(a), canonicalJson(b));
    assert.equal(canonicalJson(a), '{"flags":["x",{"a":1,"b":2}],"path":"src/a.ts","range":{"end":9,"start":1}}');
  });

  it('is JSON: it parses back to the value, undefined members dropped as JSON.stringify drops them', () => {
    const value = { z: undefined, a: [1, null, 'two', undefined], n: { k: undefined }, 'quo"te': true };
    assert.deepEqual(JSON.parse(canonicalJson(value)), JSON.parse(JSON.stringify(value)));
    assert.equal(canonicalJson({ first: undefined, second: 2 }), '{"second":2}');
    assert.equal(canonicalJson([]), '[]');
    assert.equal(canonicalJson({}), '{}');
    assert.equal(canonicalJson('text'), '"text"');
    assert.equal(canonicalJson(undefined), 'null');
  });

  it('tells calls apart by name and arguments only', () => {
    assert.equal(callSignature('read', { b: 1, a: 2 }), callSignature('read', { a: 2, b: 1 }));
    assert.notEqual(callSignature('read', { a: 1 }), callSignature('write', { a: 1 }));
    assert.notEqual(callSignature('read', { a: 1 }), callSignature('read', { a: '1' }));
  });
});
