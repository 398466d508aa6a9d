// The workspace tools page their own output to fit what the model reads: a
// page is never cut again by capResult (which would hide a gap behind a
// footer that says "read on from line B+1"), and the counts a page states
// match what is in it.

import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capResult, RESULT_CAP_CHARS } from '../../../src/agent/resultCap';
import { findOnPath } from '../../../src/tools/nodeWorkspaceHost';
import type { ToolResult } from '../../../src/tools/tool';
import { makeKit, type Kit } from './workspaceTestKit';

function put(root: string, name: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), content);
}

/** The page reaches the model as it is: within the cap, so capResult leaves it alone. */
function assertFits(result: ToolResult): void {
  assert.ok(result.text.length <= RESULT_CAP_CHARS, `${result.text.length} characters`);
  assert.equal(capResult(result.text), result.text);
  assert.doesNotMatch(result.text, /characters left out/u);
}

/** Lines of varied width (like bundled JavaScript), each naming its own number. */
const bundleLines = Array.from({ length: 4061 }, (_, index) => `/* ${index + 1} */ ${'var x = require("y");'.repeat(1 + (index % 7))}`);

describe('paged workspace tool results', () => {
  let kit: Kit;
  before(() => {
    kit = makeKit();
    put(kit.root, 'dist/bundle.js', `${bundleLines.join('\n')}\n`);
    put(kit.root, 'min.js', `// header\n${'m'.repeat(150_000)}\n// footer\n`);
  });
  after(() => kit.dispose());

  it('read_file pages a long file at a whole line; following the footers covers it with no gap', async () => {
    const seen: string[] = [];
    let startLine = 1;
    for (let page = 0; page < 50; page++) {
      const result = await kit.run('read_file', { path: 'dist/bundle.js', startLine });
      assertFits(result);
      const [header = '', ...rest] = result.text.split('\n');
      const range = /^dist\/bundle\.js \(lines (\d+)-(\d+) of 4061\)$/u.exec(header);
      assert.ok(range, header);
      const [first, last] = [Number(range[1]), Number(range[2])];
      assert.equal(first, startLine);
      const footer = rest.at(-1) ?? '';
      const next = /^\[Truncated: lines (\d+)-4061 were left out\. Call read_file with startLine=(\d+) to read on\.\]$/u.exec(footer);
      const body = next ? rest.slice(0, -1) : rest;
      assert.equal(body.length, last - first + 1, `page ${first}-${last} holds ${body.length} lines`);
      assert.equal(body.at(-1), bundleLines[last - 1], `the last line shown is line ${last}`);
      seen.push(...body);
      if (!next) {
        assert.equal(last, 4061);
        break;
      }
      assert.equal(Number(next[1]), last + 1);
      assert.equal(Number(next[2]), last + 1);
      startLine = last + 1;
    }
    assert.ok(seen.length > 0 && startLine > 1, 'the file took more than one page');
    assert.deepEqual(seen, bundleLines);
  });

  it('read_file shows a line longer than a page up to the page, and says how much of it that is', async () => {
    const result = await kit.run('read_file', { path: 'min.js', startLine: 2 });
    assertFits(result);
    const [header, shown = '', ...notes] = result.text.split('\n');
    assert.equal(header, 'min.js (lines 2-2 of 3)');
    assert.equal(shown, 'm'.repeat(shown.length));
    assert.deepEqual(notes, [
      `[Truncated: line 2 is 150000 characters long; only its first ${shown.length} are shown, and no read_file call shows the rest.]`,
      '[Truncated: lines 3-3 were left out. Call read_file with startLine=3 to read on.]',
    ]);
  });

  it('read_file of a small file is unchanged', async () => {
    const result = await kit.run('read_file', { path: 'min.js', startLine: 3 });
    assert.equal(result.text, 'min.js (lines 3-3 of 3)\n// footer');
  });
});

