import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toToolResult } from '../../../src/mcp/mcpToolResult';

describe('toToolResult', () => {
  it('joins text parts and describes images, audio and resources', () => {
    const result = toToolResult({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAA=' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAAAAAA' } },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md', description: 'notes' },
        { type: 'text', text: 'last' },
      ],
    });
    assert.equal(result.isError, false);
    assert.equal(
      result.text,
      [
        'first',
        '[image: image/png, 3 bytes; image 1 of this result]',
        '[audio: audio/wav, 2 bytes]',
        '[resource <file:///a.txt> (text/plain)]\nhello',
        '[resource <file:///b.bin>] 6 bytes of binary data',
        '[resource link: c.md <file:///c.md>] notes',
        'last',
      ].join('\n'),
    );
    assert.deepEqual(result.images, [{ mimeType: 'image/png', data: 'AAAA' }], 'the image is kept for a model that takes images');
  });

  it('keeps up to four sendable images and says why any other is only described', () => {
    const png = { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const result = toToolResult({
      content: [
        png,
        { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' },
        { type: 'image', mimeType: 'image/png', data: 'not base64!' },
        { type: 'image', mimeType: 'IMAGE/JPEG', data: '/9j/' },
        png,
        png,
        png,
      ],
    });
    assert.deepEqual(
      result.images?.map((image) => image.mimeType),
      ['image/png', 'image/jpeg', 'image/png', 'image/png'],
    );
    const lines = result.text.split('\n');
    assert.match(lines[1]!, /image\/svg\+xml, 5 bytes; not shown to the model: image\/svg\+xml is not a type models take/);
    assert.match(lines[2]!, /not shown to the model: its data is not base64/);
    assert.match(lines[3]!, /; image 2 of this result\]$/);
    assert.match(lines[6]!, /not shown to the model: only 4 images of a result are shown/);
    assert.equal(toToolResult({ content: [{ type: 'text', text: 'none' }] }).images, undefined);
  });

  it("keeps a result's images within 8 MB together and leaves an image over 5 MB out", () => {
    const megabytes = (count: number) => 'A'.repeat(Math.ceil((count * 1024 * 1024 * 4) / 3 / 4) * 4);
    const big = { type: 'image', mimeType: 'image/png', data: megabytes(4.5) };
    const result = toToolResult({ content: [big, big, { type: 'image', mimeType: 'image/png', data: megabytes(5.5) }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] });
    assert.equal(result.images?.length, 2, 'the first big one and the small one');
    const lines = result.text.split('\n');
    assert.match(lines[1]!, /not shown to the model: the result's images are over 8 MB together/);
    assert.match(lines[2]!, /not shown to the model: over 5 MB/);
    assert.match(lines[3]!, /image 2 of this result/);
  });

  it('adds structuredContent as JSON unless a text part already carries it', () => {
    const structured = { sum: 3 };
    assert.equal(toToolResult({ content: [{ type: 'text', text: 'see data' }], structuredContent: structured }).text, 'see data\n{\n  "sum": 3\n}');
    assert.equal(toToolResult({ content: [{ type: 'text', text: '{"sum": 3}' }], structuredContent: structured }).text, '{"sum": 3}');
  });

  it('turns isError into an error result and never returns empty text', () => {
    const failed = toToolResult({ content: [{ type: 'text', text: 'boom' }], isError: true });
    assert.equal(failed.isError, true);
    assert.equal(failed.text, 'boom');
    assert.equal(toToolResult({ content: [] }).text, '(no output)');
    assert.equal(toToolResult({ content: [], isError: true }).text, 'The tool reported an error without details.');
    assert.equal(toToolResult('nonsense').isError, true);
    assert.equal(toToolResult({ toolResult: { old: true } }).text, '{\n  "old": true\n}');
  });
});
