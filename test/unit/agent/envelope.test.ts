import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvelope, resolveEnvelopeTool } from '../../../src/agent/envelope';

const call = { tool: 'filesystem', method: 'read_file', params: { path: 'a.txt' } };

describe('parseEnvelope', () => {
  it('reads a bare envelope', () => {
    const parsed = parseEnvelope(JSON.stringify({ response: 'Reading it.', mcp: call }));
    assert.deepEqual(parsed, { kind: 'envelope', response: 'Reading it.', call, prose: '' });
  });

  it('reads an envelope in a code fence, keeping the prose', () => {
    const parsed = parseEnvelope(`Sure.\n\`\`\`json\n${JSON.stringify({ response: 'x', mcp: call })}\n\`\`\`\nThanks.`);
    assert.equal(parsed.kind, 'envelope');
    assert.deepEqual(parsed.kind === 'envelope' && parsed.call, call);
    assert.equal(parsed.kind === 'envelope' && parsed.prose, 'Sure.\n\nThanks.');
  });

  it('reads an envelope after prose, with braces inside strings', () => {
    const parsed = parseEnvelope('Let me check {first} {"mcp": {"tool": "search_text", "params": {"query": "a{b}"}}}');
    assert.equal(parsed.kind, 'envelope');
    assert.deepEqual(parsed.kind === 'envelope' && parsed.call, { tool: 'search_text', method: undefined, params: { query: 'a{b}' } });
  });

  it('treats an envelope without mcp as a reply without a call', () => {
    const parsed = parseEnvelope('{"response": "All done."}');
    assert.deepEqual(parsed, { kind: 'envelope', response: 'All done.', call: undefined, prose: '' });
  });

  it('reports invalid JSON that tries to call a tool', () => {
    const parsed = parseEnvelope('{"response": "x", "mcp": {"tool": "a", "params": {broken}}}');
    assert.equal(parsed.kind, 'malformed');
    assert.match(parsed.kind === 'malformed' ? parsed.error : '', /not valid/);
  });

  it('reports an mcp object without a tool name', () => {
    const parsed = parseEnvelope('{"mcp": {"method": "read_file"}}');
    assert.equal(parsed.kind, 'malformed');
    assert.match(parsed.kind === 'malformed' ? parsed.error : '', /mcp\.tool/);
  });

  it('leaves plain text alone', () => {
    assert.deepEqual(parseEnvelope('The set {1, 2} has two members.'), { kind: 'none' });
    assert.deepEqual(parseEnvelope('No braces at all.'), { kind: 'none' });
  });
});

describe('resolveEnvelopeTool', () => {
  const names = new Set(['read_file', 'everything__echo']);
  it('prefers server__method, then method, then tool', () => {
    assert.equal(resolveEnvelopeTool({ tool: 'everything', method: 'echo', params: {} }, names), 'everything__echo');
    assert.equal(resolveEnvelopeTool({ tool: 'filesystem', method: 'read_file', params: {} }, names), 'read_file');
    assert.equal(resolveEnvelopeTool({ tool: 'read_file', method: undefined, params: {} }, names), 'read_file');
    assert.equal(resolveEnvelopeTool({ tool: 'nothing', method: 'here', params: {} }, names), undefined);
  });
});
