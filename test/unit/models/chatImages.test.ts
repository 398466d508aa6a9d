// Images in requests: their token cost, their wire shape, and what a model
// that takes no images is sent instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { imageSize, imageTokens, imageTokensBound, IMAGES_NOT_SENT, inspectImage, withoutImageData } from '../../../src/models/chatImages';
import type { ChatMessage } from '../../../src/models/chatModel';
import { toLanguageModelMessages } from '../../../src/models/languageModelMessages';
import { toOpenAiMessages } from '../../../src/models/openAiMessages';
import { estimateUsage } from '../../../src/models/usageEstimate';
import { dropOlderImages, keptImages } from '../../../src/agent/toolImages';
import type { ModelFailure } from '../../../src/models/modelFailure';
import { fallbackFor, rememberedFallbacks, rememberFallback } from '../../../src/models/requestFallbacks';
import { RequestTokenCounter } from '../../../src/models/tokenCounter';

/** The first bytes of a PNG of this size (enough for its header); the rest does not matter to the count. */
function pngHeader(width: number, height: number): string {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

describe('image tokens', () => {
  it("follows OpenAI's published rule for full detail", () => {
    // 1024×1024 → 768×768: 4 tiles. 2048×4096 → 1024×2048 → 768×1536: 6 tiles. 20×20: 1 tile.
    assert.equal(imageTokens(pngHeader(1024, 1024)), 85 + 170 * 4);
    assert.equal(imageTokens(pngHeader(2048, 4096)), 85 + 170 * 6);
    assert.equal(imageTokens(pngHeader(20, 20)), 85 + 170);
    assert.deepEqual(imageSize(pngHeader(1920, 1080)), { width: 1920, height: 1080 });
    // A GIF's size is in its header too.
    const gif = Buffer.from('GIF89a\x40\x01\xf0\x00', 'latin1').toString('base64');
    assert.deepEqual(imageSize(gif), { width: 320, height: 240 });
    // A JPEG's size is not read: counted as a 1024×768 picture.
    assert.equal(imageTokens('/9j/4AAQSkZJRgABAQ'), 765);
  });

  it('bounds a screenshot by a token per 28×28 pixels where that is more', () => {
    assert.equal(imageTokensBound(pngHeader(1920, 1080)), Math.ceil((1920 * 1080) / 784) + 2);
    assert.equal(imageTokensBound(pngHeader(20, 20)), 85 + 170);
    assert.equal(imageTokensBound('/9j/4AAQ'), 4096);
  });

  it('an estimate from the request as sent counts an image by its size, not its data URL', () => {
    const data = pngHeader(512, 512) + 'A'.repeat(400_000);
    const wire = toOpenAiMessages([{ role: 'user', content: 'Look.', images: [{ mimeType: 'image/png', data }] }]);
    const usage = estimateUsage({ messages: wire }, '');
    assert.ok(usage.promptTokens! < 400, `prompt tokens ${usage.promptTokens}`);
    assert.ok(usage.promptTokens! >= 85 + 170, 'the image is counted');
    assert.equal(withoutImageData(wire).imageTokens, 85 + 170);
  });
});

describe('images on the wire', () => {
  const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };

  it('a user message with images becomes text and image_url parts; two user messages in a row keep both images', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Rules.' },
      { role: 'user', content: 'Question.' },
      { role: 'user', content: 'Attached.', images: [image, { ...image, mimeType: 'image/jpeg' }] },
    ];
    assert.deepEqual(toOpenAiMessages(messages), [
      { role: 'system', content: 'Rules.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Question.\n\nAttached.' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,iVBORw0KGgo=' } },
        ],
      },
    ]);
    assert.deepEqual(toOpenAiMessages([{ role: 'user', content: 'Plain.' }]), [{ role: 'user', content: 'Plain.' }]);
  });

  it("VS Code's models get the text, saying the images were not sent", () => {
    const parts = toLanguageModelMessages([{ role: 'user', content: 'Attached.', images: [image] }])[0]?.parts;
    assert.deepEqual(parts, [{ kind: 'text', text: `Attached.\n(${IMAGES_NOT_SENT})` }]);
  });

  it('only the latest images stay attached, within a count and a byte limit; a message that lost some says so once', () => {
    const one = (name: string): ChatMessage => ({ role: 'user', content: name, images: [image, image] });
    const messages: ChatMessage[] = [one('first'), { role: 'tool', toolCallId: 'c', content: 'x' }, one('second'), one('third')];
    dropOlderImages(messages, 3);
    const kept = messages.map((message) => (message.role === 'user' ? (message.images?.length ?? 0) : -1));
    assert.deepEqual(kept, [0, -1, 1, 2]);
    const note = '(Earlier images here are no longer attached, to keep the request small; the results still describe them.)';
    assert.equal(messages[0]?.content, `first\n${note}`);
    assert.equal(messages[2]?.content, `second\n${note}`);
    assert.equal(messages[3]?.content, 'third');
    dropOlderImages(messages, 1);
    assert.equal(messages[2]?.content, `second\n${note}`, 'said once, however often images are dropped');
    assert.equal(messages[3]?.content, `third\n${note}`);
    // Bytes: three images of 4 bytes each, 10 bytes allowed: the latest two.
    const four = { mimeType: 'image/png', data: 'AAAAAA==' };
    const counts = (maxBytes: number) => keptImages([{ images: [four] }, { images: [four, four] }], 6, maxBytes).map((images) => images.length);
    assert.deepEqual(counts(10), [0, 2]);
    assert.deepEqual(counts(12), [1, 2]);
  });
});

