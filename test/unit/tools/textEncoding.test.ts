// Files that are not UTF-8 are read as what they are: UTF-16 by its
// byte-order mark, other invalid UTF-8 as Windows-1252 (with its 0x80–0x9F
// characters, which Node's own decoder gets wrong).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { it } from 'node:test';
import { decodeFileBytes } from '../../../src/tools/textEncoding';
import { makeKit } from './workspaceTestKit';

it('decodes UTF-8 (a byte-order mark kept), UTF-16 by its mark, Windows-1252 otherwise, and knows binary', () => {
  assert.deepEqual(decodeFileBytes(Buffer.from('caf\u00e9\n')), { kind: 'text', text: 'caf\u00e9\n', encoding: 'utf-8' });
  assert.deepEqual(decodeFileBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x61])), { kind: 'text', text: '\ufeffa', encoding: 'utf-8' });
  assert.deepEqual(decodeFileBytes(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('h\u00e9', 'utf16le')])), { kind: 'text', text: 'h\u00e9', encoding: 'utf-16le' });
  assert.deepEqual(decodeFileBytes(Buffer.from([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9])), { kind: 'text', text: 'h\u00e9', encoding: 'utf-16be' });
  // Café “quoted” – 5€ in Windows-1252.
  const legacy = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x96, 0x20, 0x35, 0x80]);
  assert.deepEqual(decodeFileBytes(legacy), { kind: 'text', text: 'Caf\u00e9 \u201cq\u201d \u2013 5\u20ac', encoding: 'windows-1252' });
  assert.deepEqual(decodeFileBytes(Buffer.from([0x61, 0x00, 0x62])), { kind: 'binary' });
});

it('read_file shows a Windows-1252 file\'s characters, not replacement characters', async () => {
  const kit = makeKit();
  try {
    writeFileSync(path.join(kit.root, 'legacy.txt'), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x0a]));
    const read = await kit.run('read_file', { path: 'legacy.txt' });
    assert.match(read.text, /Caf\u00e9 cr\u00e8me/u);
    assert.match(read.text, /^legacy\.txt \(lines 1-1 of 1, encoded as Windows-1252 \(it is not valid UTF-8\): the edit tools will not change it\)\n/u);
    assert.doesNotMatch(read.text, /\ufffd/u);
  } finally {
    kit.dispose();
  }
});
