// An MCP server's question during a run, with a test Elicitor in place of the
// panel's card: the real everything server asks through elicitation/create,
// the run emits tandem.elicitation (pending, then the answer with the same id),
// its clock is paused while the person answers, and the schema's defaults
// reach the server for the fields the person left out.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { AgentClock } from '../../../src/agent/agentClock';
import { runAgent } from '../../../src/agent/runAgent';
import type { Elicitor } from '../../../src/agent/runElicitation';
import { SessionCache } from '../../../src/agent/sessionCache';
import { McpHub } from '../../../src/mcp/mcpHub';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent, ElicitationPayload } from '../../../src/protocol/agentEvents';
import type { ElicitationAnswer } from '../../../src/tools/elicitation';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { EVERYTHING_SERVER, stdioServer } from '../mcp/mcpTestSupport';
import { assertVerified, customValues, fastRetry, scriptedServers, settingsFor } from './agentTestSupport';

const serve = scriptedServers();
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });

describe('MCP elicitation in the run', () => {
  const hub = new McpHub();
  after(() => hub.dispose());

  it('asks through tandem.elicitation with the clock paused and sends the answer with the defaults', async () => {
    await hub.update([stdioServer('everything', [EVERYTHING_SERVER, 'stdio'])]);
    assert.equal(hub.statuses()[0]?.state, 'connected', hub.statuses()[0]?.error);
    const model = await serve([
      fc({ toolCalls: [{ id: 'call-1', name: 'everything__trigger-elicitation-request', arguments: {} }] }),
      fc({ content: 'done' }),
      { model: 'answer-model', content: 'ok' },
    ]);
    const settings = settingsFor(model);
    const clock = new AgentClock();
    const shown: ElicitationPayload[] = [];
    const elicitor: Elicitor = {
      ask: async (prompt): Promise<ElicitationAnswer> => {
        shown.push(prompt);
        assert.equal(clock.paused, true, 'the run clock is paused while the person answers');
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };
      },
    };
    const events: AgentEvent[] = [];
    const stream = runAgent(
      { threadId: 't', runId: randomUUID(), messages: [{ role: 'user', content: 'ask me' }] },
      {
        functionCallModel: createChatModel(settings.functionCallModel, { retry: fastRetry }),
        answerModel: createChatModel(settings.answerModel, { retry: fastRetry }),
        tools: hub.tools(),
        approval: { request: async () => true },
        settings,
        cache: new SessionCache(),
        clock,
        elicitor,
      },
      new AbortController().signal,
    );
    for await (const event of stream) events.push(event);
    await assertVerified(events);
    const payloads = customValues<ElicitationPayload>(events, 'tandem.elicitation');
    assert.deepEqual(payloads.map((payload) => [payload.serverName, payload.mode, payload.status]), [
      ['everything', 'form', 'pending'],
      ['everything', 'form', 'accept'],
    ]);
    assert.equal(payloads[0]?.id, payloads[1]?.id);
    assert.ok(payloads[0]?.requestedSchema?.properties['email'], 'the card gets the schema');
    assert.equal(shown.length, 1);
    const result = events.find((event) => event.type === 'TOOL_CALL_RESULT') as { content?: string } | undefined;
    assert.match(result?.content ?? '', /Ada Lovelace/);
    assert.match(result?.content ?? '', /It was a dark and stormy night\./, 'a default the person left out');
  });
});
