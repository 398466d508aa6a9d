// The approval card's state from a real run's `tandem.approval` events: one
// step per request, updated in place by its decision (matched by id), and a
// request nobody answered shown as expired once the run ends.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { runAgent } from '../../../src/agent/runAgent';
import type { Approver } from '../../../src/agent/runApprovalGate';
import { SessionCache } from '../../../src/agent/sessionCache';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent, ApprovalAnswer } from '../../../src/protocol/agentEvents';
import { waitingForApproval } from '../../../webview/approvalEvents';
import { createConversationView, type ApprovalStep, type ToolCallStep } from '../../../webview/steps';
import { transcriptMarkdown } from '../../../webview/transcript';
import { applyEvent, applyEvents } from '../../../webview/viewModel';
import { fastRetry, scriptedServers, settingsFor, TableTool } from '../agent/agentTestSupport';

const serve = scriptedServers();

async function collect(baseUrl: Awaited<ReturnType<typeof serve>>, approver: Approver, signal: AbortSignal, onEvent?: (event: AgentEvent) => void): Promise<AgentEvent[]> {
  const settings = settingsFor(baseUrl);
  const events: AgentEvent[] = [];
  const stream = runAgent(
    { threadId: 't', runId: randomUUID(), messages: [{ role: 'user', content: 'store' }] },
    {
      functionCallModel: createChatModel(settings.functionCallModel, { retry: fastRetry }),
      answerModel: createChatModel(settings.answerModel, { retry: fastRetry }),
      tools: [new TableTool('store', { a: 'stored a', b: 'stored b' }, false)],
      approval: approver,
      settings,
      cache: new SessionCache(),
    },
    signal,
  );
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  return events;
}

describe('approval cards in the view model', () => {
  it('a card per request, decided in place; "waiting" while one is pending', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 'a' } }] },
      { model: 'fc-model', toolCalls: [{ id: 'c2', name: 'store', arguments: { key: 'b' } }] },
      { model: 'fc-model', content: 'done' },
      { model: 'answer-model', content: 'Stored a.' },
    ]);
    const answers: ApprovalAnswer[] = ['alwaysAllowed'];
    const view = createConversationView();
    const waitingSeen: boolean[] = [];
    const approver: Approver = {
      ask: async () => {
        // The stream reaches the panel asynchronously; give it a moment, as a person would take.
        await new Promise((resolve) => setTimeout(resolve, 30));
        waitingSeen.push(waitingForApproval(view));
        return answers.shift() ?? 'rejected';
      },
      rememberAlwaysAllow: async () => undefined,
    };
    const events = await collect(model, approver, new AbortController().signal, (event) => applyEvent(view, event));
    assert.deepEqual(waitingSeen, [true], 'the card waited when the approver was asked');
    const cards = view.steps.filter((step): step is ApprovalStep => step.kind === 'approval');
    assert.equal(cards.length, 1, 'always allow: the second call did not ask');
    assert.equal(cards[0]?.tool, 'store');
    assert.equal(cards[0]?.status, 'approved');
    assert.equal(cards[0]?.alwaysAllowed, true);
    assert.deepEqual(cards[0]?.args, { key: 'a' });
    assert.equal(waitingForApproval(view), false);
    assert.match(transcriptMarkdown('t', events), /\*\*Approval for `store`\*\* — approved \(always allowed\)/);
  });

  it('tool call rows: queued until begun, awaiting approval while the card waits, stopped if the run ends first', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 'a' } }, { id: 'c2', name: 'store', arguments: { key: 'b' } }] },
      { model: 'fc-model', content: 'done' },
      { model: 'answer-model', content: 'Stored.' },
    ]);
    const view = createConversationView();
    const seen: string[][] = [];
    const states = () => view.steps.filter((step): step is ToolCallStep => step.kind === 'tool-call').map((step) => step.state);
    const approver: Approver = {
      ask: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        seen.push(states());
        return 'approved';
      },
    };
    await collect(model, approver, new AbortController().signal, (event) => applyEvent(view, event));
    // Calls that change something run one after another: the second waits its turn.
    assert.deepEqual(seen, [
      ['awaiting', 'queued'],
      ['done', 'awaiting'],
    ]);
    assert.deepEqual(states(), ['done', 'done']);

    const stopped = applyEvents(
      createConversationView(),
      [
        { type: 'TOOL_CALL_START', toolCallId: 'x1', toolCallName: 'store' },
        { type: 'CUSTOM', name: 'tandem.toolStarted', value: { toolCallId: 'x1' } },
        { type: 'TOOL_CALL_START', toolCallId: 'x2', toolCallName: 'store' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ] as AgentEvent[],
    );
    assert.deepEqual(
      stopped.steps.filter((step): step is ToolCallStep => step.kind === 'tool-call').map((step) => step.state),
      ['stopped', 'stopped'],
    );
  });

  it("a rejection's note shows on its card and in the transcript", async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 'a' } }] },
      { model: 'fc-model', content: 'done' },
      { model: 'answer-model', content: 'Not stored.' },
    ]);
    const approver: Approver = { ask: async () => ({ answer: 'rejected', note: 'not on a Friday' }) };
    const events = await collect(model, approver, new AbortController().signal);
    const card = applyEvents(createConversationView(), events).steps.find((step): step is ApprovalStep => step.kind === 'approval');
    assert.equal(card?.status, 'rejected');
    assert.equal(card?.note, 'not on a Friday');
    assert.match(transcriptMarkdown('t', events), /— rejected: Run store\n\n> The user said: not on a Friday/);
  });

  it('Stop while waiting: the card ends expired, and a stored pending card replays as expired', async () => {
    const model = await serve([{ model: 'fc-model', toolCalls: [{ id: 'c1', name: 'store', arguments: { key: 'a' } }] }]);
    const controller = new AbortController();
    const approver: Approver = {
      ask: (_prompt, signal) =>
        new Promise((_resolve, reject) => {
          setTimeout(() => controller.abort(), 50);
          signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
        }),
    };
    const events = await collect(model, approver, controller.signal);
    const view = applyEvents(createConversationView(), events);
    const card = view.steps.find((step): step is ApprovalStep => step.kind === 'approval');
    assert.equal(card?.status, 'expired');

    const pendingOnly = events.filter((event) => !(event.type === 'CUSTOM' && event['name'] === 'tandem.approval' && (event['value'] as { status: string }).status !== 'pending'));
    const cut = pendingOnly.slice(0, pendingOnly.findIndex((event) => event.type === 'CUSTOM' && event['name'] === 'tandem.approval') + 1);
    const replay = applyEvents(createConversationView(), cut);
    assert.equal(waitingForApproval(replay), true);
    applyEvent(replay, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } as AgentEvent);
    assert.equal(waitingForApproval(replay), false);
  });
});
