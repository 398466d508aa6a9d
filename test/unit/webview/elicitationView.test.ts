// The elicitation card's state and form logic without a DOM: the panel's
// reducer turns `tandem.elicitation` events into one step per question,
// updated by its answer and expired when the run ends unanswered; the draft
// starts from the schema's defaults (the everything server's real form) and
// is read back into an answer only when every field fits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent, ElicitationPayload } from '../../../src/protocol/agentEvents';
import type { ElicitationSchema } from '../../../src/tools/elicitation';
import { initialDraft, readDraft } from '../../../webview/elicitationFields';
import { waitingForElicitation } from '../../../webview/elicitationEvents';
import { createConversationView, type ElicitationStep } from '../../../webview/steps';
import { applyEvents } from '../../../webview/viewModel';

const schema: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    email: { type: 'string', format: 'email' },
    check: { type: 'boolean' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
    hero: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Wonder Woman' }], default: 'hero-1' },
    instruments: { type: 'array', minItems: 1, items: { type: 'string', enum: ['Guitar', 'Piano'] }, default: ['Guitar'] },
  },
  required: ['name'],
};

const event = (payload: ElicitationPayload): AgentEvent => ({ type: 'CUSTOM', name: 'tandem.elicitation', value: payload, timestamp: 1 }) as AgentEvent;
const pending: ElicitationPayload = { id: 'q1', serverName: 'everything', message: 'Who are you?', mode: 'form', requestedSchema: schema, status: 'pending' };

describe('elicitation card state', () => {
  it('one step per question, updated by its answer', () => {
    const view = applyEvents(createConversationView(), [{ type: 'RUN_STARTED', threadId: 't', runId: 'r', timestamp: 0 } as AgentEvent, event(pending)]);
    const steps = view.steps.filter((step): step is ElicitationStep => step.kind === 'elicitation');
    assert.equal(steps.length, 1);
    assert.equal(steps[0]?.status, 'pending');
    assert.equal(steps[0]?.serverName, 'everything');
    assert.equal(waitingForElicitation(view), true);
    applyEvents(view, [event(pending), event({ ...pending, status: 'decline' })]);
    assert.equal(view.steps.filter((step) => step.kind === 'elicitation').length, 1, 'a repeated pending event adds nothing');
    assert.equal(steps[0]?.status, 'decline');
    assert.equal(waitingForElicitation(view), false);
  });

  it('a question nobody answered expires when the run ends', () => {
    const view = applyEvents(createConversationView(), [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r', timestamp: 0 } as AgentEvent,
      event({ ...pending, id: 'q2', mode: 'url', url: 'https://example.test/sign-in', requestedSchema: undefined }),
      { type: 'RUN_ERROR', message: 'stopped', timestamp: 2 } as AgentEvent,
    ]);
    const step = view.byElicitation.get('q2');
    assert.equal(step?.mode, 'url');
    assert.equal(step?.url, 'https://example.test/sign-in');
    assert.equal(step?.status, 'expired');
  });
});

describe('elicitation form', () => {
  it('starts from the defaults and refuses what does not fit, field by field', () => {
    const draft = initialDraft(schema);
    assert.deepEqual(draft, { name: '', email: '', check: false, integer: '42', firstLine: 'It was a dark and stormy night.', hero: 'hero-1', instruments: ['Guitar'] });
    draft['email'] = 'nope';
    draft['integer'] = '101';
    draft['instruments'] = [];
    const { problems } = readDraft(schema, draft);
    assert.deepEqual([...problems.keys()].sort(), ['email', 'integer', 'name']);
    assert.equal(problems.get('name'), 'Required.');
    assert.match(problems.get('integer') ?? '', /at most 100/);
  });

  it('reads a fitting draft into the answer, numbers as numbers', () => {
    const draft = { ...initialDraft(schema), name: 'Ada', email: 'ada@example.com', integer: '7', check: true, instruments: ['Guitar', 'Piano'] };
    const { content, problems } = readDraft(schema, draft);
    assert.equal(problems.size, 0, [...problems.values()].join(' '));
    assert.deepEqual(content, {
      name: 'Ada',
      email: 'ada@example.com',
      check: true,
      integer: 7,
      firstLine: 'It was a dark and stormy night.',
      hero: 'hero-1',
      instruments: ['Guitar', 'Piano'],
    });
  });
});
