// search_text's include/exclude as the model writes them: commas split a
// string outside braces, braces expand (nested too), what is left of a brace
// is a character in both engines, and an expansion too large is refused
// before it is made.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GlobListError, globList, MAX_GLOBS } from '../../../src/tools/globList';

describe('globList', () => {
  it('splits a string at commas outside braces and expands braces, nested ones included', () => {
    const cases: [string | string[], string[]][] = [
      ['src/**, *.md', ['src/**', '*.md']],
      ['*.{ts,tsx}', ['*.ts', '*.tsx']],
      ['{a,{b,c}}/**', ['a/**', 'b/**', 'c/**']],
      ['*.{ts,{js,jsx}}, docs', ['*.ts', '*.js', '*.jsx', 'docs']],
      [['{lib,src}/*.js', 'x'], ['lib/*.js', 'src/*.js', 'x']],
      [' , ,', []],
      [['', '  '], []],
    ];
    for (const [given, expected] of cases) assert.deepEqual(globList(given), expected, JSON.stringify(given));
  });

  it('leaves escapes, ranges and lone braces as characters', () => {
    const cases: [string, string[]][] = [
      ['a\\,b', ['a\\,b']],
      ['weird\\{a,b\\}/**', ['weird\\{a,b\\}/**']],
      ['\\\\*.{a,b}', ['\\\\*.\\{a,b\\}']],
      ['{1..100000}', ['\\{1..100000\\}']],
      ['a{}b', ['a\\{\\}b']],
      ['{a}', ['\\{a\\}']],
      ['x{a,b', ['x\\{a,b']],
    ];
    for (const [given, expected] of cases) assert.deepEqual(globList(given), expected, given);
  });

  it(`refuses more than ${MAX_GLOBS} globs before expanding them, and a glob too long`, () => {
    assert.throws(() => globList('{a,b}'.repeat(40)), GlobListError);
    assert.throws(() => globList(Array.from({ length: 20 }, () => '{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p}')), GlobListError);
    assert.throws(() => globList('a'.repeat(5000)), /longer than/u);
    assert.equal(globList('{a,b}'.repeat(8)).length, 256);
    assert.equal(globList(Array.from({ length: 200 }, (_, index) => `f${index}`).join(',')).length, 200);
    // Splitting is one pass: 80,000 commas.
    assert.deepEqual(globList(','.repeat(80_000)), []);
  });
});
