// Memory, webview part: the panel's DOM node count after a 1,000-step
// conversation, in code-server. The conversation reaches the panel as the
// host sends a stored conversation when it is reopened (one `conversation`
// message): 200 questions, each with two tool calls and an answer; the panel
// shows each call, each result and the answer as a step — 1,000 steps.
// (No JS heap figure: performance.memory there is the renderer's whole
// isolate, workbench included, so it would not be the panel's.)
import type { VsCodeSession } from '../test/e2e/harness';

export interface WebviewMemoryFigures {
  steps: number;
  domNodes: number;
  renderMs: number;
  how: string;
}

export async function measureWebviewMemory(session: VsCodeSession): Promise<WebviewMemoryFigures> {
  const view = await session.webview();
  // A string, so the test runner's transpiler adds no helpers the page lacks.
  const script = String.raw`(async () => {
    const events = [];
    const turns = 200;
    for (let index = 0; index < turns; index++) {
      events.push({ type: 'CUSTOM', name: 'tandem.userMessage', value: { text: 'Question ' + index } });
      events.push({ type: 'RUN_STARTED', threadId: 'memory', runId: 'run' + index });
      for (let call = 0; call < 2; call++) {
        const id = 'c' + index + '_' + call;
        events.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'read_file', metadata: { role: 'function-call', model: 'fc' } });
        events.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"path":"src/file' + call + '.ts"}' });
        events.push({ type: 'TOOL_CALL_END', toolCallId: id });
        events.push({ type: 'TOOL_CALL_RESULT', toolCallId: id, messageId: 'r' + id, content: 'line of the file\n'.repeat(40) });
      }
      events.push({ type: 'TEXT_MESSAGE_START', messageId: 'a' + index, role: 'assistant', metadata: { role: 'answer', model: 'ans', kind: 'answer' } });
      events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a' + index, delta: 'Answer **' + index + '** with a list:\n\n- one\n- two\n\nand a paragraph of text that says what was found.' });
      events.push({ type: 'TEXT_MESSAGE_END', messageId: 'a' + index });
      events.push({ type: 'RUN_FINISHED', threadId: 'memory', runId: 'run' + index, result: { stopReason: 'noToolCall', answer: 'Answer ' + index } });
    }
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    // The host's answer to the panel's \`ready\` replaces whatever the panel shows, so it must come first.
    const hostDeadline = performance.now() + 60000;
    while (!document.body.dataset.conversation && performance.now() < hostDeadline) await frame();
    if (!document.body.dataset.conversation) throw new Error('the host never sent the panel its conversation');
    const started = performance.now();
    window.postMessage({ type: 'conversation', id: 'memory', events, running: false }, '*');
    const deadline = performance.now() + 60000;
    while (document.querySelectorAll('[data-testid="step"]').length < turns * 5 && performance.now() < deadline) await frame();
    const renderMs = performance.now() - started;
    await frame();
    await frame();
    return {
      steps: document.querySelectorAll('[data-testid="step"]').length,
      domNodes: document.getElementsByTagName('*').length,
      renderMs,
    };
  })()`;
  const measured = (await view.evaluate(script)) as { steps: number; domNodes: number; renderMs: number };
  if (measured.steps < 1000) throw new Error(`the panel shows ${measured.steps} steps, not 1,000`);
  return {
    steps: measured.steps,
    domNodes: measured.domNodes,
    renderMs: measured.renderMs,
    how: 'code-server + headless Chromium: a stored 1,000-step conversation (200 questions, 2 tool calls with results and an answer each) sent to the panel as on reopening; every element of the webview document counted',
  };
}
