// Attached MCP resources (context chips): added once, removable, used up by
// the next message, each read from its own server; one that cannot be read is
// named, not fatal.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { ContextAttachments } from '../../../src/host/contextAttachments';
import { mcpResourceAttachment } from '../../../src/host/mcpResourceAttachments';
import { promptWithAttachments } from '../../../src/protocol/conversationHistory';
import { FAULT_SERVER, stdioServer } from '../mcp/mcpTestSupport';

describe('attached MCP resources', () => {
  const hub = new McpHub();
  after(() => hub.dispose());

  it('adds each resource once, reads it from its server into the message, and is then empty', async () => {
    await hub.update([stdioServer('fault', [FAULT_SERVER])]);
    const attachments = new ContextAttachments();
    let changes = 0;
    attachments.onDidChange(() => changes++);
    const fault = { name: 'fault', source: 'test' };
    const attach = (uri: string, label: string) => attachments.attach(mcpResourceAttachment({ server: fault, uri, label }, hub));
    attach('fault://readme', 'readme');
    attach('fault://readme', 'readme');
    attach('fault://missing', 'missing');
    attach('fault://other', 'other');
    attachments.detach('fault://other');
    assert.deepEqual(attachments.list().map((item) => item.path), ['fault://readme', 'fault://missing']);
    const text = promptWithAttachments('Summarise.', (await attachments.take(new AbortController().signal))?.text);
    assert.match(text, /^Summarise\.\n\nAttached resource fault:\/\/readme \(MCP server "fault"\):\n```\nThe fault fixture hangs, crashes and changes its lists\.\n```/);
    assert.match(text, /Attached resource fault:\/\/missing could not be read: /);
    assert.equal(attachments.list().length, 0);
    assert.equal(await attachments.take(new AbortController().signal), undefined);
    assert.ok(changes >= 4);
  });
});
