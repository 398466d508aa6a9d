import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { transcriptFileName, transcriptMarkdown } from '../../../webview/transcript';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

const conversation: AgentEvent[] = [
  event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Where is main?' } }),
  event('RUN_STARTED', { runId: 'r1', threadId: 't' }),
  event('TOOL_CALL_START', { toolCallId: 'c', toolCallName: 'find_files', metadata: { role: 'function-call', model: 'small' } }),
  event('TOOL_CALL_ARGS', { toolCallId: 'c', delta: '{"glob":"**/main.ts"}' }),
  event('TOOL_CALL_RESULT', { toolCallId: 'c', messageId: 'x', content: 'src/main.ts ```x```' }),
  event('CUSTOM', { name: 'tandem.messageKind', value: { messageId: 'a', kind: 'answer', role: 'answer', model: 'big' } }),
  event('TEXT_MESSAGE_START', { messageId: 'a', metadata: { role: 'answer', model: 'big' } }),
  event('TEXT_MESSAGE_CONTENT', { messageId: 'a', delta: 'It is in `src/main.ts`.' }),
  event('TEXT_MESSAGE_END', { messageId: 'a' }),
  event('CUSTOM', {
    name: 'tandem.usage',
    value: {
      runId: 'r1',
      functionCall: { role: 'function-call', model: 'small', calls: 2, promptTokens: 1200, completionTokens: 40, cachedTokens: undefined, estimated: false, costUsd: 0.0012, costIsDefaultPrice: false },
      answer: { role: 'answer', model: 'big', calls: 1, promptTokens: 300, completionTokens: 20, cachedTokens: undefined, estimated: false, costUsd: 0.003, costIsDefaultPrice: false },
      toolPhaseMs: 900,
      answerPhaseMs: 400,
      totalCostUsd: 0.0042,
    },
  }),
  event('RUN_FINISHED', { runId: 'r1', threadId: 't' }),
];

describe('transcript', () => {
  it("names its file from the title's words, with no dots to make an odd extension", () => {
    assert.equal(transcriptFileName('Audit this repo: check the files, make express.js…'), 'Audit-this-repo-check-the-files-make-express-js');
    assert.equal(transcriptFileName('Résumé des données ?'), 'Résumé-des-données');
    assert.equal(transcriptFileName('…'), 'tandem-conversation');
    assert.equal(transcriptFileName(''), 'tandem-conversation');
    assert.ok(transcriptFileName('word '.repeat(40)).length <= 60);
    assert.doesNotMatch(transcriptFileName('word '.repeat(40)), /-$/);
  });

  it('writes the prompt, the tool call with pretty arguments, the result and the answer as Markdown', () => {
    const markdown = transcriptMarkdown('Where is main?', conversation);
    assert.match(markdown, /^# Where is main\?/);
    assert.match(markdown, /## You\n\nWhere is main\?/);
    assert.match(markdown, /\*\*Tool call `find_files` \(small\)\*\* — done\n\n```json\n\{\n {2}"glob": "\*\*\/main\.ts"\n\}\n```/);
    assert.match(markdown, /````\nsrc\/main\.ts ```x```\n````/, 'a longer fence around a result containing backticks');
    assert.match(markdown, /## Answer \(big\)\n\nIt is in `src\/main\.ts`\./);
    assert.match(markdown, /\n## Usage\n\n1 run; 3 model calls; 1500 tokens in, 60 out; time in the phases 1\.3 s; estimated cost ≈ \$0\.0042\.\n$/, 'what it cost, at the end');
    assert.doesNotMatch(transcriptMarkdown('No runs', conversation.slice(0, 1)), /## Usage/, 'nothing to count: no usage section');
    const dated = transcriptMarkdown('Where is main?', conversation, { createdAt: Date.UTC(2026, 10, 27, 18, 28, 41), updatedAt: Date.UTC(2026, 10, 28, 9, 5) });
    assert.match(dated, /^# Where is main\?\n\nStarted 2026-11-27 18:28 UTC; last used 2026-11-28 09:05 UTC\.\n\n## You/);
  });

  it('marks with ~ only the count that was estimated', () => {
    const estimatedOutput = conversation.map((entry) => {
      const value = (entry as { value?: Record<string, unknown> }).value;
      if ((entry as { name?: string }).name !== 'tandem.usage' || !value) return entry;
      const answer = { ...(value['answer'] as object), estimated: true, estimatedCalls: { prompt: 0, completion: 1 } };
      return { ...entry, value: { ...value, answer } } as AgentEvent;
    });
    assert.match(transcriptMarkdown('Where is main?', estimatedOutput), /; 1500 tokens in, ~60 out;/);
  });
});