describe('paged listings', () => {
  let kit: Kit;
  const rgPath = findOnPath('rg');
  const engines: [string, Kit][] = [];
  /** 800 files in 4 folders, long names, each with 3 long matching lines. */
  const names = Array.from({ length: 800 }, (_, index) => `pkg${index % 4}/module-with-a-rather-long-descriptive-name-${String(index).padStart(4, '0')}.ts`);
  before(() => {
    kit = makeKit();
    const line = (n: number) => `export const needle${n} = '${'a fairly long string literal that makes each hit wide '.repeat(3)}';`;
    for (const name of names) put(kit.root, name, `${line(1)}\n${line(2)}\n${line(3)}\n`);
    engines.push(['javascript', kit]);
    if (rgPath !== undefined) engines.push(['ripgrep', makeKit({ folders: [kit.root], ripgrep: rgPath })]);
  });
  after(() => {
    for (const [, engine] of engines.slice(1)) engine.dispose();
    kit.dispose();
  });

  it('search_text with maxResults 500 lists the hits that fit, numbered without a jump, and says so', async () => {
    for (const [engine, searchKit] of engines) {
      const result = await searchKit.run('search_text', { query: 'needle', maxResults: 500 });
      assertFits(result);
      const lines = result.text.split('\n');
      const headline = /^2400 matching lines in 800 files for "needle" \(showing the first (\d+)\):$/u.exec(lines[0] ?? '');
      assert.ok(headline, `${engine}: ${lines[0]}`);
      const shown = Number(headline[1]);
      assert.ok(shown > 0 && shown < 500, `${engine}: ${shown} shown`);
      const hits = lines.slice(1).filter((text) => /^\d+\. /u.test(text));
      assert.equal(hits.length, shown, engine);
      hits.forEach((text, index) => assert.match(text, new RegExp(`^${index + 1}\\. pkg\\d/module-[^:]+\\.ts:\\d: export const needle\\d = `, 'u'), engine));
      assert.match(result.text, new RegExp(`\\n\\[The other ${500 - shown} of the 500 hits found do not fit in one result; narrow the query, or limit it with include`, 'u'), engine);
      assert.doesNotMatch(result.text, /read_file/u, engine);
    }
  });

  it('search_text that fits lists every hit asked for, with no note', async () => {
    const result = await kit.run('search_text', { query: 'needle', maxResults: 5 });
    assert.equal(result.text.split('\n').filter((text) => /^\d+\. /u.test(text)).length, 5);
    assert.match(result.text, /^2400 matching lines in 800 files for "needle" \(showing the first 5\):\n1\. /u);
    assert.doesNotMatch(result.text, /do not fit/u);
  });

  it('list_dir with limit 5000 lists the entries that fit, the first in order, and says how many it left out', async () => {
    const result = await kit.run('list_dir', { recursive: true, limit: 5000 });
    assertFits(result);
    const [header = '', ...rest] = result.text.split('\n');
    const counts = /^\.\/ \(804 entries, showing the first (\d+), recursive to depth 5\)$/u.exec(header);
    assert.ok(counts, header);
    const shown = Number(counts[1]);
    const all = [...names, 'pkg0/', 'pkg1/', 'pkg2/', 'pkg3/'].sort();
    assert.deepEqual(rest.slice(0, -1), all.slice(0, shown));
    assert.equal(rest.at(-1), `[${804 - shown} more entries found do not fit in one result; list a sub-folder, or a smaller maxDepth, to see them.]`);
    assert.doesNotMatch(result.text, /read_file|raise limit/u);
  });

  it('find_files with limit 5000 lists the paths that fit and counts them all', async () => {
    const result = await kit.run('find_files', { pattern: '*.ts', limit: 5000 });
    assertFits(result);
    const [header = '', ...rest] = result.text.split('\n');
    const counts = /^800 files match "\*\.ts" \(showing the first (\d+)\):$/u.exec(header);
    assert.ok(counts, header);
    const shown = Number(counts[1]);
    assert.ok(shown < 800);
    assert.equal(rest.slice(0, -1).length, shown);
    assert.ok(rest.slice(0, -1).every((line) => names.includes(line)));
    assert.equal(rest.at(-1), `[${800 - shown} more paths found do not fit in one result; narrow the pattern (e.g. start it with a folder) to see them.]`);
    assert.doesNotMatch(result.text, /read_file/u);
  });
});
