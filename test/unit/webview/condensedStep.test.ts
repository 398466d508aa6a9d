// A `tandem.condensed` event becomes a `condensed` step: collapsed, titled
// "Condensed N messages: X → Y tokens" (marked when the counts are
// estimates), the summary in its body and in the exported transcript.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent, CondensedPayload, ContextPayload } from '../../../src/protocol/agentEvents';
import { condensedTitle } from '../../../webview/stepText';
import { createConversationView, type CondensedStep } from '../../../webview/steps';
import { transcriptMarkdown } from '../../../webview/transcript';
import { applyEvents } from '../../../webview/viewModel';

const payload: CondensedPayload = {
  role: 'function-call',
  model: 'answer-model',
  summary: 'The user asked about the build.',
  messages: 4,
  historyMessages: 4,
  tokensBefore: 5210,
  tokensAfter: 1020,
  estimated: true,
  reason: 'nearWindow',
};

describe('condensed step', () => {
  it('shows the counts in its title and the summary in the transcript', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'CUSTOM', name: 'tandem.condensed', value: payload },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ] as AgentEvent[];
    const view = applyEvents(createConversationView(), events);
    const step = view.steps.find((candidate): candidate is CondensedStep => candidate.kind === 'condensed');
    assert.ok(step);
    assert.equal(step.summary, payload.summary);
    assert.equal(step.model?.model, 'answer-model');
    assert.equal(condensedTitle(step), 'Condensed 4 messages: ~5,210 → ~1,020 tokens');
    assert.equal(condensedTitle({ ...step, estimated: false, messages: 1 }), 'Condensed 1 message: 5,210 → 1,020 tokens');
    const markdown = transcriptMarkdown('T', events);
    assert.match(markdown, /Condensed 4 messages/);
    assert.match(markdown, /> The user asked about the build\./);
  });

  it('condensing on request lowers the context meter by what the history lost, marked as an estimate of the next request', () => {
    const meter: ContextPayload = { role: 'answer', model: 'answer-model', tokens: 7000, window: 8192, estimated: false, windowSource: 'setting' };
    const run = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'CUSTOM', name: 'tandem.context', value: meter },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ] as AgentEvent[];
    const before = applyEvents(createConversationView(), run);
    assert.deepEqual(before.context, meter);
    const manual = { type: 'CUSTOM', name: 'tandem.condensed', value: { ...payload, reason: 'manual' } } as AgentEvent;
    const after = applyEvents(createConversationView(), [...run, manual]);
    assert.deepEqual(after.context, { ...meter, tokens: 7000 - (5210 - 1020), estimated: true, afterCondensing: true });
    // A run that condenses sends the shorter request's count itself: its condensed event leaves the meter alone.
    const inRun = applyEvents(createConversationView(), [...run, { type: 'CUSTOM', name: 'tandem.condensed', value: payload } as AgentEvent]);
    assert.deepEqual(inRun.context, meter);
  });
});
