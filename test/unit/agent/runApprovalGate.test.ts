// Approvals as the agent core runs them, with a test Approver in place of the
// panel: tandem.approval events (pending, then the decision with the same id),
// the policy (alwaysAllow, sensitive), "Always allow" applying within the run,
// and the clock paused while a person decides.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { randomUUID } from 'node:crypto';
import { AgentClock } from '../../../src/agent/agentClock';
import { runAgent } from '../../../src/agent/runAgent';
import type { ApprovalDecision, ApprovalPrompt, Approver } from '../../../src/agent/runApprovalGate';
import { SessionCache } from '../../../src/agent/sessionCache';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent, ApprovalPayload, RunUsage } from '../../../src/protocol/agentEvents';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import type { AgentSettings } from '../../../src/agent/agentSettings';
import type { Tool, ToolResult } from '../../../src/tools/tool';
import { assertVerified, customValues, fastRetry, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content });
const store = (key: string, id: string) => ({ id, name: 'store', arguments: { key } });

/** Answers each prompt as scripted, after `delayMs`; records what it was shown and remembered. */
class ScriptedApprover implements Approver {
  readonly prompts: ApprovalPrompt[] = [];
  readonly remembered: string[] = [];
  constructor(
    private readonly answers: ApprovalDecision[],
    private readonly delayMs = 0,
  ) {}
  async ask(prompt: ApprovalPrompt, signal: AbortSignal): Promise<ApprovalDecision> {
    this.prompts.push(prompt);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, this.delayMs);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), { once: true });
    });
    return this.answers.shift() ?? 'rejected';
  }
  async rememberAlwaysAllow(key: string): Promise<void> {
    this.remembered.push(key);
  }
}

/** A tool that asks for its own edit's approval (as edit_file does) and answers by the decision. */
function editingTool(name: string, change: { path: string; before: string | undefined; after: string; sensitive?: boolean }, result: (approved: boolean) => ToolResult): Tool {
  return {
    name,
    description: `Changes ${change.path}`,
    parameters: { type: 'object', properties: {} },
    readOnly: false,
    approvesItself: true,
    source: { kind: 'workspace' },
    run: async (_args, context) => result(await context.approval.request({ kind: 'edit', toolName: name, ...change }, context.signal)),
  };
}

async function run(settings: AgentSettings, tools: readonly Tool[], approver: Approver, signal = new AbortController().signal): Promise<AgentEvent[]> {
  const model = createChatModel(settings.functionCallModel, { retry: fastRetry });
  const events: AgentEvent[] = [];
  const stream = runAgent(
    { threadId: 't', runId: randomUUID(), messages: [{ role: 'user', content: 'store things' }] },
    { functionCallModel: model, answerModel: createChatModel(settings.answerModel, { retry: fastRetry }), tools, approval: approver, settings, cache: new SessionCache() },
    signal,
  );
  for await (const event of stream) events.push(event);
  await assertVerified(events);
  return events;
}

