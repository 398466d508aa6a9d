// A capped search_text keeps the first hits in path order, the same on every
// call and with both engines, however ripgrep's threads interleave; the
// listing ends with where the matches are.

import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { findOnPath } from '../../../src/tools/nodeWorkspaceHost';
import type { ToolResult } from '../../../src/tools/tool';
import { makeKit, makeTempDir, withBothEngines } from './workspaceTestKit';

const rgPath = findOnPath('rg');
const NEEDLE = 'orderNeedle';
const CAP = 50;

interface Hit {
  readonly path: string;
  readonly line: number;
}

function put(root: string, name: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), content);
}

/** 3,000 files of two matching lines under vendor/openai (enough for ripgrep's threads to finish them out of order), and a few elsewhere. */
function buildTree(root: string): Hit[] {
  const hits: Hit[] = [];
  const file = (name: string, lines: readonly number[]): void => {
    const text = Array.from({ length: Math.max(...lines) }, (_, index) => (lines.includes(index + 1) ? `let x = ${NEEDLE}(${index});` : `// line ${index + 1}`));
    put(root, name, `${text.join('\n')}\n`);
    for (const line of lines) hits.push({ path: name, line });
  };
  for (let part = 0; part < 30; part += 1) {
    for (let index = 0; index < 100; index += 1) file(`vendor/openai/part${part}/file${index}.js`, [3, 7]);
  }
  for (let index = 0; index < 20; index += 1) file(`lib/file${index}.js`, [1]);
  // The walker lists a folder's files before its subfolders, and 'lib' before 'lib-x': path order is neither.
  file('a.txt', [2]);
  file('m/y.js', [1]);
  file('lib-x/x.js', [1]);
  file('z.txt', [1]);
  // U+FF5A before U+1F600 in UTF-8 bytes, after it in UTF-16 code units.
  file('b/\uFF5A.txt', [1]);
  file('b/\u{1F600}.txt', [1]);
  file('b/z.txt', [1]);
  return hits.sort((left, right) => Buffer.compare(Buffer.from(left.path), Buffer.from(right.path)) || left.line - right.line);
}

function listing(result: ToolResult): Hit[] {
  return [...result.text.matchAll(/^\d+\. (.+):(\d+): /gmu)].map((match) => ({ path: match[1]!, line: Number(match[2]) }));
}

describe('search_text keeps the first hits in path order', { timeout: 120_000 }, () => {
  const tree = withBothEngines('tandem-search-order-', buildTree);
  const { engines } = tree;

  it('lists the same first hits on every call, with both engines, and counts them all', async () => {
    const expected = tree.built();
    const first = expected.slice(0, CAP);
    for (const [engine, kit] of engines) {
      for (let call = 0; call < 4; call += 1) {
        const result = await kit.run('search_text', { query: NEEDLE, maxResults: CAP });
        assert.match(result.text, new RegExp(`^${expected.length} matching lines in 3027 files for "${NEEDLE}" \\(showing the first ${CAP}\\):\\n`, 'u'), engine);
        assert.deepEqual(listing(result), first, `${engine}, call ${call + 1}`);
      }
    }
  });

  it('keeps more hits of one file than fit in a small cap, in line order', async () => {
    const many = makeTempDir('tandem-search-many-');
    put(many, 'big.txt', `${Array.from({ length: 400 }, (_, index) => `${NEEDLE} ${index}`).join('\n')}\n`);
    put(many, 'a.txt', `${NEEDLE}\n`);
    for (const ripgrep of [undefined, rgPath]) {
      const kit = makeKit({ folders: [many], ripgrep });
      const result = await kit.run('search_text', { query: NEEDLE, maxResults: 300 });
      const hits = listing(result);
      assert.equal(hits.length, 300, ripgrep ?? 'javascript');
      assert.deepEqual(hits.slice(0, 2), [{ path: 'a.txt', line: 1 }, { path: 'big.txt', line: 1 }]);
      assert.deepEqual(hits.at(-1), { path: 'big.txt', line: 299 }, ripgrep ?? 'javascript');
      kit.dispose();
    }
    rmSync(many, { recursive: true, force: true });
  });

  it('ends a capped listing with the places that hold most matching lines', async () => {
    for (const [engine, kit] of engines) {
      const result = await kit.run('search_text', { query: NEEDLE, maxResults: CAP });
      assert.match(result.text, /\nMost matching lines: vendor\/openai\/ 6,000, lib\/ 20, b\/ 3, a\.txt 1, and 3 more places\. Narrow the search with include or exclude\.$/u, engine);
      const whole = await kit.run('search_text', { query: NEEDLE, include: 'lib' });
      assert.doesNotMatch(whole.text, /Most matching lines/u, `${engine}: not capped, no breakdown`);
    }
  });
});
