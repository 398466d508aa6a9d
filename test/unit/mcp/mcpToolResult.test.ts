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
        '[image: image/png, 3 bytes]',
        '[audio: audio/wav, 2 bytes]',
        '[resource <file:///a.txt> (text/plain)]\nhello',
        '[resource <file:///b.bin>] 6 bytes of binary data',
        '[resource link: c.md <file:///c.md>] notes',
        'last',
      ].join('\n'),
    );
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
