import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { followUpsLeft } from '../../../src/protocol/followUpsLeft';
import { HostEventName } from '../../../src/protocol/hostEventNames';

const custom = (name: string, value: unknown) => ({ type: 'CUSTOM', name, value }) as AgentEvent;
const asked = (text: string) => custom(HostEventName.userMessage, { text, runId: text });
const left = (texts: unknown) => custom(HostEventName.followUpsLeft, { texts });

describe('follow-ups a window left queued', () => {
  it('are the last list stored after the last question, even past the run ending added on load', () => {
    const events = [asked('Work on this.'), { type: 'RUN_STARTED' } as AgentEvent, left(['Then test.', 'Then tidy.']), { type: 'RUN_ERROR', code: 'INTERRUPTED' } as AgentEvent];
    assert.deepEqual(followUpsLeft(events), ['Then test.', 'Then tidy.']);
  });

  it('are none once a question came after them, or a later window left none, or the value is not a list of text', () => {
    assert.deepEqual(followUpsLeft([left(['Then test.']), asked('Then test.')]), []);
    assert.deepEqual(followUpsLeft([asked('a'), left(['Then test.']), left([])]), []);
    assert.deepEqual(followUpsLeft([asked('a'), left('Then test.')]), []);
    assert.deepEqual(followUpsLeft([asked('a'), left(['ok', 3, '  ', null])]), ['ok']);
    assert.deepEqual(followUpsLeft([]), []);
  });
});
