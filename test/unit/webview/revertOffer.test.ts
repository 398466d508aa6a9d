// The revert bar offers the newest run whose edits are still in place, so a
// question answered without edits does not hide the run before it, and runs
// can be reverted one after another, newest first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { revertOffer } from '../../../webview/revertOffer';
import { createConversationView } from '../../../webview/steps';
import { applyEvents } from '../../../webview/viewModel';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

/** One whole run as the host stores it: the question, the run, and its edits if it made any. */
function run(runId: string, question: string, files: string[] = []): AgentEvent[] {
  return [
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: question, runId } }),
    event('RUN_STARTED', { threadId: 't', runId }),
    event('TEXT_MESSAGE_START', { messageId: `m-${runId}`, role: 'assistant', metadata: { role: 'answer', model: 'a', kind: 'answer' } }),
    event('TEXT_MESSAGE_CONTENT', { messageId: `m-${runId}`, delta: 'Done.' }),
    event('TEXT_MESSAGE_END', { messageId: `m-${runId}` }),
    event('RUN_FINISHED', { threadId: 't', runId }),
    ...(files.length > 0 ? [event('CUSTOM', { name: 'tandem.runEdits', value: { runId, files } })] : []),
  ];
}

const reverted = (runId: string, files: string[]) => event('CUSTOM', { name: 'tandem.runReverted', value: { runId, files, skipped: [], remaining: [] } });

describe('revert offer', () => {
  it('offers the last run\'s edits as this run\'s', () => {
    const view = applyEvents(createConversationView(), run('r1', 'Rewrite the notes.', ['notes.md']));
    const offer = revertOffer(view);
    assert.equal(offer?.runId, 'r1');
    assert.equal(offer?.latest, true);
    assert.deepEqual(offer?.edits.files, ['notes.md']);
  });

  it('still offers an earlier run\'s edits after a run that changed nothing, naming that run by its question', () => {
    const view = applyEvents(createConversationView(), [...run('r1', 'Rewrite the notes.', ['notes.md']), ...run('r2', 'What changed?')]);
    const offer = revertOffer(view);
    assert.equal(offer?.runId, 'r1');
    assert.equal(offer?.latest, false);
    assert.equal(offer?.question, 'Rewrite the notes.');
  });

  it('after a run is reverted, offers the run before it; nothing once all are', () => {
    const view = applyEvents(createConversationView(), [...run('r1', 'First edit.', ['a.ts']), ...run('r2', 'Second edit.', ['b.ts'])]);
    assert.equal(revertOffer(view)?.runId, 'r2');
    applyEvents(view, [reverted('r2', ['b.ts'])]);
    assert.equal(revertOffer(view)?.runId, 'r1');
    assert.equal(revertOffer(view)?.question, 'First edit.');
    applyEvents(view, [reverted('r1', ['a.ts'])]);
    assert.equal(revertOffer(view), undefined);
  });

  it('offers nothing while a run is going: it may be editing the same files', () => {
    const view = applyEvents(createConversationView(), run('r1', 'Rewrite the notes.', ['notes.md']));
    applyEvents(view, [event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'More.', runId: 'r2' } }), event('RUN_STARTED', { threadId: 't', runId: 'r2' })]);
    assert.equal(revertOffer(view), undefined);
    applyEvents(view, [event('RUN_FINISHED', { threadId: 't', runId: 'r2' })]);
    assert.equal(revertOffer(view)?.runId, 'r1');
  });
});
