import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { historyMessages } from '../../../src/protocol/conversationHistory';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

it("gives the models the prompts and final answers as the next run's history, without tool traffic", () => {
  const events = [
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Where is main?', runId: 'r1' } }),
    event('RUN_STARTED', { runId: 'r1', threadId: 't' }),
    event('TOOL_CALL_START', { toolCallId: 'c', toolCallName: 'find_files' }),
    event('TOOL_CALL_RESULT', { toolCallId: 'c', messageId: 'x', content: 'src/main.ts' }),
    event('TEXT_MESSAGE_CONTENT', { messageId: 'a', delta: 'It is in `src/main.ts`.' }),
    event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'noToolCall', answer: 'It is in `src/main.ts`.' } }),
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'And tests?', runId: 'r2' } }),
    event('RUN_FINISHED', { runId: 'r2', threadId: 't', result: { stopReason: 'cancelled', answer: '' } }),
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Try again.', runId: 'r3' } }),
    event('RUN_ERROR', { message: 'HTTP 500' }),
  ];
  assert.deepEqual(historyMessages(events), [
    { role: 'user', content: 'Where is main?' },
    { role: 'assistant', content: 'It is in `src/main.ts`.' },
    { role: 'user', content: 'And tests?' },
    { role: 'user', content: "[Tandem's record, not typed by the user] What the previous run did: the user stopped it before it answered.\n\nTry again." },
  ]);
});

const custom = (name: string, value: unknown) => event('CUSTOM', { name, value });

it('opens the next prompt with what the last run did that its answer may not say, and a revert since', () => {
  const events = [
    custom('tandem.userMessage', { text: 'Add a feature flag.', runId: 'r1' }),
    custom('tandem.toolStatus', { toolCallId: 'c1', toolName: 'read_file', status: 'done', durationMs: 1, source: 'workspace' }),
    custom('tandem.toolStatus', { toolCallId: 'c2', toolName: 'read_file', status: 'failed', durationMs: 1, source: 'workspace' }),
    custom('tandem.approval', { id: 'a1', toolCallId: 'c3', tool: 'edit_file', kind: 'edit', args: {}, summary: 'Edit src/app.ts', sensitive: false, status: 'pending' }),
    custom('tandem.approval', { id: 'a1', toolCallId: 'c3', tool: 'edit_file', kind: 'edit', args: {}, summary: 'Edit src/app.ts', sensitive: false, status: 'rejected', note: 'keep the old export' }),
    custom('tandem.toolStatus', { toolCallId: 'c3', toolName: 'edit_file', status: 'rejected', durationMs: 1, source: 'workspace' }),
    custom('tandem.toolStatus', { toolCallId: 'c4', toolName: 'write_file', status: 'done', durationMs: 1, source: 'workspace' }),
    // A card the run's end closed is not the user's refusal.
    custom('tandem.approval', { id: 'a2', toolCallId: 'c5', tool: 'edit_file', kind: 'edit', args: {}, summary: 'Edit README.md', sensitive: false, status: 'rejected', reason: 'cancelled' }),
    event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'noToolCall', answer: 'Created src/flag.ts.' } }),
    custom('tandem.runEdits', { runId: 'r1', files: ['src/flag.ts'] }),
    custom('tandem.runReverted', { runId: 'r1', files: ['src/flag.ts'], skipped: [], remaining: [] }),
    custom('tandem.userMessage', { text: 'Is the flag file still there?', runId: 'r2' }),
    event('RUN_ERROR', { message: 'Model "m" failed: HTTP 500' }),
    custom('tandem.userMessage', { text: 'Again?', runId: 'r3' }),
    event('RUN_FINISHED', { runId: 'r3', threadId: 't', result: { stopReason: 'noToolCall', answer: 'Yes.' } }),
    custom('tandem.userMessage', { text: 'Thanks.', runId: 'r4' }),
    event('RUN_FINISHED', { runId: 'r4', threadId: 't', result: { stopReason: 'maxIterations', answer: 'Partly done.' } }),
    custom('tandem.userMessage', { text: 'Go on.', runId: 'r5' }),
  ];
  assert.deepEqual(historyMessages(events), [
    { role: 'user', content: 'Add a feature flag.' },
    { role: 'assistant', content: 'Created src/flag.ts.' },
    {
      role: 'user',
      content:
        "[Tandem's record, not typed by the user] What the previous run did: tools used: read_file ×2 (1 failed), edit_file ×1 (1 rejected by the user), write_file ×1; " +
        'the user rejected: Edit src/app.ts (saying: keep the old export); files changed: src/flag.ts. Since then, the user reverted the changes to src/flag.ts.\n\nIs the flag file still there?',
    },
    { role: 'user', content: "[Tandem's record, not typed by the user] What the previous run did: it failed before it answered: Model \"m\" failed: HTTP 500.\n\nAgain?" },
    { role: 'assistant', content: 'Yes.' },
    // A run with nothing to tell adds nothing.
    { role: 'user', content: 'Thanks.' },
    { role: 'assistant', content: 'Partly done.' },
    { role: 'user', content: "[Tandem's record, not typed by the user] What the previous run did: its tool phase was cut short (the iteration limit) and it answered from what it had.\n\nGo on." },
  ]);
});

