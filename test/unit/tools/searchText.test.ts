// search_text on a generated tree of 20,000 files with ignore rules, through
// ripgrep and through the JavaScript fallback: both must find exactly the
// needles that are not ignored.

import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateSearchTree, NEEDLE, scratchDirForTree, type SearchTreeFacts } from '../../../bench/searchTreeGenerator';
import { findOnPath } from '../../../src/tools/nodeWorkspaceHost';
import type { ToolResult } from '../../../src/tools/tool';
import { makeKit, makeTempDir, type Kit } from './workspaceTestKit';

const rgPath = findOnPath('rg');

function totalOf(result: ToolResult): number {
  assert.equal(result.summary?.kind, 'search', result.text);
  return result.summary.kind === 'search' ? result.summary.total : -1;
}

// The JavaScript engine reads every file in Node, so it answers the big
// tree once; the finer questions go to it on a 2,000-file tree of the same shape.
describe('search_text on a 20k-file tree', { timeout: 60_000 }, () => {
  let root: string;
  let smallRoot: string;
  let facts: SearchTreeFacts;
  let smallFacts: SearchTreeFacts;
  const engines: [string, Kit][] = [];
  const fineEngines: [string, Kit, () => SearchTreeFacts][] = [];

  before(() => {
    root = scratchDirForTree('tandem-search-');
    smallRoot = scratchDirForTree('tandem-search-small-');
    facts = generateSearchTree(root);
    smallFacts = generateSearchTree(smallRoot, { files: 2000, dirs: 20 });
    engines.push(['javascript', makeKit({ folders: [root] })]);
    fineEngines.push(['javascript (2k tree)', makeKit({ folders: [smallRoot] }), () => smallFacts]);
    if (rgPath !== undefined) {
      const ripgrep = makeKit({ folders: [root], ripgrep: rgPath });
      engines.push(['ripgrep', ripgrep]);
      fineEngines.push(['ripgrep', ripgrep, () => facts]);
    }
  });
  after(() => {
    for (const [, kit] of [...engines, ...fineEngines]) kit.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(smallRoot, { recursive: true, force: true });
  });

  it('has ripgrep on this machine (Debian ripgrep at /usr/bin/rg)', () => {
    assert.ok(rgPath, 'rg not found on PATH; the ripgrep half of this suite would not run');
  });

  it('both engines count every needle outside ignored paths, and no more', async () => {
    for (const [engine, kit] of engines) {
      const result = await kit.run('search_text', { query: NEEDLE });
      assert.equal(totalOf(result), facts.needleLines, `${engine}: ${result.text.slice(0, 300)}`);
      assert.match(result.text, new RegExp(`^${facts.needleLines} matching lines in ${facts.needleFiles} files for "${NEEDLE}" \\(showing the first 50\\):\\n1\\. `, 'u'), engine);
      assert.equal(result.text.split('\n').length, 51, `${engine}: 50 numbered hits`);
      assert.doesNotMatch(result.text, /build\/|secrets\/|debug\.log|blob\.bin|\.git\//u, engine);
      assert.match(result.text, /\n\d+\. src\/pkg\d+\/mod\d+\/file\d+\.(ts|js|md):\d+: /u, engine);
    }
  });

  it('case sensitivity, regex, include and exclude globs agree across engines', async () => {
    for (const [engine, kit, factsOf] of fineEngines) {
      const facts = factsOf();
      // needleLines counts each needle file once plus each capitalised line.
      const capitals = facts.needleLines - facts.needleFiles;
      const sensitive = await kit.run('search_text', { query: NEEDLE, caseSensitive: true });
      // keep.log holds the needle in its own case; the capitalised lines are the difference.
      assert.equal(totalOf(sensitive), facts.needleLines - capitals, engine);
      const regex = await kit.run('search_text', { query: `value\\d+ = '${NEEDLE}'`, isRegexp: true });
      assert.equal(totalOf(regex), facts.needleFiles - 1, `${engine}: every needle file but keep.log`);
      const onlyTs = await kit.run('search_text', { query: NEEDLE, include: '*.ts' });
      assert.equal(totalOf(onlyTs), facts.needleLinesInTs, engine);
      const noTs = await kit.run('search_text', { query: NEEDLE, exclude: ['*.ts'] });
      assert.equal(totalOf(noTs), facts.needleLines - facts.needleLinesInTs, engine);
    }
  });

  it('summarises the top 3 hits for the panel', async () => {
    for (const [engine, kit] of fineEngines) {
      const result = await kit.run('search_text', { query: NEEDLE, maxResults: 5 });
      assert.ok(result.summary?.kind === 'search');
      assert.equal(result.summary.top.length, 3, engine);
      for (const hit of result.summary.top) {
        assert.match(hit.title, /^src\/.+:\d+$/u, engine);
        assert.match(hit.snippet ?? '', new RegExp(NEEDLE, 'iu'), engine);
      }
      assert.equal(result.text.split('\n').length, 6, engine);
    }
  });
});

describe('search_text, small cases', () => {
  it('says when nothing matches, reports a bad regex, and searches every folder of a multi-root workspace', async () => {
    const container = makeTempDir('tandem-search-roots-');
    for (const name of ['front', 'back']) {
      mkdirSync(path.join(container, name), { recursive: true });
      writeFileSync(path.join(container, name, 'x.txt'), `shared word in ${name}\n`);
    }
    for (const ripgrep of [undefined, rgPath]) {
      const kit = makeKit({ folders: [path.join(container, 'front'), path.join(container, 'back')], ripgrep });
      const none = await kit.run('search_text', { query: 'absent-word' });
      assert.equal(none.text, 'No matches for "absent-word".');
      assert.deepEqual(none.summary, { kind: 'search', total: 0, top: [] });
      const both = await kit.run('search_text', { query: 'shared word' });
      assert.equal(totalOf(both), 2);
      assert.match(both.text, /front\/x\.txt:1: shared word in front/u);
      assert.match(both.text, /back\/x\.txt:1: shared word in back/u);
      const bad = await kit.run('search_text', { query: '(unclosed', isRegexp: true });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /regex|regular expression/iu);
      const literal = await kit.run('search_text', { query: '(unclosed' });
      assert.equal(totalOf(literal), 0);
      kit.dispose();
    }
    rmSync(container, { recursive: true, force: true });
  });

  it('in a multi-root workspace, include and exclude take paths as the results print them (starting with a folder name)', async () => {
    const container = makeTempDir('tandem-search-scoped-');
    for (const name of ['api', 'web']) {
      mkdirSync(path.join(container, name, 'src', 'deep'), { recursive: true });
      writeFileSync(path.join(container, name, 'src', 'config.ts'), `export const timeoutMs = 1; // ${name}\n`);
      writeFileSync(path.join(container, name, 'src', 'deep', 'more.ts'), `const timeoutMs = 2; // ${name}\n`);
      writeFileSync(path.join(container, name, 'top.ts'), `let timeoutMs = 3; // ${name}\n`);
    }
    // A folder inside web that is named like the other workspace folder: 'api/src' must not pick it.
    mkdirSync(path.join(container, 'web', 'api', 'src'), { recursive: true });
    writeFileSync(path.join(container, 'web', 'api', 'src', 'inner.ts'), 'timeoutMs // web/api\n');
    const files = (result: ToolResult) => [...result.text.matchAll(/^\d+\. (\S+):\d+:/gmu)].map((match) => match[1]).sort();
    for (const ripgrep of [undefined, rgPath]) {
      const kit = makeKit({ folders: [path.join(container, 'api'), path.join(container, 'web')], ripgrep });
      const search = (filters: Record<string, unknown>) => kit.run('search_text', { query: 'timeoutMs', ...filters });
      const engine = ripgrep ? 'ripgrep' : 'javascript';
      assert.equal(totalOf(await search({})), 7, engine);
      for (const include of ['web', 'web/', 'web/**']) {
        assert.deepEqual(files(await search({ include })), ['web/api/src/inner.ts', 'web/src/config.ts', 'web/src/deep/more.ts', 'web/top.ts'], `${engine}: include ${include}`);
      }
      assert.deepEqual(files(await search({ include: 'web/src' })), ['web/src/config.ts', 'web/src/deep/more.ts'], `${engine}: a folder of one workspace folder`);
      assert.deepEqual(files(await search({ include: 'api/src' })), ['api/src/config.ts', 'api/src/deep/more.ts'], `${engine}: anchored at the folder's root, not web/api/src`);
      assert.deepEqual(files(await search({ include: 'web/src/config.ts' })), ['web/src/config.ts'], `${engine}: one file`);
      assert.deepEqual(files(await search({ include: 'web/**/*.ts', exclude: 'web/src/deep' })), ['web/api/src/inner.ts', 'web/src/config.ts', 'web/top.ts'], engine);
      assert.deepEqual(files(await search({ exclude: 'api' })), ['web/api/src/inner.ts', 'web/src/config.ts', 'web/src/deep/more.ts', 'web/top.ts'], `${engine}: a whole folder excluded`);
      assert.deepEqual(files(await search({ include: 'src' })), ['api/src/config.ts', 'api/src/deep/more.ts', 'web/api/src/inner.ts', 'web/src/config.ts', 'web/src/deep/more.ts'], `${engine}: a bare name still matches at any depth in every folder`);
      // Capped: the kept hits come first from the first folder, and all lines are counted.
      const capped = await search({ maxResults: 2 });
      assert.equal(totalOf(capped), 7, engine);
      assert.deepEqual(files(capped), ['api/src/config.ts', 'api/src/deep/more.ts'], engine);
      kit.dispose();
    }
    rmSync(container, { recursive: true, force: true });
  });

  it('a hit deep in a long line shows the match, not the line\'s first characters, with both engines', async () => {
    const root = makeTempDir('tandem-search-long-');
    const filler = (count: number) => 'x=1;'.repeat(count / 4);
    // A minified bundle: the match on line 3 lies 6,000 characters in; line 1 is long too.
    writeFileSync(path.join(root, 'bundle.min.js'), `${filler(8000)}\nshort\n${filler(6000)}createWidget(opts)${filler(4000)}\r\n`);
    // Within ripgrep's 400-column preview, but past the snippet's first 240 characters.
    writeFileSync(path.join(root, 'wide.ts'), `${' '.repeat(4)}${filler(280)}wideNeedle()${filler(40)}\n`);
    // Multi-byte text before the match: the window must not cut a character.
    writeFileSync(path.join(root, 'accents.txt'), `${'é'.repeat(3000)} accentNeedle ${'ü'.repeat(500)}\n`);
    // A match near the start of a long line keeps the line's start.
    writeFileSync(path.join(root, 'early.js'), `earlyNeedle${filler(4000)}\n`);
    for (const ripgrep of [undefined, rgPath]) {
      const engine = ripgrep === undefined ? 'javascript' : 'ripgrep';
      const kit = makeKit({ folders: [root], ripgrep });
      const deep = await kit.run('search_text', { query: 'createWidget' });
      assert.equal(totalOf(deep), 1, engine);
      const deepSnippet = deep.summary?.kind === 'search' ? (deep.summary.top[0]?.snippet ?? '') : '';
      assert.match(deepSnippet, /^…[x=1;]+createWidget\(opts\)[x=1;]+…$/u, `${engine}: ${deepSnippet}`);
      assert.ok(deepSnippet.length <= 242, `${engine}: ${deepSnippet.length}`);
      assert.match(deep.text, /bundle\.min\.js:3: …[x=1;]+createWidget/u, engine);

      const wide = await kit.run('search_text', { query: 'wideNeedle' });
      assert.match(wide.text, /wide\.ts:1: …[x=1;]+wideNeedle\(\)(x=1;)+$/mu, `${engine}: ${wide.text}`);

      const accents = await kit.run('search_text', { query: 'accentNeedle' });
      assert.match(accents.text, /accents\.txt:1: …é+ accentNeedle ü+…$/mu, `${engine}: ${accents.text}`);
      assert.doesNotMatch(accents.text, /\uFFFD/u, engine);

      const early = await kit.run('search_text', { query: 'earlyNeedle' });
      assert.match(early.text, /early\.js:1: earlyNeedle[x=1;]+…$/mu, `${engine}: ${early.text}`);
      kit.dispose();
    }
    rmSync(root, { recursive: true, force: true });
  });
});
