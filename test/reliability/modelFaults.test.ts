// Model faults through the real openai SDK against the scripted server, each
// in the middle of a conversation whose model has just tried to overwrite a
// file (the person said no): 429 with Retry-After, repeated 500s, a reset
// mid-stream, malformed SSE, a stall, no usage. Every run ends with an
// answer or a clear error within its limit, the conversation stays intact
// and usable, and the file is unchanged.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventType } from '@ag-ui/core';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedTurn } from '../fixtures/scriptedModelServer';
import { REJECTED_EDIT_TEXT } from '../../src/tools/workspaceToolSupport';
import { settingsFor } from '../unit/agent/agentTestSupport';
import { makeKit, type Kit } from '../unit/tools/workspaceTestKit';
import { Conversation, snapshot } from './reliabilitySupport';

const denied = (text: string): ScriptedTurn => ({ model: 'fc-model', content: text, toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'overwritten by the model' } }] });

interface FaultCase {
  readonly name: string;
  /** The turns after the denied write: the fault and whatever follows it. */
  readonly turns: ScriptedTurn[];
  readonly expect: 'answer' | 'error';
  readonly stallTimeoutMs?: number;
  readonly check?: (outcome: Awaited<ReturnType<Conversation['ask']>>) => void;
}

const healthyEnd: ScriptedTurn[] = [
  { model: 'fc-model', content: 'The write was refused; I have what I need.' },
  { model: 'answer-model', content: 'The notes say the release is on Tuesday.' },
];

const retries = (outcome: Awaited<ReturnType<Conversation['ask']>>) =>
  outcome.events.filter((event) => event.type === EventType.CUSTOM && event['name'] === 'tandem.retry');

const cases: FaultCase[] = [
  {
    name: '429 with Retry-After is waited out and retried',
    turns: [{ model: 'fc-model', fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } }, ...healthyEnd],
    expect: 'answer',
    check: (outcome) => assert.match(String((retries(outcome)[0]?.['value'] as { reason?: string })?.reason), /429|rate/i),
  },
  {
    name: 'repeated 500s end in a clear error, not a hang',
    turns: Array.from({ length: 6 }, () => ({ model: 'fc-model', fault: { kind: 'status', status: 500 } }) satisfies ScriptedTurn),
    expect: 'error',
    check: (outcome) => assert.match(String(outcome.error?.['message']), /500|server/i),
  },
  {
    name: 'a connection reset mid-stream is retried',
    turns: [{ model: 'fc-model', content: 'Let me think about this for a while longer', fault: { kind: 'drop', afterChunks: 3 } }, ...healthyEnd],
    expect: 'answer',
    check: (outcome) => assert.ok(retries(outcome).length >= 1, 'the reset shows as a retry'),
  },
  {
    name: 'malformed SSE is retried',
    turns: [{ model: 'fc-model', content: 'Half a reply', fault: { kind: 'malformed', afterChunks: 2 } }, ...healthyEnd],
    expect: 'answer',
  },
  {
    name: 'a stalled stream is cut at the stall bound and retried',
    turns: [{ model: 'fc-model', content: 'slow words that never finish arriving', chunkDelayMs: 5_000 }, ...healthyEnd],
    stallTimeoutMs: 300,
    expect: 'answer',
    check: (outcome) => assert.match(String((retries(outcome)[0]?.['value'] as { reason?: string })?.reason), /stalled/),
  },
  {
    name: 'no usage in the stream: the answer comes, usage is estimated',
    turns: healthyEnd.map((turn) => ({ ...turn, usage: false as const })),
    expect: 'answer',
    check: (outcome) => {
      const usage = outcome.events.filter((event) => event.type === EventType.CUSTOM && event['name'] === 'tandem.usage').at(-1)?.['value'];
      assert.match(JSON.stringify(usage), /"estimated":true/);
    },
  },
];

describe('model faults', () => {
  let kit: Kit;
  let server: ScriptedModelServer | undefined;
  before(() => {
    kit = makeKit();
    writeFileSync(path.join(kit.root, 'notes.md'), 'The release is on Tuesday.\n');
  });
  after(async () => {
    await server?.close();
    kit.dispose();
  });

  for (const fault of cases) {
    it(fault.name, { timeout: 30_000 }, async () => {
      const conversation = new Conversation();
      const files = snapshot(kit.root);
      server = await startScriptedModelServer({ turns: [denied('First I will rewrite the notes.'), ...fault.turns] });
      const settings = settingsFor(server);
      const options = { settings, tools: kit.tools, modelOptions: fault.stallTimeoutMs ? { stallTimeoutMs: fault.stallTimeoutMs } : {} };
      const outcome = await conversation.ask('When is the release?', options);
      assert.equal(outcome.kind, fault.expect, `ended with ${outcome.kind}: ${String(outcome.error?.['message'] ?? outcome.answer)}`);
      fault.check?.(outcome);
      const toolResults = server.requests[1]!.messages.filter((message: { role: string }) => message.role === 'tool').map((message: { content: string }) => message.content);
      assert.match(toolResults.join('\n'), new RegExp(REJECTED_EDIT_TEXT.slice(0, 24)), 'the model was told its write was refused');
      assert.deepEqual(snapshot(kit.root), files, 'no file changed without approval');
      await server.close();

      // The same conversation carries on with a healthy model.
      server = await startScriptedModelServer({ turns: [{ model: 'fc-model', content: 'Nothing to look up.' }, { model: 'answer-model', content: 'Still Tuesday.' }] });
      const next = await conversation.ask('And who owns it?', { ...options, settings: settingsFor(server) });
      assert.equal(next.kind, 'answer');
      const sent = server.requests.at(-1)!.messages.filter((message: { role: string }) => message.role === 'user').map((message: { content: string }) => message.content);
      // The next run gets the whole conversation. A failed run left no answer after its prompt, so on the
      // wire that prompt and the next are one user turn (strict chat templates want turns to alternate).
      const asked = 'When is the release?';
      const last = sent.at(-1) ?? '';
      if (fault.expect === 'error') assert.ok(last.startsWith(`${asked}\n\n`), last.slice(0, 80));
      else assert.equal(sent.at(-2), asked, 'the next run got the whole conversation');
      const nextPrompt = fault.expect === 'error' ? last.slice(asked.length + 2) : last;
      // The next question opens with Tandem's record of the faulty run: the refused write, and how it ended.
      assert.match(
        nextPrompt,
        /^\[Tandem's record, not typed by the user\] What the previous run did: tools used: write_file ×1 \(1 rejected by the user\)[\s\S]*\n\nAnd who owns it\?$/,
      );
      if (fault.expect === 'error') assert.match(nextPrompt, /it failed before it answered: /);
      await conversation.assertIntact();
      assert.deepEqual(snapshot(kit.root), files, 'no file changed without approval');
      await server.close();
      server = undefined;
    });
  }
});
