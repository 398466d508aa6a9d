import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { historyMessages } from '../../../src/protocol/conversationHistory';

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields }) as AgentEvent;

it("gives the models the prompts and final answers as the next run's history, without tool traffic", () => {
  const events = [
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Where is main?', runId: 'r1' } }),
    event('RUN_STARTED', { runId: 'r1', threadId: 't' }),
    event('TOOL_CALL_START', { toolCallId: 'c', toolCallName: 'find_files' }),
    event('TOOL_CALL_RESULT', { toolCallId: 'c', messageId: 'x', content: 'src/main.ts' }),
    event('TEXT_MESSAGE_CONTENT', { messageId: 'a', delta: 'It is in `src/main.ts`.' }),
    event('RUN_FINISHED', { runId: 'r1', threadId: 't', result: { stopReason: 'noToolCall', answer: 'It is in `src/main.ts`.' } }),
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'And tests?', runId: 'r2' } }),
    event('RUN_FINISHED', { runId: 'r2', threadId: 't', result: { stopReason: 'cancelled', answer: '' } }),
    event('CUSTOM', { name: 'tandem.userMessage', value: { text: 'Try again.', runId: 'r3' } }),
    event('RUN_ERROR', { message: 'HTTP 500' }),
  ];
  assert.deepEqual(historyMessages(events), [
    { role: 'user', content: 'Where is main?' },
    { role: 'assistant', content: 'It is in `src/main.ts`.' },
    { role: 'user', content: 'And tests?' },
    { role: 'user', content: 'Try again.' },
  ]);
});
