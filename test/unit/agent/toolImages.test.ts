// An image an MCP tool returns (the real everything server's get-tiny-image)
// reaches the model that asked for it and the answer model, as image parts
// after the results; a model that refuses images is asked again with their
// descriptions only, and is not sent images again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { IMAGES_NOT_SENT } from '../../../src/models/chatImages';
import type { ChatMessage } from '../../../src/models/chatModel';
import type { Finding } from '../../../src/agent/prompts';
import { dropOlderImages, IMAGES_KEPT, keptImages } from '../../../src/agent/toolImages';
import { EVERYTHING_SERVER, stdioServer } from '../mcp/mcpTestSupport';
import { customValues, runScripted, scriptedServers, settingsFor, toolStatuses } from './agentTestSupport';

const serve = scriptedServers();
let hub: McpHub;

before(async () => {
  hub = new McpHub();
  await hub.update([stdioServer('everything', [EVERYTHING_SERVER, 'stdio'])]);
});

after(async () => {
  await hub.dispose();
});

/** The image parts of a logged request's messages. */
function imageUrls(messages: readonly any[]): string[] {
  return messages.flatMap((message) => (Array.isArray(message.content) ? message.content.filter((part: any) => part.type === 'image_url').map((part: any) => part.image_url.url) : []));
}

const askForImage = { model: 'fc-model', content: 'I will fetch the image.', toolCalls: [{ name: 'everything__get-tiny-image', arguments: {} }] };

