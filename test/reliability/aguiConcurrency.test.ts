// 100 concurrent agent-mode runs on the AG-UI endpoint (src/agui, as `npm run
// agui` serves it), reading a workspace file through a tool, while the
// model server throws 429s and resets at whichever runs they happen to hit.
// Every run ends within the limit with its own answer and a valid stream,
// the workspace is unchanged, and the endpoint still serves the next run.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ScriptedTurn } from '../fixtures/scriptedModelServer';
import { collect, startEndpoint } from '../unit/agui/agUiTestSupport';
import { snapshot } from './reliabilitySupport';

const RUNS = 100;

it(`${RUNS} concurrent runs with tool calls and model faults all end with their own answer`, { timeout: 90_000 }, async () => {
  const toolTurns: ScriptedTurn[] = [];
  for (let index = 0; index < RUNS; index++) {
    // Every tenth request meets a 429 (Retry-After: 1), every tenth a reset mid-stream.
    if (index % 10 === 3) toolTurns.push({ model: 'fc-model', fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } });
    if (index % 10 === 7) toolTurns.push({ model: 'fc-model', content: 'Reading the notes now, one moment', fault: { kind: 'drop', afterChunks: 2 } });
    toolTurns.push({ model: 'fc-model', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] });
  }
  const turns: ScriptedTurn[] = [
    ...toolTurns,
    ...Array.from({ length: RUNS + 1 }, (): ScriptedTurn => ({ model: 'fc-model', content: 'I have the notes.' })),
    ...Array.from({ length: RUNS + 1 }, (): ScriptedTurn => ({ model: 'answer-model', content: 'Answer to {{lastUser}}' })),
  ];
  const endpoint = await startEndpoint({ turns, settings: { maxIterations: 6 } });
  const files = snapshot(endpoint.kit.root);

  const started = Date.now();
  const runs = Array.from({ length: RUNS }, async (_, index) => {
    const agent = endpoint.agent({ threadId: `thread-${index}`, messages: [{ id: `u${index}`, role: 'user', content: `question ${index}` }] });
    const { events, result } = await collect(agent, { runId: `run-${index}` });
    assert.equal(events.at(-1)?.type, 'RUN_FINISHED', `run ${index} ended with ${events.at(-1)?.type}`);
    return (result as { answer: string }).answer;
  });
  const answers = await Promise.all(runs);
  answers.forEach((answer, index) => assert.equal(answer, `Answer to question ${index}`));
  assert.ok(Date.now() - started < 80_000, `all runs ended in ${Date.now() - started} ms`);

  const statuses = endpoint.model.requests.map((request) => request.outcome);
  assert.ok(statuses.filter((outcome) => outcome === 'fault').length >= 20, 'the faults were served');
  const toolReads = endpoint.model.requests.filter((request) => request.messages.some((message: { role: string; content?: unknown }) => message.role === 'tool' && /release is on Tuesday/.test(String(message.content))));
  // Turns go to whichever request comes next, so a run may meet two tool turns and another none; all of them are used.
  assert.ok(toolReads.length >= RUNS / 2, `the tool results reached the model (${toolReads.length} requests carried one)`);
  assert.deepEqual(snapshot(endpoint.kit.root), files, 'no file changed');

  // The endpoint is still healthy: one more run on a thread that already ran.
  const agent = endpoint.agent({ threadId: 'thread-0', messages: [{ id: 'u-again', role: 'user', content: 'question again' }] });
  const again = await collect(agent, { runId: 'run-again' });
  assert.equal((again.result as { answer: string }).answer, 'Answer to question again');
});
