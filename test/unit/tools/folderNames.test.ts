import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { distinctFolderNames } from '../../../src/tools/folderNames';
import { makeKit, makeTempDir } from './workspaceTestKit';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

describe('workspace folder names', () => {
  it('keeps distinct names, and tells shared ones apart by their parent folder, else by a number', () => {
    assert.deepEqual(distinctFolderNames([{ name: 'api', path: '/w/api' }, { name: 'web', path: '/w/web' }]), ['api', 'web']);
    assert.deepEqual(distinctFolderNames([{ name: 'src', path: '/w/api/src' }, { name: 'src', path: '/w/web/src' }, { name: 'docs', path: '/w/docs' }]), ['src (api)', 'src (web)', 'docs']);
    assert.deepEqual(distinctFolderNames([{ name: 'app', path: '/a/x/app' }, { name: 'app', path: '/b/x/app' }]), ['app (1)', 'app (2)']);
  });

  it('two folders named alike: every path the tools print works again, and a write names the folder it lands in', async () => {
    const container = makeTempDir('tandem-same-names-');
    for (const parent of ['api', 'web']) {
      mkdirSync(path.join(container, parent, 'src'), { recursive: true });
      writeFileSync(path.join(container, parent, 'src', 'config.ts'), `export const from = '${parent}';\n`);
    }
    writeFileSync(path.join(container, 'web', 'src', 'a.ts'), 'only in web\n');
    const kit = makeKit({ folders: [path.join(container, 'api', 'src'), path.join(container, 'web', 'src')] });
    const found = await kit.run('find_files', { pattern: 'config.ts' });
    assert.match(found.text, /src \(api\)\/config\.ts\nsrc \(web\)\/config\.ts/u);
    assert.match((await kit.run('read_file', { path: 'src (web)/config.ts' })).text, /from = 'web'/u);
    assert.match((await kit.run('read_file', { path: 'a.ts' })).text, /^src \(web\)\/a\.ts/u, 'an unprefixed path found in the second folder says so');
    assert.equal((await kit.run('list_dir', {})).text.split('\n').slice(1, 3).join(','), 'src (api)/,src (web)/');
    kit.dispose();
    rmSync(container, { recursive: true, force: true });
  });
});
