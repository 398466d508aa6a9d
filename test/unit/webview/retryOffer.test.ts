// Retry is offered for the last question once its run has ended; asking it
// again marks the first try's question (it stays in the panel) and offers the
// new try instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { retryOffer } from '../../../webview/retryOffer';
import { createConversationView, type UserStep } from '../../../webview/steps';
import { transcriptMarkdown } from '../../../webview/transcript';
import { applyEvents } from '../../../webview/viewModel';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;
const asked = (runId: string, text: string) => event('CUSTOM', { name: 'tandem.userMessage', value: { text, runId } });
const answered = (runId: string, answer: string) => [
  event('RUN_STARTED', { threadId: 't', runId }),
  event('TEXT_MESSAGE_START', { messageId: `m-${runId}`, role: 'assistant', metadata: { role: 'answer', model: 'a', kind: 'answer' } }),
  event('TEXT_MESSAGE_CONTENT', { messageId: `m-${runId}`, delta: answer }),
  event('TEXT_MESSAGE_END', { messageId: `m-${runId}` }),
  event('RUN_FINISHED', { threadId: 't', runId }),
];
const retried = (runId: string) => event('CUSTOM', { name: 'tandem.retried', value: { runId } });
const questions = (steps: readonly { kind: string }[]) => steps.filter((step): step is UserStep => step.kind === 'user');

describe('retry offer', () => {
  it('offers the last question once its run has ended, not while it goes', () => {
    const view = applyEvents(createConversationView(), [asked('r1', 'One?'), ...answered('r1', 'A1'), asked('r2', 'Two?')]);
    assert.equal(retryOffer(view), undefined, 'the run of r2 is going');
    applyEvents(view, answered('r2', 'A2'));
    assert.equal(retryOffer(view), 'r2');
    assert.equal(retryOffer(createConversationView()), undefined, 'an empty conversation has nothing to ask again');
  });

  it('marks the first try when it is asked again, and offers the new try', () => {
    const view = applyEvents(createConversationView(), [asked('r1', 'Two?'), ...answered('r1', 'A1')]);
    const [first] = questions(view.steps);
    const version = first!.version;
    view.dirty.clear();
    applyEvents(view, [retried('r1'), asked('r2', 'Two?')]);
    assert.equal(first!.setAside, true);
    assert.ok(first!.version > version && view.dirty.has(first!.id), 'the marked question is redrawn');
    assert.equal(retryOffer(view), undefined, 'the retry is going');
    applyEvents(view, answered('r2', 'A2'));
    assert.equal(retryOffer(view), 'r2');
    assert.deepEqual(questions(view.steps).map((step) => step.setAside === true), [true, false]);
    // The whole first try is set aside, its answer too; nothing of the second.
    const answerOf = (text: string) => view.steps.find((step) => step.kind === 'answer' && step.text === text);
    assert.equal(answerOf('A1')?.setAside, true);
    assert.equal(answerOf('A2')?.setAside, undefined);
    // The exported transcript says which try the models no longer see.
    const transcript = transcriptMarkdown('Chat', [asked('r1', 'Two?'), ...answered('r1', 'A1'), retried('r1'), asked('r2', 'Two?'), ...answered('r2', 'A2')]);
    assert.match(transcript, /## You \(asked again below; the models no longer see this try\)\n\nTwo\?/);
  });

  it('is not offered after a condense on request, nor for a prompt stored without its run', () => {
    const condensed = applyEvents(createConversationView(), [
      asked('r1', 'One?'),
      ...answered('r1', 'A1'),
      event('CUSTOM', { name: 'tandem.condensed', value: { summary: 'S', historyMessages: 2, tokensBefore: 10, tokensAfter: 2, reason: 'manual' } }),
    ]);
    assert.equal(retryOffer(condensed), undefined);
    const old = applyEvents(createConversationView(), [event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Old' } }), ...answered('r0', 'A')]);
    assert.equal(retryOffer(old), undefined);
  });
});
