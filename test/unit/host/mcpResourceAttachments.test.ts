// Attached MCP resources: added once, removable, used up by the next message,
// each read from its own server; one that cannot be read is named, not fatal.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { ResourceAttachments } from '../../../src/host/mcpResourceAttachments';
import { FAULT_SERVER, stdioServer } from '../mcp/mcpTestSupport';

describe('attached MCP resources', () => {
  const hub = new McpHub();
  after(() => hub.dispose());

  it('adds each resource once, reads it from its server into the message, and is then empty', async () => {
    await hub.update([stdioServer('fault', [FAULT_SERVER])]);
    const attachments = new ResourceAttachments();
    let changes = 0;
    attachments.onDidChange(() => changes++);
    const fault = { name: 'fault', source: 'test' };
    attachments.attach({ server: fault, uri: 'fault://readme', label: 'readme' });
    attachments.attach({ server: fault, uri: 'fault://readme', label: 'readme' });
    attachments.attach({ server: fault, uri: 'fault://missing', label: 'missing' });
    attachments.attach({ server: fault, uri: 'fault://other', label: 'other' });
    attachments.detach('fault://other');
    assert.deepEqual(attachments.list().map((item) => item.uri), ['fault://readme', 'fault://missing']);
    const text = await attachments.appendTo('Summarise.', hub, new AbortController().signal);
    assert.match(text, /^Summarise\.\n\nAttached resource fault:\/\/readme \(MCP server "fault"\):\n```\nThe fault fixture hangs, crashes and changes its lists\.\n```/);
    assert.match(text, /Attached resource fault:\/\/missing could not be read: /);
    assert.equal(attachments.list().length, 0);
    assert.equal(await attachments.appendTo('Plain.', hub, new AbortController().signal), 'Plain.');
    assert.ok(changes >= 4);
  });
});
