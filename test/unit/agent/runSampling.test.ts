// MCP sampling in the run, with the real everything server (which offers its
// sampling tool only to a client that says it samples) and a test Approver in
// place of the panel's card: the server's request is an approval on the
// call's step, asked even under `autoApprove: all`; approved, the answer
// model writes the reply from the server's messages alone and the run counts
// it; refused, the server hears MCP's "user rejected" and no model is asked;
// "Always allow" for that server lets the next request pass unasked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { runAgent } from '../../../src/agent/runAgent';
import type { ApprovalDecision, ApprovalPrompt, Approver } from '../../../src/agent/runApprovalGate';
import { samplingAllowKey } from '../../../src/agent/runSampling';
import { SessionCache } from '../../../src/agent/sessionCache';
import type { AgentSettings } from '../../../src/agent/agentSettings';
import { McpHub } from '../../../src/mcp/mcpHub';
import { definitionStamp } from '../../../src/mcp/mcpServerTrust';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent, RunUsage } from '../../../src/protocol/agentEvents';
import type { ScriptedModelServer, ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { EVERYTHING_SERVER, stdioServer } from '../mcp/mcpTestSupport';
import { assertVerified, customValues, fastRetry, scriptedServers, settingsFor } from './agentTestSupport';

const serve = scriptedServers();
/** The server as a workspace's file would define it (the test's source is not the user's settings). */
const everything = stdioServer('everything', [EVERYTHING_SERVER, 'stdio']);
/** Its "Always allow" entry names its exact definition. */
const everythingKey = samplingAllowKey(`everything@${definitionStamp(everything as Parameters<typeof definitionStamp>[0])}`);
const SAMPLING_TOOL = 'everything__trigger-sampling-request';
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content, usage: { prompt_tokens: 30, completion_tokens: 7 } });

async function run(model: ScriptedModelServer, hub: McpHub, settings: AgentSettings, decide: (prompt: ApprovalPrompt) => ApprovalDecision): Promise<{ events: AgentEvent[]; asked: ApprovalPrompt[] }> {
  const asked: ApprovalPrompt[] = [];
  const approver: Approver = {
    ask: async (prompt) => {
      asked.push(prompt);
      return decide(prompt);
    },
  };
  const events: AgentEvent[] = [];
  const stream = runAgent(
    { threadId: 't', runId: randomUUID(), messages: [{ role: 'user', content: 'SECRET-CONVERSATION-7781: have the server ask the model' }] },
    {
      functionCallModel: createChatModel(settings.functionCallModel, { retry: fastRetry }),
      answerModel: createChatModel(settings.answerModel, { retry: fastRetry }),
      tools: hub.tools(),
      approval: approver,
      settings,
      cache: new SessionCache(),
    },
    new AbortController().signal,
  );
  for await (const event of stream) events.push(event);
  await assertVerified(events);
  return { events, asked };
}

function result(events: readonly AgentEvent[]): string {
  return String(events.find((event) => event.type === 'TOOL_CALL_RESULT')?.['content'] ?? '');
}

