// The package.json scripts behind `npm test` and the like, as the approval
// card names them: the nearest package.json within the workspace folder,
// pre- and post- scripts included.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { scriptsBehind } from '../../../src/tools/packageScripts';
import { makeTempDir } from './workspaceTestKit';

const root = makeTempDir('tandem-scripts-');
after(() => rmSync(root, { recursive: true, force: true }));
writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { pretest: 'npm run lint', test: 'node --test', build: 'tsc -p .', lint: 'eslint .' } }));
mkdirSync(path.join(root, 'packages', 'web', 'src'), { recursive: true });
writeFileSync(path.join(root, 'packages', 'web', 'package.json'), JSON.stringify({ scripts: { build: 'vite build', postbuild: 'node scripts/copy.js' } }));

describe('scriptsBehind', () => {
  it('names the script a runner runs, with its pre- and post- scripts', async () => {
    assert.deepEqual(await scriptsBehind('npm test', root, root), ['package.json "pretest": npm run lint', 'package.json "test": node --test']);
    assert.deepEqual(await scriptsBehind('npm run build -- --watch', root, root), ['package.json "build": tsc -p .']);
    assert.deepEqual(await scriptsBehind('yarn lint', root, root), ['package.json "lint": eslint .']);
  });

  it('takes the nearest package.json at or above the folder, within the workspace folder', async () => {
    assert.deepEqual(await scriptsBehind('npm run build', path.join(root, 'packages', 'web', 'src'), root), [
      'packages/web/package.json "build": vite build',
      'packages/web/package.json "postbuild": node scripts/copy.js',
    ]);
    // Above the workspace folder is not looked at.
    assert.deepEqual(await scriptsBehind('npm test', path.join(root, 'packages', 'web'), path.join(root, 'packages', 'web')), []);
  });

  it('names every script of a chain, and nothing for commands that run none', async () => {
    assert.deepEqual(await scriptsBehind('npm run lint && npm run build', root, root), ['package.json "lint": eslint .', 'package.json "build": tsc -p .']);
    assert.deepEqual(await scriptsBehind('npm install', root, root), []);
    assert.deepEqual(await scriptsBehind('npm run missing', root, root), []);
    assert.deepEqual(await scriptsBehind('echo npm test', root, root), []);
  });

  it('names nothing when an option may choose another package, or for bun\'s own test runner', async () => {
    assert.deepEqual(await scriptsBehind('npm test --prefix packages/web', root, root), []);
    assert.deepEqual(await scriptsBehind('pnpm --filter web test', root, root), []);
    assert.deepEqual(await scriptsBehind('npm -w web run build', root, root), []);
    assert.deepEqual(await scriptsBehind('yarn --cwd packages/web build', root, root), []);
    assert.deepEqual(await scriptsBehind('bun test', root, root), []);
    // After `--` the options are the script's own.
    assert.deepEqual(await scriptsBehind('npm test -- --prefix x', root, root), ['package.json "pretest": npm run lint', 'package.json "test": node --test']);
  });

  it('reads only a plain, small package.json, and then names nothing rather than one further up', async () => {
    const odd = path.join(root, 'odd');
    mkdirSync(path.join(odd, 'package.json'), { recursive: true });
    assert.deepEqual(await scriptsBehind('npm test', odd, root), []);
  });
});
