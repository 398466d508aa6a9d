// How a run ends on odd replies, through the real SDK against the scripted
// server: single-model mode answers without a second request, a cut answer
// offers Continue, a filtered answer says so, and a thinking model that
// wrote only reasoning is asked once for the answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageKindPayload } from '../../../src/protocol/agentEvents';
import { ANSWER_PLEASE } from '../../../src/agent/answerPhase';
import { customValues, messageText, notices, runScripted, scriptedServers, settingsFor, TableTool } from './agentTestSupport';

const serve = scriptedServers();

describe('answer endings', () => {
  it('single-model mode: a reply without a tool call is the answer, streamed, with no second request', async () => {
    const model = await serve([
      { model: 'fc-model', toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }] },
      { model: 'fc-model', content: 'A is **alpha**, per the table.' },
    ]);
    const run = await runScripted(settingsFor(model), { singleModel: true, tools: [new TableTool('lookup', { a: 'A stands for alpha in this table.' })] });
    assert.equal(run.result?.stopReason, 'noToolCall');
    assert.equal(run.result?.answer, 'A is **alpha**, per the table.');
    assert.equal(model.requests.length, 2, 'two requests: the tool call and the reply that is the answer');
    assert.match(model.requests[0]?.messages[0].content, /your reply without a tool call is the final answer/);
    const promoted = customValues<MessageKindPayload>(run.events, 'tandem.messageKind').filter((kind) => kind.kind === 'answer');
    assert.equal(promoted.length, 1, 'the streamed reply was promoted to the answer');
    assert.deepEqual(messageText(run.events, 'answer'), ['A is **alpha**, per the table.']);
  });

  it('two models: the function-call reply is not the answer; the answer model is asked', async () => {
    const model = await serve([{ model: 'fc-model', content: 'No tools needed.' }, { model: 'answer-model', content: 'Hello!' }]);
    const run = await runScripted(settingsFor(model));
    assert.equal(model.requests.length, 2);
    assert.equal(run.result?.answer, 'Hello!');
  });

  it('an answer cut at the token limit gives a notice with a Continue action', async () => {
    const model = await serve([{ model: 'answer-model', content: 'The first half of a long', finishReason: 'length' }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    const notice = notices(run.events).find((entry) => entry.code === 'answerTruncated') as { message: string; action?: { command: string; label: string } } | undefined;
    assert.ok(notice, 'a truncation notice');
    assert.match(notice.message, /cut off at the model's token limit \(max tokens 512\)/);
    assert.deepEqual(notice.action, { label: 'Continue', command: 'tandem.continueAnswer' });
    assert.equal(run.result?.answer, 'The first half of a long');
  });

  it('an answer stopped by the content filter says so', async () => {
    const model = await serve([{ model: 'answer-model', content: 'Partly', finishReason: 'content_filter' }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.ok(notices(run.events).some((entry) => entry.code === 'contentFiltered' && /content filter/.test(entry.message)));
  });

  it('a reply with reasoning and no answer is asked once for the answer', async () => {
    const model = await serve([
      { model: 'answer-model', reasoning: 'The user wants a greeting; I will say hello.' },
      { model: 'answer-model', content: 'Hello there.' },
    ]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, 'Hello there.');
    assert.equal(model.requests.length, 2);
    // It follows the question with no turn between: on the wire the two user messages are one.
    assert.equal(model.requests[1]?.messages.at(-1).content, `${model.requests[0]?.messages.at(-1).content}\n\n${ANSWER_PLEASE}`);
    assert.ok(!notices(run.events).some((entry) => entry.code === 'emptyAnswer'));
  });

  it('an empty reply from both models: each is said, not a run that ends in silence', async () => {
    const model = await serve([
      { model: 'fc-model', content: '' },
      { model: 'answer-model', content: '' },
    ]);
    const run = await runScripted(settingsFor(model));
    assert.equal(run.result?.answer, '');
    const phase = customValues<{ reason: string }>(run.events, 'tandem.phase').find((value) => /empty reply/.test(value.reason));
    assert.match(phase?.reason ?? '', /The function-call model sent an empty reply \(no tool call, no text\)/);
    const empty = notices(run.events).filter((entry) => entry.code === 'emptyAnswer');
    assert.equal(empty.length, 1);
    assert.match(empty[0]?.message ?? '', /The answer model sent an empty reply: no answer to show\. Ask again, or choose another answer model\./);
  });

  it('a reply of blank lines is no answer: the result is empty and the notice says so', async () => {
    const model = await serve([{ model: 'answer-model', content: '\n\n  \n' }]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(run.result?.answer, '');
    assert.equal(notices(run.events).filter((entry) => entry.code === 'emptyAnswer').length, 1);
  });

  it('reasoning only, twice: a notice, not a silent empty answer', async () => {
    const thinkOnly = { model: 'answer-model', reasoning: 'Still thinking about it.' };
    const model = await serve([thinkOnly, thinkOnly]);
    const run = await runScripted(settingsFor(model), { mode: 'chat' });
    assert.equal(model.requests.length, 2);
    assert.ok(notices(run.events).some((entry) => entry.code === 'emptyAnswer' && /only reasoning/.test(entry.message)));
  });
});
