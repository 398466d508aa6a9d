import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFromWebview } from '../../../src/protocol/webviewMessages';

describe('messages from the webview', () => {
  it('accepts every known message', () => {
    const valid = [
      { type: 'ready' },
      { type: 'followUp', action: 'remove', id: 'f-1' },
      { type: 'followUp', action: 'edit', id: 'f-1' },
      { type: 'followUp', action: 'sendNext' },
      { type: 'send', text: '  What does main.ts do?  ' },
      { type: 'stop' },
      { type: 'draft', text: 'half a question' },
      { type: 'draft', text: '' },
      { type: 'dropUris', uris: ['file:///work/a.ts', 'vscode-remote://host/work/docs'] },
      { type: 'attachImage', id: '3f1c2a9e-0b7d-4c1e-9a55-1d2e3f4a5b6c', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=', bytes: 8 },
      { type: 'attachImage', id: 'a1', mimeType: 'image/png', data: '', bytes: 12_000_000 },
      { type: 'newChat' },
      { type: 'setMode', mode: 'chat' },
      { type: 'setResponseMode', mode: 'streaming' },
      { type: 'listModels', role: 'answer' },
      { type: 'selectModel', role: 'function-call', model: 'gpt-4o-mini' },
      { type: 'selectModel', role: 'answer', model: '' },
      { type: 'openConversation', id: '0b8e7c1e-1d2b-4a59-9f34-1f1f1f1f1f1f' },
      { type: 'deleteConversation', id: 'abc' },
      { type: 'revertRun', runId: 'run-1' },
      { type: 'retry', runId: 'run-1' },
      { type: 'copy', text: 'const a = 1;' },
      { type: 'command', command: 'tandem.exportTranscript' },
      { type: 'elicitation', id: 'q-1', action: 'accept', content: { name: 'Ada', age: 36, agree: true, tags: ['a', 'b'] } },
      { type: 'elicitation', id: 'q-1', action: 'decline' },
      { type: 'elicitation', id: 'q-1', action: 'cancel' },
      { type: 'checkModels' },
      { type: 'useLocalModel', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' },
      { type: 'useVscodeModel', id: 'copilot-gpt-4o' },
    ];
    for (const message of valid) assert.ok(parseFromWebview(message), JSON.stringify(message));
    assert.deepEqual(parseFromWebview({ type: 'send', text: '  hi  ' }), { type: 'send', text: 'hi' });
  });

  it('rejects unknown types, bad values and commands outside the allowed list', () => {
    const invalid: unknown[] = [
      undefined,
      null,
      'send',
      { type: 'eval', code: '1' },
      { type: 'followUp', action: 'sendAll' },
      { type: 'send' },
      { type: 'send', text: '   ' },
      { type: 'send', text: 42 },
      { type: 'setMode', mode: 'turbo' },
      { type: 'useLocalModel', baseUrl: 'http://127.0.0.1:11434/v1', model: '  ' },
      { type: 'useVscodeModel' },
      { type: 'selectModel', role: 'planner', model: 'x' },
      { type: 'openConversation', id: '' },
      { type: 'retry' },
      { type: 'retry', runId: '' },
      { type: 'command', command: 'workbench.action.terminal.sendSequence' },
      { type: 'send', text: 'x'.repeat(200_001) },
      { type: 'draft' },
      { type: 'dropUris', uris: [] },
      { type: 'dropUris', uris: Array.from({ length: 101 }, (_, index) => `file:///w/${index}`) },
      { type: 'attachImage', id: 'a1', mimeType: 'image/png', data: 'x'.repeat(7_000_000), bytes: 5_000_000 },
      { type: 'attachImage', id: '../x', mimeType: 'image/png', data: '', bytes: 1 },
      { type: 'attachImage', id: 'a1', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'draft', text: 'x'.repeat(200_001) },
      { type: 'elicitation', id: 'q-1', action: 'approve' },
      { type: 'elicitation', id: 'q-1', action: 'accept', content: { nested: { a: 1 } } },
      { type: 'elicitation', id: 'q-1', action: 'accept', content: { n: Number.NaN } },
    ];
    for (const message of invalid) assert.equal(parseFromWebview(message), undefined, JSON.stringify(message));
  });
});
