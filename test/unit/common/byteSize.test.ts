import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byteSize, sizeOverLimit } from '../../../src/common/byteSize';

describe('byte sizes', () => {
  it('says bytes, KB, MB and GB as a person reads them, to the nearest unit or tenth', () => {
    assert.equal(byteSize(0), '0 bytes');
    assert.equal(byteSize(1), '1 byte');
    assert.equal(byteSize(1023), '1023 bytes');
    assert.equal(byteSize(1024), '1 KB');
    assert.equal(byteSize(1535), '1 KB');
    assert.equal(byteSize(14 * 1024), '14 KB');
    assert.equal(byteSize(1024 * 1024), '1 MB');
    assert.equal(byteSize(Math.round(2.3 * 1024 * 1024)), '2.3 MB');
    assert.equal(byteSize(Math.round(3.26 * 1024 * 1024)), '3.3 MB');
    assert.equal(byteSize(600 * 1024 * 1024), '600 MB');
    assert.equal(byteSize(1.5 * 1024 ** 3), '1.5 GB');
  });

  it('says a size just over a limit is, where rounding would make it read as the limit', () => {
    const limit = 20 * 1024 * 1024;
    assert.equal(sizeOverLimit(limit + 1, limit), 'just over 20 MB');
    assert.equal(sizeOverLimit(limit + 300 * 1024, limit), '20.3 MB');
    assert.equal(sizeOverLimit(1.5 * 1024 ** 3, limit), '1.5 GB');
  });
});
