// Steering: messages the user sends into a run while its tools go reach the
// function-call model before its next step and the answer model after it,
// through the real openai SDK against the scripted server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carriedSteering, type SteerMessage, type Steering } from '../../../src/agent/steering';
import { steeredInto } from '../../../src/protocol/retryTarget';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import type { SteeredPayload } from '../../../src/protocol/agentEvents';
import type { ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { customValues, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();
const fc = (turn: Omit<ScriptedTurn, 'model'>): ScriptedTurn => ({ model: 'fc-model', ...turn });
const answer = (content: string): ScriptedTurn => ({ model: 'answer-model', content });
const call = (key: string) => ({ name: 'lookup', arguments: { key } });

/** A steering inbox the test fills; counts how often the run took from it. */
class Inbox implements Steering {
  waiting: SteerMessage[] = [];
  takes = 0;
  pending(): boolean {
    return this.waiting.length > 0;
  }
  async take(): Promise<readonly SteerMessage[]> {
    this.takes++;
    const taken = this.waiting;
    this.waiting = [];
    return taken;
  }
}

const contents = (request: { messages: any[] } | undefined) => (request?.messages ?? []).map((message) => `${message.role}: ${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`);

describe('steering a run', () => {
  it("takes a message sent while a tool runs into the next step's request, says so, and gives it to the answer model", async () => {
    const model = await serve([
      fc({ toolCalls: [call('france')] }),
      fc({ toolCalls: [call('germany')] }),
      fc({ content: 'Both found.' }),
      answer('Berlin and Paris.'),
    ]);
    const inbox = new Inbox();
    const table = new TableTool('lookup', { france: 'Paris is the capital of France.', germany: 'Berlin is the capital of Germany.' });
    const lookup = Object.assign(Object.create(table) as TableTool, {
      run: async (args: unknown) => {
        // The user sends it while the first call runs.
        if (table.runs === 0) inbox.waiting.push({ id: 'q1', text: 'Also check Germany.', attached: { labels: ['notes.md'], text: 'File notes.md:\nsee Berlin' } });
        return table.run(args);
      },
    });
    const run = await runScripted(settingsFor(model), { tools: [lookup], steering: inbox });

    assert.equal(run.result?.stopReason, 'noToolCall');
    const second = contents(model.requests[1]);
    const steerAt = second.findIndex((line) => line.startsWith('user: The user sent this while you were working'));
    assert.ok(steerAt > 0, `the steer message is in the second request: ${second.join(' | ')}`);
    assert.match(second[steerAt]!, /Also check Germany\.\n\nFile notes\.md:\nsee Berlin/);
    assert.ok(second[steerAt - 1]!.startsWith('tool: Paris'), 'it follows the tool result of the round it arrived in');
    assert.equal(contents(model.requests[0]).some((line) => line.includes('Also check Germany')), false, 'not in the request made before it was sent');
    const steered = customValues<SteeredPayload>(run.events, 'tandem.steered');
    assert.deepEqual(steered.map(({ id, text, attached }) => ({ id, text, labels: attached?.labels })), [{ id: 'q1', text: 'Also check Germany.', labels: ['notes.md'] }]);
    // Between the first round's result and the second step's model call, in the stream.
    const steerIndex = run.events.findIndex((event) => event.type === 'CUSTOM' && event['name'] === 'tandem.steered');
    const firstResult = run.events.findIndex((event) => event.type === 'TOOL_CALL_RESULT');
    const secondCall = run.events.findIndex((event, index) => index > firstResult && event.type === 'TOOL_CALL_START');
assert.ok(firstResult < steerIndex && steerIndex < secondCall);
    // The answer model reads it too, after the question (one user message: consecutive ones are joined on the wire).
    const answerRequest = contents(model.requests.at(-1));
    assert.match(answerRequest.at(-1)!, /^user: What is in the table\?\n\nThe user sent this while you were working[^\n]*\n\nAlso check Germany\./);
    assert.equal(model.requests.at(-1)?.model, 'answer-model');
  });

  it('goes on for one more step when the model is done but a message came meanwhile', async () => {
    const model = await serve([
      fc({ content: 'I think I have it.' }),
      fc({ toolCalls: [call('germany')] }),
      fc({ content: 'Now I have it.' }),
      answer('Berlin.'),
    ]);
    const inbox = new Inbox();
    let checks = 0;
    const late: Steering = {
      // Nothing waits when the first step starts; the message arrives while the model replies.
      pending: () => ++checks > 1 && inbox.pending(),
      take: () => inbox.take(),
    };
    inbox.waiting.push({ id: 'q2', text: 'Look up Germany first.' });
    const run = await runScripted(settingsFor(model), { tools: [new TableTool('lookup', { germany: 'Berlin.' })], steering: late });

    assert.equal(model.requests.length, 4, 'one more function-call step, then the answer');
    const second = contents(model.requests[1]);
    assert.deepEqual(second.slice(-2).map((line) => line.slice(0, 40)), ['assistant: I think I have it.', 'user: The user sent this while you were ']);
    assert.equal(customValues<SteeredPayload>(run.events, 'tandem.steered').length, 1);
    assert.equal(run.result?.answer, 'Berlin.');
  });

  it('leaves the message waiting when no step is left for it (the host sends it after the answer)', async () => {
    const model = await serve([fc({ toolCalls: [call('france')] }), answer('Paris.')]);
    const inbox = new Inbox();
    const table = new TableTool('lookup', { france: 'Paris.' });
    const lookup = Object.assign(Object.create(table) as TableTool, {
      run: async (args: unknown) => {
        inbox.waiting.push({ id: 'q3', text: 'And Germany?' });
        return table.run(args);
      },
    });
    const run = await runScripted(settingsFor(model, { maxIterations: 1 }), { tools: [lookup], steering: inbox });

    assert.equal(run.result?.stopReason, 'maxIterations');
    assert.equal(inbox.takes, 0, 'never taken');
    assert.deepEqual(inbox.waiting.map((message) => message.id), ['q3']);
    assert.equal(customValues(run.events, 'tandem.steered').length, 0);
    assert.equal(model.requests.some((request) => contents(request).some((line) => line.includes('And Germany?'))), false);
  });
});

describe('Retry of a run that was steered', () => {
  it('finds what was sent into the run, in order, and only into that run', () => {
    const steer = (runId: string, text: string, attached?: unknown): AgentEvent => ({ type: 'CUSTOM', name: 'tandem.steered', value: { runId, id: text, text, ...(attached !== undefined && { attached }) } }) as AgentEvent;
    const events = [steer('r1', 'Quote them.'), steer('r2', 'Not this run.'), steer('r1', 'And count.', { labels: ['a.md'], text: 'File a.md' }), steer('r1', '')];
    assert.deepEqual(steeredInto(events, 'r1'), [
      { text: 'Quote them.', attached: undefined },
      { text: 'And count.', attached: { labels: ['a.md'], text: 'File a.md' } },
    ]);
    assert.deepEqual(steeredInto(events, 'r3'), []);
  });

  it('the next try takes them at its first step, before the first model call, then what is sent live', async () => {
    const model = await serve([fc({ toolCalls: [call('france')] }), fc({ content: 'Done.' }), answer('Paris.')]);
    const live = new Inbox();
    const table = new TableTool('lookup', { france: 'Paris is the capital of France.' });
    const lookup = Object.assign(Object.create(table) as TableTool, {
      run: async (args: unknown) => {
        live.waiting.push({ id: 'live', text: 'Be brief.' });
        return table.run(args);
      },
    });
    const steering = carriedSteering([{ id: 'c1', text: 'Quote them.' }, { id: 'c2', text: 'And count.' }], live);
    const run = await runScripted(settingsFor(model), { tools: [lookup], steering });
    assert.equal(run.error, undefined);
    const first = contents(model.requests[0]);
    assert.match(first.at(-1)!, /^user: What is in the table\?\n\nThe user sent this while you were working[^\n]*\n\nQuote them\.\n\nThe user sent this while you were working[^\n]*\n\nAnd count\./);
    assert.ok(contents(model.requests[1]).some((line) => line.includes('Be brief.')), 'the live one follows in its own time');
    assert.deepEqual(customValues<SteeredPayload>(run.events, 'tandem.steered').map((payload) => payload.id), ['c1', 'c2', 'live']);
  });
});