describe('images from tools', () => {
  it('go to the model after the result that returned them, and to the answer model', async () => {
    const model = await serve([askForImage, { model: 'fc-model', content: 'I have seen it.' }, { model: 'answer-model', content: 'A small logo.' }]);
    const run = await runScripted(settingsFor(model), { tools: hub.tools(), approve: () => true });
    assert.equal(run.result?.answer, 'A small logo.');
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['done']);

    const second = model.requests[1]!.messages;
    const toolIndex = second.findIndex((message: any) => message.role === 'tool');
    assert.match(second[toolIndex].content, /Here's the image you requested:\n\[image: image\/png, \d+ bytes; image 1 of this result\]/);
    const carrier = second[toolIndex + 1];
    assert.equal(carrier.role, 'user', 'a user message right after the results carries the image');
    assert.deepEqual(carrier.content[0], { type: 'text', text: 'The images the tool calls returned are attached, in order: everything__get-tiny-image (1 image).' });
    const [url] = imageUrls(second);
    assert.match(url ?? '', /^data:image\/png;base64,iVBORw0KGgo/);
    assert.ok((url?.length ?? 0) > 1000, 'the whole image');

    const answerRequest = model.requests.at(-1)!;
    assert.equal(answerRequest.model, 'answer-model');
    assert.deepEqual(imageUrls(answerRequest.messages), [url], 'the answer model sees the image too');
    assert.equal(imageUrls(model.requests[0]!.messages).length, 0);
  });

  it('the results kept for the rest of the run hold no images; only the attached ones are held', async () => {
    const model = await serve([askForImage, { ...askForImage, content: 'Again.' }, { model: 'fc-model', content: 'Seen twice.' }, { model: 'answer-model', content: 'Two logos.' }]);
    const evaluated: unknown[] = [];
    const run = await runScripted(settingsFor(model), {
      tools: hub.tools(),
      approve: () => true,
      evaluator: (round) => {
        evaluated.push(...round.map((entry) => entry.result.images));
        return { verdict: 'continue' };
      },
    });
    assert.equal(run.result?.answer, 'Two logos.');
    assert.deepEqual(evaluated, [undefined, undefined], 'the evaluator reads text; the images are not kept with the results');
    assert.equal(imageUrls(model.requests.at(-1)!.messages).length, 2, 'both images still reach the answer model');
  });

  it('a model that refuses images is asked again with their descriptions, and is sent none again', async () => {
    const refusal = (model: string) => ({
      model,
      fault: {
        kind: 'status' as const,
        status: 400,
        body: JSON.stringify({ error: { message: 'Invalid content type. image_url is only supported by certain models.', type: 'invalid_request_error', param: 'messages.[3].content.[1].type', code: null } }),
      },
    });
    const model = await serve([
      askForImage,
      refusal('fc-model'),
      { ...askForImage, content: 'Once more.' },
      { model: 'fc-model', content: 'Enough.' },
      refusal('answer-model'),
      { model: 'answer-model', content: 'It returned a logo I could not look at.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: hub.tools(), approve: () => true });
    assert.equal(run.result?.answer, 'It returned a logo I could not look at.');
    const sent = model.requests.map((request) => [request.model, imageUrls(request.messages).length]);
    assert.deepEqual(sent, [
      ['fc-model', 0],
      ['fc-model', 1], // refused
      ['fc-model', 0], // asked again without it
      ['fc-model', 0], // remembered: the second image is not sent either
      ['answer-model', 2], // another model: sent, refused
      ['answer-model', 0],
    ]);
    const retried = model.requests[2]!.messages.find((message: any) => message.role === 'user' && String(message.content).includes(IMAGES_NOT_SENT));
    assert.ok(retried, 'the retried request says the images were not sent');
    assert.ok(String(retried.content).startsWith('The images the tool calls returned are attached'), String(retried.content));
    const reasons = customValues<{ reason: string }>(run.events, 'tandem.retry').map((retry) => retry.reason);
    assert.deepEqual(reasons, ['the model does not take images; asking again with their descriptions only', 'the model does not take images; asking again with their descriptions only']);
  });

  it("a 413 (a gateway's body limit) sends that one request without its images, and the next ones with them", async () => {
    const model = await serve([
      askForImage,
      { model: 'fc-model', fault: { kind: 'status', status: 413, body: '<html><body>413 Request Entity Too Large</body></html>' } },
      { ...askForImage, content: 'Once more.' },
      { model: 'fc-model', content: 'Enough.' },
      { model: 'answer-model', content: 'Two logos.' },
    ]);
    const run = await runScripted(settingsFor(model), { tools: hub.tools(), approve: () => true });
    assert.equal(run.result?.answer, 'Two logos.');
    assert.deepEqual(
      model.requests.map((request) => imageUrls(request.messages).length),
      [0, 1, 0, 2, 2],
    );
    assert.match(customValues<{ reason: string }>(run.events, 'tandem.retry')[0]?.reason ?? '', /refused a request this large \(HTTP 413\)/);
  });
});

describe('the keep rule', () => {
  // 3 bytes each: 'AAAA' is three zero bytes in base64.
  const image = (name: string) => ({ mimeType: 'image/png', data: 'AAAA', name });
  const batch = (name: string, count: number) => Array.from({ length: count }, (_, index) => image(`${name}${index}`));

  it('keeps the latest images, each holder from its first, and nothing older than the first that does not fit', () => {
    const holders = [{ images: batch('a', 1) }, {}, { images: batch('b', 3) }, { images: batch('c', 4) }];
    const names = (kept: ReturnType<typeof keptImages>) => kept.map((images) => images.map((entry) => (entry as { name?: string }).name));
    assert.deepEqual(names(keptImages(holders)), [[], [], ['b0', 'b1'], ['c0', 'c1', 'c2', 'c3']], `the latest ${IMAGES_KEPT}`);
    // 9 bytes: three images; the fourth (c3) does not fit, and ends the keeping.
    assert.deepEqual(names(keptImages(holders, 6, 9)), [[], [], [], ['c0', 'c1', 'c2']]);
  });

  it("is the same rule for a run's findings and a request's messages", () => {
    const rounds = [batch('a', 2), batch('b', 3), batch('c', 3)];
    const findings: Finding[] = rounds.map((images) => ({ toolName: 'shot', arguments: '{}', text: 'a screenshot', isError: false, images }));
    const messages: ChatMessage[] = rounds.flatMap((images): ChatMessage[] => [
      { role: 'tool', toolCallId: 'c', content: 'a screenshot' },
      { role: 'user', content: 'The images are attached.', images },
    ]);
    dropOlderImages(messages);
    const fromMessages = messages.flatMap((message) => (message.role === 'user' ? [message.images ?? []] : []));
    assert.deepEqual(fromMessages, keptImages(findings));
    assert.deepEqual(
      fromMessages.map((images) => images.length),
      [0, 3, 3],
    );
  });
});
