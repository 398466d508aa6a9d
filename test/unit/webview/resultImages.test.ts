// An image an MCP tool returns (the real everything server's get-tiny-image,
// through the loop and the scripted model) is shown under its result in the
// panel: a `tandem.toolImages` event right after the result, a thumbnail in
// the result's step (opened for it), at full size on a click. It is live
// only: the panel's saved snapshot does not keep it, and anything but a
// base64 raster image is not shown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installDomGlobals, type DomGlobals } from './domGlobals';
import { McpHub } from '../../../src/mcp/mcpHub';
import { isLiveOnly, type AgentEvent, type ToolImagesPayload } from '../../../src/protocol/agentEvents';
import { PanelState } from '../../../webview/panelState';
import { PANEL_IMAGES_KEPT } from '../../../webview/resultImages';
import type { StepRenderContext } from '../../../webview/stepView';
import { createConversationView, defaultOpen, type ToolResultStep, type UserStep } from '../../../webview/steps';
import { applyEvents } from '../../../webview/viewModel';
import { customValues, runScripted, scriptedServers, settingsFor } from '../agent/agentTestSupport';
import { EVERYTHING_SERVER, stdioServer } from '../mcp/mcpTestSupport';

const serve = scriptedServers();
let dom: DomGlobals;
let hub: McpHub;
/** A real run's events, taken before the DOM's globals are in place (the openai SDK refuses to run in a browser). */
let events: AgentEvent[];
let createStepElement: (typeof import('../../../webview/stepView'))['createStepElement'];
let updateStepElement: (typeof import('../../../webview/stepView'))['updateStepElement'];

before(async () => {
  hub = new McpHub();
  await hub.update([stdioServer('everything', [EVERYTHING_SERVER, 'stdio'])]);
  events = await imageRun();
  dom = installDomGlobals();
  ({ createStepElement, updateStepElement } = await import('../../../webview/stepView'));
});

after(async () => {
  await hub.dispose();
  await dom.restore();
});

const context = { onCopy: () => undefined, userOpen: new Map<string, boolean>() } as unknown as StepRenderContext;

async function imageRun(): Promise<AgentEvent[]> {
  const model = await serve([
    { model: 'fc-model', content: 'I will fetch the image.', toolCalls: [{ id: 'img1', name: 'everything__get-tiny-image', arguments: {} }] },
    { model: 'fc-model', content: 'I have seen it.' },
    { model: 'answer-model', content: 'A small logo.' },
  ]);
  const run = await runScripted(settingsFor(model), { tools: hub.tools(), approve: () => true });
  assert.equal(run.result?.answer, 'A small logo.');
  return run.events;
}

