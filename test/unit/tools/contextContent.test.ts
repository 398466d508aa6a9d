// Attached files and folders are read under the workspace tools' rules:
// scope, .git, .gitignore/.tandemignore; each item is capped head and tail.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capHeadTail, CONTEXT_FOLDER_MAX_ENTRIES, CONTEXT_ITEM_MAX_CHARS, fence, fileContextBlock } from '../../../src/tools/contextContent';
import { NodeWorkspaceHost } from '../../../src/tools/nodeWorkspaceHost';
import { makeTempDir } from './workspaceTestKit';

describe('context content', () => {
  let root: string;
  let host: NodeWorkspaceHost;
  before(() => {
    root = makeTempDir('tandem-context-');
    const files: Record<string, string> = {
      '.gitignore': 'secret.env\nvendor/\n',
      '.tandemignore': 'notes.private\nprivate.js\n',
      'notes.private': 'KEEP OUT',
      'vendor/lib.js': 'export {};\n',
      'vendor/private.js': 'KEEP OUT',
      'src/a.ts': 'export const a = 1;\n',
      'secret.env': 'TOKEN=1',
      'big.txt': `HEAD-MARK${'x'.repeat(CONTEXT_ITEM_MAX_CHARS * 2)}TAIL-MARK`,
    };
    for (let index = 0; index < CONTEXT_FOLDER_MAX_ENTRIES + 5; index++) files[`many/f${index}.txt`] = '';
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
    host = new NodeWorkspaceHost({ folders: [root] });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('caps text to its head and tail, saying how much was left out', () => {
    assert.equal(capHeadTail('short', 10), 'short');
    const capped = capHeadTail('a'.repeat(60) + 'b'.repeat(40), 50);
    assert.match(capped, /^a{30}\n\[… 50 characters omitted …\]\nb{20}$/);
    assert.equal(fence('has ``` inside'), '````\nhas ``` inside\n````');
  });

  it('reads a file marked with its path, and caps a large one', async () => {
    assert.equal(await fileContextBlock(host, 'src/a.ts'), 'Attached file src/a.ts:\n```ts\nexport const a = 1;\n\n```');
    const big = await fileContextBlock(host, 'big.txt');
    assert.ok(big.includes('HEAD-MARK') && big.includes('TAIL-MARK') && big.includes('characters omitted'));
    assert.ok(big.length < CONTEXT_ITEM_MAX_CHARS + 200, String(big.length));
  });

  it('refuses ignored, outside and .git paths with the reason', async () => {
    await assert.rejects(fileContextBlock(host, 'secret.env'), /excluded by \.gitignore/);
    await assert.rejects(fileContextBlock(host, '../outside.txt'), /Refused path/);
    await assert.rejects(fileContextBlock(host, '.git/config'), /\.git folder is off limits/);
    await assert.rejects(fileContextBlock(host, 'nope.txt'), /does not exist/);
  });

  it('a .gitignore\'d file or folder the user chose is read; .tandemignore still refuses', async () => {
    assert.equal(await fileContextBlock(host, 'secret.env', 'chosen'), 'Attached file secret.env:\n```env\nTOKEN=1\n```');
    const vendor = await fileContextBlock(host, 'vendor', 'chosen');
    assert.match(vendor, /^Attached folder vendor \(/);
    assert.ok(vendor.includes('\nlib.js\n') && !vendor.includes('private.js'), vendor);
    await assert.rejects(fileContextBlock(host, 'vendor'), /excluded by \.gitignore/, 'gathered (not chosen): refused');
    await assert.rejects(fileContextBlock(host, 'notes.private', 'chosen'), /excluded by \.tandemignore/);
  });

  it('lists a folder, ignored entries left out, capped', async () => {
    const listing = await fileContextBlock(host, '.');
    assert.match(listing, /^Attached folder \. \(/);
    assert.ok(listing.includes('\nsrc/\n') && listing.includes('\nmany/\n') && !listing.includes('secret.env'), listing);
    assert.match(await fileContextBlock(host, 'src'), /\na\.ts\n/);
    const many = await fileContextBlock(host, 'many');
    assert.match(many, new RegExp(`listing stopped after ${CONTEXT_FOLDER_MAX_ENTRIES} entries`));
  });
});