describe('MCP sampling in the run', () => {
  const hub = new McpHub();
  before(async () => {
    await hub.update([everything]);
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
  });
  after(() => hub.dispose());

  it('is offered: the server lists its sampling tool only to a client that samples', () => {
    assert.ok(hub.tools().some((tool) => tool.name === SAMPLING_TOOL), hub.tools().map((tool) => tool.name).join(', '));
  });

  it('asks on the call\'s step even under autoApprove all, then the answer model replies from the server\'s messages alone', async () => {
    const model = await serve([
      fc({ toolCalls: [{ id: 'call-1', name: SAMPLING_TOOL, arguments: { prompt: 'Name a colour.', maxTokens: 20 } }] }),
      answer('Teal.'),
      fc({ content: 'done' }),
      answer('The model said teal.'),
    ]);
    const { events, asked } = await run(model, hub, settingsFor(model, { autoApprove: 'all' }), () => 'approved');
    assert.deepEqual(asked.map((prompt) => prompt.tool), ['everything sampling'], 'the tool ran unasked under "all"; its sampling asked');
    const [prompt] = asked;
    assert.equal(prompt?.toolCallId, 'call-1');
    assert.equal(prompt?.summary, 'MCP server "everything" asks to use your model answer-model (up to 20 tokens): "Resource trigger-sampling-request context: Name a colour."');
    assert.equal(prompt?.alwaysAllowKey, everythingKey);
    assert.deepEqual(prompt?.args, {
      model: 'answer-model',
      maxTokens: 20,
      systemPrompt: 'You are a helpful test server.',
      messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: Name a colour.' }],
    });

    // The model got the server's messages and nothing of the conversation.
    const sampled = model.requests[1]!;
    assert.equal(sampled.model, 'answer-model');
    assert.deepEqual(sampled.messages.map((message: { role: string; content: string }) => [message.role, message.content]), [
      ['system', 'You are a helpful test server.'],
      ['user', 'Resource trigger-sampling-request context: Name a colour.'],
    ]);
    assert.equal(sampled.tools, undefined);
    assert.equal(sampled.body.max_tokens, 20, "the server's token limit goes with the request (the model's own is 512)");
    assert.equal(model.requests[3]!.body.max_tokens, 512, 'the run\'s answer keeps the model\'s own limit');
    assert.ok(!JSON.stringify(sampled.body).includes('SECRET-CONVERSATION-7781'));

    // The server got the reply; the run counted the call.
    assert.match(result(events), /"text": "Teal\."/);
    assert.match(result(events), /"model": "answer-model"/);
    assert.match(result(events), /"stopReason": "endTurn"/);
    const usage = customValues<RunUsage>(events, 'tandem.usage').at(-1)!;
    assert.equal(usage.answer.calls, 2);
    assert.equal(usage.answer.completionTokens, 14);
  });

  it('refused, the server hears that the user rejected it, with the note typed on the card, and no model is asked', async () => {
    const model = await serve([fc({ toolCalls: [{ id: 'call-1', name: SAMPLING_TOOL, arguments: { prompt: 'Name a colour.' } }] }), fc({ content: 'done' }), answer('It was declined.')]);
    const { events, asked } = await run(model, hub, settingsFor(model, { autoApprove: 'all' }), () => ({ answer: 'rejected', note: ' Not with my tokens. ' }));
    assert.equal(asked.length, 1);
    // The server's tool reports what it heard: the refusal, with the note typed on the card.
    assert.match(result(events), /declined the sampling request of MCP server "everything"\. Their note: Not with my tokens\./);
    assert.deepEqual(
      model.requests.map((request) => request.model),
      ['fc-model', 'fc-model', 'answer-model'],
      'no request for the sampling',
    );
  });

  it('an "Always allow" for the server\'s definition lets its requests pass unasked; one for its bare name does not', async () => {
    const model = await serve([fc({ toolCalls: [{ id: 'call-1', name: SAMPLING_TOOL, arguments: { prompt: 'Name a colour.' } }] }), answer('Red.'), fc({ content: 'done' }), answer('Red.')]);
    const { events, asked } = await run(model, hub, settingsFor(model, { autoApprove: 'all', alwaysAllow: [everythingKey] }), () => 'rejected');
    assert.deepEqual(asked, []);
    assert.match(result(events), /"text": "Red\."/);

    // One scripted server a test: the second run's turns join the first's.
    model.push(fc({ toolCalls: [{ id: 'call-2', name: SAMPLING_TOOL, arguments: { prompt: 'Name a colour.' } }] }), fc({ content: 'done' }), answer('No.'));
    const second = await run(model, hub, settingsFor(model, { autoApprove: 'all', alwaysAllow: [samplingAllowKey('everything'), samplingAllowKey('another'), SAMPLING_TOOL] }), () => 'rejected');
    assert.deepEqual(second.asked.map((prompt) => prompt.tool), ['everything sampling']);
  });

  it('outside a run the request is refused', async () => {
    // The hub's tool, called with no run behind it (no sampler in its context).
    const tool = hub.tools().find((candidate) => candidate.name === SAMPLING_TOOL)!;
    const outcome = await tool.run({ prompt: 'Name a colour.' }, { runId: 'r', callId: 'c', signal: new AbortController().signal, approval: { request: async () => true } });
    assert.equal(outcome.isError, true);
    assert.match(outcome.text, /only during a tool call of one of its runs/);
  });
});