describe('approvals in the run', () => {
  it('emits pending then the decision with the same id and tool call; a rejection does not run the tool', async () => {
    const model = await serve([fc({ toolCalls: [store('a', 'call-1')] }), fc({ toolCalls: [store('b', 'call-2')] }), fc({ content: 'done' }), answer('ok')]);
    const tool = new TableTool('store', { a: 'stored a', b: 'stored b' }, false);
    const approver = new ScriptedApprover(['rejected', 'approved']);
    const events = await run(settingsFor(model), [tool], approver);
    const approvals = customValues<ApprovalPayload>(events, 'tandem.approval');
    assert.deepEqual(
      approvals.map((value) => [value.toolCallId, value.status, value.tool]),
      [
        ['call-1', 'pending', 'store'],
        ['call-1', 'rejected', 'store'],
        ['call-2', 'pending', 'store'],
        ['call-2', 'approved', 'store'],
      ],
    );
    assert.equal(approvals[0]?.id, approvals[1]?.id);
    assert.equal(approvals[2]?.id, approvals[3]?.id);
    assert.notEqual(approvals[0]?.id, approvals[2]?.id);
    assert.deepEqual(approvals[0]?.args, { key: 'a' });
    assert.equal(approvals[0]?.alwaysAllowKey, 'store');
    assert.equal(approvals[0]?.alwaysAllowLabel, 'Always allow store');
    assert.equal(approver.prompts[0]?.id, approvals[0]?.id, 'the Approver answers the id the event carries');
    assert.equal(tool.runs, 1);
  });

  it("a rejection's note reaches the model with the call's result, and the decision event carries it", async () => {
    const editTool = editingTool('edit_thing', { path: '/w/a.ts', before: 'a', after: 'b' }, (approved) =>
      approved ? { text: 'changed' } : { text: 'The user rejected this edit; the file is unchanged.', rejected: true },
    );
    const model = await serve([
      fc({ toolCalls: [store('a', 'call-1')] }),
      fc({ toolCalls: [{ id: 'edit-1', name: 'edit_thing', arguments: {} }] }),
      fc({ toolCalls: [store('b', 'call-2')] }),
      fc({ content: 'done' }),
      answer('ok'),
    ]);
    const tool = new TableTool('store', { a: 'stored a', b: 'stored b' }, false);
    const approver = new ScriptedApprover([
      { answer: 'rejected', note: '  use the staging table, not this one  ' },
      { answer: 'rejected', note: 'keep the old name' },
      // A note only goes with a rejection; a blank one is no note.
      { answer: 'approved', note: 'ignored' },
    ]);
    const events = await run(settingsFor(model), [tool, editTool], approver);
    const decided = customValues<ApprovalPayload>(events, 'tandem.approval').filter((value) => value.status !== 'pending');
    assert.deepEqual(
      decided.map((value) => [value.toolCallId, value.status, value.note]),
      [
        ['call-1', 'rejected', 'use the staging table, not this one'],
        ['edit-1', 'rejected', 'keep the old name'],
        ['call-2', 'approved', undefined],
      ],
    );
    const toolMessages = (index: number) => (model.requests[index]?.messages as { role: string; content: string }[]).filter((message) => message.role === 'tool');
    assert.equal(toolMessages(1)[0]?.content, 'The user rejected this call of store; it did not run.\nThe user said why: use the staging table, not this one');
    assert.equal(toolMessages(2)[1]?.content, 'The user rejected this edit; the file is unchanged.\nThe user said why: keep the old name');
    assert.match(toolMessages(3)[2]?.content ?? '', /^stored b/);
    assert.doesNotMatch(toolMessages(3)[2]?.content ?? '', /said why|ignored/, 'an approval passes no note');
    assert.equal(tool.runs, 1);
  });

  it('"Always allow" is remembered and applies to the next call of the same run without asking', async () => {
    const model = await serve([fc({ toolCalls: [store('a', 'c1')] }), fc({ toolCalls: [store('b', 'c2')] }), fc({ content: 'done' }), answer('ok')]);
    const tool = new TableTool('store', { a: 'stored a', b: 'stored b' }, false);
    const approver = new ScriptedApprover(['alwaysAllowed']);
    const events = await run(settingsFor(model), [tool], approver);
    assert.equal(approver.prompts.length, 1);
    assert.deepEqual(approver.remembered, ['store']);
    assert.equal(tool.runs, 2);
    const decided = customValues<ApprovalPayload>(events, 'tandem.approval').filter((value) => value.status !== 'pending');
    assert.deepEqual(decided.map((value) => [value.status, value.alwaysAllowed]), [['approved', true]]);
  });

  it('alwaysAllow from the settings runs unasked; autoApprove stays the default for the rest', async () => {
    const model = await serve([fc({ toolCalls: [store('a', 'c1'), { id: 'c2', name: 'other', arguments: { key: 'x' } }] }), fc({ content: 'done' }), answer('ok')]);
    const tool = new TableTool('store', { a: 'stored a' }, false);
    const other = new TableTool('other', { x: 'other x' }, false);
    const approver = new ScriptedApprover(['approved']);
    await run(settingsFor(model, { alwaysAllow: ['store'] }), [tool, other], approver);
    assert.deepEqual(approver.prompts.map((prompt) => prompt.tool), ['other']);
    assert.equal(tool.runs, 1);
    assert.equal(other.runs, 1);
  });

  it('a sensitive request asks even under autoApprove all and alwaysAllow, and offers no "Always allow"', async () => {
    const sensitiveTool = editingTool('touch_env', { path: '/w/.env', before: undefined, after: 'X=1', sensitive: true }, (approved) => ({ text: approved ? 'written' : 'rejected' }));
    const model = await serve([fc({ toolCalls: [{ id: 'env-1', name: 'touch_env', arguments: {} }] }), fc({ content: 'done' }), answer('ok')]);
    const approver = new ScriptedApprover(['alwaysAllowed']);
    const events = await run(settingsFor(model, { autoApprove: 'all', alwaysAllow: ['touch_env'] }), [sensitiveTool], approver);
    const [pending, decided] = customValues<ApprovalPayload>(events, 'tandem.approval');
    assert.equal(pending?.sensitive, true);
    assert.equal(pending?.toolCallId, 'env-1', 'a tool asking itself gets its call id');
    assert.equal(pending?.alwaysAllowKey, undefined);
    assert.equal(decided?.alwaysAllowed, undefined);
    assert.deepEqual(approver.remembered, [], 'nothing is remembered for a sensitive path');
  });

  it('an approval that waits past maxExecutionSeconds still lands: the clock is paused while it waits', async () => {
    const model = await serve([fc({ toolCalls: [store('a', 'slow-1')] }), fc({ content: 'done' }), answer('stored')]);
    const tool = new TableTool('store', { a: 'stored a' }, false);
    // 2 s of agent time is plenty for the model turns even on a busy machine; the person takes 3.5 s.
    const approver = new ScriptedApprover(['approved'], 3500);
    const started = Date.now();
    const events = await run(settingsFor(model, { maxExecutionSeconds: 2 }), [tool], approver);
    assert.ok(Date.now() - started >= 3500);
    assert.equal(tool.runs, 1, 'the approved call ran');
    const finished = events.find((event) => event.type === 'RUN_FINISHED');
    assert.notEqual((finished?.['result'] as { stopReason?: string }).stopReason, 'timeLimit');
    assert.equal(customValues<ApprovalPayload>(events, 'tandem.approval').at(-1)?.status, 'approved');
    // The call's time is the tool's own, not the 3.5 s its card waited.
    const status = customValues<{ durationMs: number }>(events, 'tandem.toolStatus').at(-1);
    assert.ok(status !== undefined && status.durationMs < 1000, `durationMs ${status?.durationMs}`);
    // So is the phase's: the wait is counted apart, as the user's.
    const usage = customValues<RunUsage>(events, 'tandem.usage').at(-1)!;
    assert.ok(usage.toolPhaseMs < 2500, `toolPhaseMs ${usage.toolPhaseMs}`);
    assert.ok((usage.waitingMs ?? 0) >= 3400 && (usage.waitingMs ?? 0) < 5000, `waitingMs ${usage.waitingMs}`);
  });

  it('the clock: a paused deadline does not fire, and fires after the remaining agent time', async () => {
    // Mocked timers and Date: exact, whatever the machine's load.
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
    try {
      const clock = new AgentClock(() => Date.now());
      let fired = 0;
      clock.deadline(100, () => fired++);
      const resume = clock.pause();
      mock.timers.tick(200);
      assert.equal(fired, 0);
      resume();
      mock.timers.tick(99);
      assert.equal(fired, 0);
      mock.timers.tick(1);
      assert.equal(fired, 1);
    } finally {
      mock.timers.reset();
    }
  });

  it('Stop while an approval waits ends the run and records the request as cancelled', async () => {
    const model = await serve([fc({ toolCalls: [store('a', 'c1')] }), answer('never')]);
    const tool = new TableTool('store', { a: 'stored a' }, false);
    const controller = new AbortController();
    const approver = new ScriptedApprover(['approved'], 10_000);
    setTimeout(() => controller.abort(), 300);
    const events = await run(settingsFor(model), [tool], approver, controller.signal);
    const approvals = customValues<ApprovalPayload>(events, 'tandem.approval');
    assert.deepEqual(approvals.map((value) => [value.status, value.reason]), [['pending', undefined], ['rejected', 'cancelled']]);
    assert.equal(tool.runs, 0);
  });
});