describe('images from tools in the panel', () => {
  it('follow their result as a live-only event and show as a thumbnail that opens at full size', () => {
    const resultIndex = events.findIndex((event) => event.type === 'TOOL_CALL_RESULT');
    const imagesEvent = events[resultIndex + 1]!;
    assert.equal(imagesEvent.type, 'CUSTOM');
    assert.equal(imagesEvent['name'], 'tandem.toolImages');
    assert.ok(isLiveOnly(imagesEvent));
    const [payload] = customValues<ToolImagesPayload>(events, 'tandem.toolImages');
    assert.equal(payload?.toolCallId, events[resultIndex]!['toolCallId']);
    assert.equal(payload?.images.length, 1);
    assert.equal(payload?.images[0]?.mimeType, 'image/png');
    assert.equal(Buffer.from(payload?.images[0]?.data ?? '', 'base64').subarray(1, 4).toString('latin1'), 'PNG');

    const view = applyEvents(createConversationView(), events);
    const result = view.steps.find((step): step is ToolResultStep => step.kind === 'tool-result');
    assert.equal(result?.images?.length, 1);
    assert.match(result?.content ?? '', /\[image: image\/png, \d+ bytes; image 1 of this result\]/, 'the text still describes it');
    assert.equal(defaultOpen(result!), true, 'a result with a picture is open');

    const article = createStepElement(result!, context);
    document.body.append(article);
    const picture = article.querySelector<HTMLImageElement>('[data-testid="result-image"]');
    assert.ok(picture, 'the thumbnail is drawn in the open result');
    assert.equal(picture.getAttribute('src'), `data:image/png;base64,${payload?.images[0]?.data}`);
    assert.equal(picture.alt, 'Image 1 of 1 from everything__get-tiny-image');
    assert.equal(picture.classList.contains('full-size'), false);
    picture.click();
    assert.equal(picture.classList.contains('full-size'), true);
    assert.equal(picture.getAttribute('aria-pressed'), 'true');
    picture.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }) as unknown as Event);
    assert.equal(picture.classList.contains('full-size'), false, 'Enter toggles it back');
    article.remove();
  });

  it('are not kept in the panel\'s saved snapshot', () => {
    let state: any;
    const storage = { getState: () => state, setState: (value: unknown) => (state = JSON.parse(JSON.stringify(value))) };
    const panel = new PanelState(storage, 0);
    panel.onConversation('c1', events, { stream: 's', count: events.length - 1, tail: 0 }, false, false);
    panel.flush();
    const kept = state.snapshot.events as AgentEvent[];
    assert.ok(kept.some((event) => event.type === 'TOOL_CALL_RESULT'), 'the result itself is kept');
    assert.equal(kept.filter((event) => event['name'] === 'tandem.toolImages').length, 0);
    assert.doesNotMatch(JSON.stringify(state), /iVBORw0KGgo/, 'no image data in the saved state');
  });

  it('the panel keeps the latest 12 images; older results say theirs are no longer shown', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const events: AgentEvent[] = [];
    for (let call = 1; call <= PANEL_IMAGES_KEPT + 2; call++) {
      const id = `shot${call}`;
      events.push(
        { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'screenshot' } as AgentEvent,
        { type: 'TOOL_CALL_END', toolCallId: id } as AgentEvent,
        { type: 'TOOL_CALL_RESULT', messageId: `m${call}`, toolCallId: id, content: '[image]', role: 'tool' } as AgentEvent,
        { type: 'CUSTOM', name: 'tandem.toolImages', value: { toolCallId: id, images: [{ mimeType: 'image/png', data: png }] } } as AgentEvent,
      );
    }
    const view = applyEvents(createConversationView(), events);
    const results = view.steps.filter((step): step is ToolResultStep => step.kind === 'tool-result');
    assert.deepEqual(
      results.map((step) => [step.images?.length ?? 0, step.imagesNoLongerShown ?? 0]),
      [[0, 1], [0, 1], ...Array.from({ length: PANEL_IMAGES_KEPT }, () => [1, 0])],
    );
    const dropped = createStepElement(results[0]!, context);
    assert.equal(dropped.querySelector('[data-testid="result-image"]'), null);
    assert.equal(dropped.querySelector('.result-images-note')?.textContent, `Its image is no longer shown: the panel keeps only the latest images (${PANEL_IMAGES_KEPT}, 32 MB at most). The result's text describes it.`);
  });

  it('what stays is the latest run of pictures: an older result that would fit goes once a newer one did not', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const shot = (id: string, count: number): AgentEvent[] => [
      { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'screenshot' } as AgentEvent,
      { type: 'TOOL_CALL_RESULT', messageId: `m-${id}`, toolCallId: id, content: '[images]', role: 'tool' } as AgentEvent,
      { type: 'CUSTOM', name: 'tandem.toolImages', value: { toolCallId: id, images: Array.from({ length: count }, () => ({ mimeType: 'image/png', data: png })) } } as AgentEvent,
    ];
    const view = applyEvents(createConversationView(), [...shot('a', 1), ...shot('b', PANEL_IMAGES_KEPT - 1), ...shot('c', 2)]);
    const results = view.steps.filter((step): step is ToolResultStep => step.kind === 'tool-result');
    assert.deepEqual(
      results.map((step) => [step.images?.length ?? 0, step.imagesNoLongerShown ?? 0]),
      [[0, 1], [0, PANEL_IMAGES_KEPT - 1], [2, 0]],
    );
  });

  it('a redraw of the result keeps its pictures (the same nodes) and their size', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const view = applyEvents(createConversationView(), [
      { type: 'TOOL_CALL_START', toolCallId: 't1', toolCallName: 'shot' },
      { type: 'TOOL_CALL_RESULT', messageId: 'm1', toolCallId: 't1', content: '[image]', role: 'tool' },
      { type: 'CUSTOM', name: 'tandem.toolImages', value: { toolCallId: 't1', images: [{ mimeType: 'image/png', data: png }] } },
    ] as AgentEvent[]);
    const result = view.steps.find((step): step is ToolResultStep => step.kind === 'tool-result')!;
    const article = createStepElement(result, context);
    const first = article.querySelector<HTMLImageElement>('[data-testid="result-image"]')!;
    first.click();
    updateStepElement(article, result, context);
    const again = article.querySelector<HTMLImageElement>('[data-testid="result-image"]');
    assert.equal(again, first, 'not built again');
    assert.equal(again?.classList.contains('full-size'), true);
  });

  it('show only base64 raster images', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const events = [
      { type: 'TOOL_CALL_START', toolCallId: 't1', toolCallName: 'shot' },
      { type: 'TOOL_CALL_END', toolCallId: 't1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'm1', toolCallId: 't1', content: '[image]', role: 'tool' },
      {
        type: 'CUSTOM',
        name: 'tandem.toolImages',
        value: {
          toolCallId: 't1',
          images: [
            { mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' },
            { mimeType: 'image/png', data: 'javascript:alert(1)' },
            { mimeType: 'image/png', data: png },
          ],
        },
      },
      { type: 'CUSTOM', name: 'tandem.toolImages', value: { toolCallId: 'unknown', images: [{ mimeType: 'image/png', data: png }] } },
    ] as AgentEvent[];
    const view = applyEvents(createConversationView(), events);
    const results = view.steps.filter((step): step is ToolResultStep => step.kind === 'tool-result');
    assert.equal(results.length, 1);
    assert.deepEqual(results[0]?.images, [{ mimeType: 'image/png', data: png }]);
  });
});