describe('a model that refuses images', () => {
  const shape = { hasStreamOptions: true, hasTools: true, hasLongToolDescription: false, hasMaxTokens: false, hasTemperature: false, hasImages: true };
  const failure = (status: number, message: string): ModelFailure => ({ kind: 'http', status, retryable: status >= 500, retryAfterMs: undefined, reason: `HTTP ${status}`, cause: { message } });

  it("is recognised by each server's wording, only when the request held images", () => {
    for (const [status, message] of [
      [400, 'Invalid content type. image_url is only supported by certain models.'], // OpenAI
      [422, 'Failed to deserialize the JSON body into the target type: messages[3]: unknown variant `image_url`, expected `text`'], // DeepSeek
      [400, 'Qwen/Qwen2.5-7B-Instruct is not a multimodal model'], // vLLM
      [500, 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj'], // llama.cpp
    ] as const) {
      assert.equal(fallbackFor(failure(status, message), shape), 'noImages', message);
      assert.equal(fallbackFor(failure(status, message), { ...shape, hasImages: false }), undefined, message);
    }
    assert.equal(fallbackFor(failure(400, 'Invalid request: temperature out of range'), shape), undefined);
    // A gateway's body limit, with images attached: this request without them, not remembered.
    assert.equal(fallbackFor(failure(413, 'Request Entity Too Large'), shape), 'imagesTooLarge');
    assert.equal(fallbackFor(failure(413, 'Request Entity Too Large'), { ...shape, hasImages: false }), undefined);
    rememberFallback('http://127.0.0.1:9/v1', 'behind-a-proxy', 'imagesTooLarge');
    assert.equal(rememberedFallbacks('http://127.0.0.1:9/v1', 'behind-a-proxy').size, 0);
  });

  it("is not charged for images in the context budget once it refused them, nor is VS Code's model", async () => {
    const data = pngHeader(1024, 1024);
    const request = { messages: [{ role: 'user' as const, content: 'Look.', images: [{ mimeType: 'image/png', data }] }] };
    const text = { messages: [{ role: 'user' as const, content: 'Look.' }] };
    const settings = { baseUrl: 'http://127.0.0.1:9/v1', model: 'text-only-model' };
    const counter = new RequestTokenCounter(settings);
    const withImage = (await counter.count(request)).tokens;
    const plain = (await counter.count(text)).tokens;
    assert.equal(withImage - plain, imageTokens(data));
    assert.ok(counter.upperBound(request) - counter.upperBound(text) >= imageTokens(data));
    rememberFallback(settings.baseUrl, settings.model, 'noImages');
    assert.equal((await counter.count(request)).tokens, plain, 'the same message, counted again once the model refused images');
    assert.equal(counter.upperBound(request), counter.upperBound(text));
    const vscodeModel = new RequestTokenCounter({ provider: 'vscode', baseUrl: '', model: 'copilot-gpt' });
    assert.equal((await vscodeModel.count(request)).tokens, (await vscodeModel.count(text)).tokens);
  });
});

describe('an image handed over by a person or a client', () => {
  const b64 = (bytes: number[], tail = 16) => Buffer.from([...bytes, ...new Array<number>(tail).fill(0)]).toString('base64');
  it('is typed by its first bytes, whatever it was called', () => {
    const jpeg = inspectImage(b64([0xff, 0xd8, 0xff, 0xe0]));
    assert.ok('image' in jpeg && jpeg.image.mimeType === 'image/jpeg' && jpeg.description.startsWith('JPEG image, '));
    const gif = inspectImage(Buffer.concat([Buffer.from('GIF89a'), Buffer.from([4, 0, 3, 0]), Buffer.alloc(8)]).toString('base64'));
    assert.ok('image' in gif);
    assert.equal(gif.description, 'GIF image, 18 bytes, 4×3');
    const webp = inspectImage(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]).toString('base64'));
    assert.ok('image' in webp && webp.image.mimeType === 'image/webp');
  });

  it('says why it cannot go: not a raster image, or too big', () => {
    assert.deepEqual(inspectImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')), { reason: 'not a PNG, JPEG, GIF or WebP image' });
    const huge = Buffer.alloc(5 * 1024 * 1024 + 1);
    huge.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.deepEqual(inspectImage(huge.toString('base64')), { reason: 'over 5 MB' });
  });
});
