import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { boundedFileRefusal, FileRefusal, readBoundedTextFile } from '../../../src/common/boundedFile';

describe('bounded files', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'tandem-bounded-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  const limit = 1024 * 1024;

  it('says why a file is not read: not a regular file, or over the limit', () => {
    assert.equal(boundedFileRefusal(false, 0, limit, 'an mcp.json'), 'it is not a regular file');
    assert.equal(boundedFileRefusal(true, 3 * limit, limit, 'an mcp.json'), 'it is 3 MB; Tandem reads an mcp.json up to 1 MB');
    assert.equal(boundedFileRefusal(true, limit + 1, limit, 'an mcp.json'), 'it is just over 1 MB; Tandem reads an mcp.json up to 1 MB');
    assert.equal(boundedFileRefusal(true, limit, limit, 'an mcp.json'), undefined);
  });

  it('reads a small regular file, and refuses a FIFO, a device link and a large file without waiting or reading them', async () => {
    writeFileSync(path.join(folder, 'small'), 'A=1\n');
    assert.equal(await readBoundedTextFile(path.join(folder, 'small'), limit, 'an envFile'), 'A=1\n');
    execFileSync('mkfifo', [path.join(folder, 'fifo')]);
    symlinkSync('/dev/zero', path.join(folder, 'zero'));
    writeFileSync(path.join(folder, 'large'), '');
    truncateSync(path.join(folder, 'large'), 600 * limit);
    const refusal = (file: string) => readBoundedTextFile(path.join(folder, file), limit, 'an envFile').then(() => 'read', (error: unknown) => (error instanceof FileRefusal ? error.message : `other: ${String(error)}`));
    assert.equal(await refusal('fifo'), 'it is not a regular file');
    assert.equal(await refusal('zero'), 'it is not a regular file');
    assert.equal(await refusal('large'), 'it is 600 MB; Tandem reads an envFile up to 1 MB');
    await assert.rejects(readBoundedTextFile(path.join(folder, 'none'), limit, 'an envFile'), { code: 'ENOENT' });
  });
});