it('leaves out a run the user asked again (Retry), telling the next try only what the set-aside one did to the workspace', () => {
  const events = [
    custom('tandem.userMessage', { text: 'What does build.sh do?', runId: 'r1' }),
    event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'noToolCall', answer: 'It builds.' } }),
    // The first try at the question: read a file, wrote one, failed.
    custom('tandem.userMessage', { text: 'Make it faster.', runId: 'r2' }),
    custom('tandem.toolStatus', { toolCallId: 'c1', toolName: 'write_file', status: 'done', durationMs: 1, source: 'workspace' }),
    event('RUN_ERROR', { message: 'HTTP 500' }),
    custom('tandem.runEdits', { runId: 'r2', files: ['build.sh'] }),
    custom('tandem.retried', { runId: 'r2' }),
    // The second try did nothing worth telling, and was set aside too.
    custom('tandem.userMessage', { text: 'Make it faster.', runId: 'r3' }),
    event('RUN_FINISHED', { runId: 'r3', threadId: 't', result: { stopReason: 'noToolCall', answer: 'Use -j.' } }),
    custom('tandem.retried', { runId: 'r3' }),
    custom('tandem.userMessage', { text: 'Make it faster.', runId: 'r4' }),
    event('RUN_FINISHED', { runId: 'r4', threadId: 't', result: { stopReason: 'noToolCall', answer: 'Cache the downloads.' } }),
    custom('tandem.userMessage', { text: 'Thanks.', runId: 'r5' }),
  ];
  assert.deepEqual(historyMessages(events), [
    { role: 'user', content: 'What does build.sh do?' },
    { role: 'assistant', content: 'It builds.' },
    {
      role: 'user',
      content:
        "[Tandem's record, not typed by the user] Since then, an earlier try at the question below, which the user set aside, did this: tools used: write_file ×1; files changed: build.sh.\n\nMake it faster.",
    },
    { role: 'assistant', content: 'Cache the downloads.' },
    { role: 'user', content: 'Thanks.' },
  ]);
});

it('keeps a condensed summary made during a try that was then asked again: it replaced only turns before it', () => {
  const events = [
    custom('tandem.userMessage', { text: 'One', runId: 'r1' }),
    event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'noToolCall', answer: 'A1' } }),
    custom('tandem.userMessage', { text: 'Two', runId: 'r2' }),
    custom('tandem.condensed', { summary: 'They said one; I said A1.', historyMessages: 2, reason: 'nearWindow' }),
    event('RUN_FINISHED', { runId: 'r2', threadId: 't', result: { stopReason: 'noToolCall', answer: 'A2' } }),
    custom('tandem.retried', { runId: 'r2' }),
    custom('tandem.userMessage', { text: 'Two', runId: 'r3' }),
  ];
  const messages = historyMessages(events);
  assert.equal(messages.length, 2);
  assert.match(String(messages[0]!.content), /They said one; I said A1\./);
  assert.deepEqual(messages[1], { role: 'user', content: 'Two' });
});

it('folds a message sent into a run (steered) into the question it steered, and leaves a retried run\'s out with it', () => {
  const events = [
    custom('tandem.userMessage', { text: 'Rename foo.', runId: 'r1' }),
    event('RUN_STARTED', { runId: 'r1', threadId: 't' }),
    custom('tandem.steered', { runId: 'r1', id: 'q', text: 'Also in the tests.', attached: { labels: ['a.ts'], text: 'File a.ts:\nfoo()' } }),
    event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'noToolCall', answer: 'Renamed.' } }),
    custom('tandem.userMessage', { text: 'Undo it.', runId: 'r2' }),
    custom('tandem.steered', { runId: 'r2', id: 'q2', text: 'Only in src.' }),
    event('RUN_FINISHED', { runId: 'r2', threadId: 't', result: { stopReason: 'noToolCall', answer: 'Undone.' } }),
    custom('tandem.retried', { runId: 'r2' }),
    custom('tandem.userMessage', { text: 'Undo it, please.', runId: 'r3' }),
  ];
  const messages = historyMessages(events);
  assert.equal(messages.length, 3, 'no message of its own: the counts a condensed event stores stay true');
  assert.equal(messages[0]?.role, 'user');
  assert.match(messages[0]!.content as string, /^Rename foo\.\n\nThe user sent this while you were working[^\n]*\n\nAlso in the tests\.\n\nFile a\.ts:\nfoo\(\)$/);
  assert.deepEqual(messages[1], { role: 'assistant', content: 'Renamed.' });
  assert.equal(JSON.stringify(messages).includes('Only in src.'), false, 'the retried run took its steer with it');
});