describe('images pasted with a question, in the panel', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAC0lEQVR4nGNgwAIAABUAAapll8QAAAAASUVORK5CYII=';
  const question = (runId: string, count: number): AgentEvent[] => [
    { type: 'CUSTOM', name: 'tandem.userMessage', value: { text: `Look ${runId}`, runId, attached: { labels: ['Pasted image 1 (PNG)'], text: '[Image …]' } } } as AgentEvent,
    { type: 'CUSTOM', name: 'tandem.userImages', value: { runId, images: Array.from({ length: count }, () => ({ mimeType: 'image/png', data: png })) } } as AgentEvent,
  ];

  it('show under the question they went with, are live only, and count in the panel\'s budget with tools\' images', () => {
    const events = [...question('r1', 4), ...question('r2', 4), ...question('r3', 4), ...question('r4', 2)];
    assert.ok(events.filter((event) => event['name'] === 'tandem.userImages').every(isLiveOnly), 'never stored');
    const view = applyEvents(createConversationView(), events);
    const questions = view.steps.filter((step): step is UserStep => step.kind === 'user');
    assert.deepEqual(
      questions.map((step) => [step.images?.length ?? 0, step.imagesNoLongerShown ?? 0]),
      [[0, 4], [4, 0], [4, 0], [2, 0]],
      `the latest ${PANEL_IMAGES_KEPT} stay`,
    );
    const shown = createStepElement(questions[3]!, context);
    assert.match(shown.querySelector('.user-text')?.textContent ?? '', /Look r4/);
    const pictures = [...shown.querySelectorAll<HTMLImageElement>('[data-testid="result-image"]')];
    assert.deepEqual(pictures.map((picture) => picture.alt), ['Image 1 of 2 you sent', 'Image 2 of 2 you sent']);
    assert.equal(pictures[0]?.src, `data:image/png;base64,${png}`);
    const dropped = createStepElement(questions[0]!, context);
    assert.match(dropped.querySelector('.result-images-note')?.textContent ?? '', /^Its 4 images are no longer shown: .* The question's text describes them\.$/);
  });
});
