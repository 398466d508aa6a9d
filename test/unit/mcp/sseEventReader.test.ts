// The watch's SSE reading agrees with the SDK's parser (eventsource-parser)
// on what is an event and what is an id, in any chunking, and stays linear on
// a long line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { SseEventReader } from '../../../src/mcp/responseStreamWatch';

const encoder = new TextEncoder();

function read(chunks: readonly string[]) {
  const reader = new SseEventReader();
  return chunks.flatMap((chunk) => reader.push(encoder.encode(chunk)));
}

async function parserEvents(text: string): Promise<{ id: string | undefined; data: string }[]> {
  const events: { id: string | undefined; data: string }[] = [];
  const stream = new ReadableStream<string>({
    start(controller) {
      controller.enqueue(text);
      controller.close();
    },
  }).pipeThrough(new EventSourceParserStream());
  for await (const event of stream as unknown as AsyncIterable<{ id?: string; data: string }>) events.push({ id: event.id || undefined, data: event.data });
  return events;
}

describe('SseEventReader', () => {
  const text = 'id: p1\ndata: \n\nid: only-id\n\n: comment\nid:\ndata: {"a":1}\n\nid: 7\r\ndata: line one\r\ndata: line two\r\n\r\nretry: 3000\n\nevent: message\rid: 8\rdata: x\r\r\n';

  it('finds the events and ids the SDK does', async () => {
    const ours = read([text]).filter((event) => event.data !== '' || event.id !== undefined);
    const theirs = (await parserEvents(text)).filter((event) => event.data !== '' || event.id !== undefined);
    assert.deepEqual(
      ours.map(({ id, data }) => ({ id, data })),
      theirs,
    );
    assert.deepEqual(
      read([text]).map((event) => event.retryMs),
      [undefined, undefined, undefined, 3000, undefined],
    );
  });

  it('reads the same events in any chunking, \\r\\n split between chunks included', () => {
    const whole = read([text]);
    for (const size of [1, 2, 3, 7]) {
      const chunks: string[] = [];
      for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
      assert.deepEqual(read(chunks), whole, `chunks of ${size}`);
    }
  });

  it('a 16 MB line in 64 KB chunks takes linear time', () => {
    const reader = new SseEventReader();
    const chunk = encoder.encode('x'.repeat(64 * 1024));
    const started = performance.now();
    reader.push(encoder.encode('data: '));
    for (let index = 0; index < 256; index++) reader.push(chunk);
    const events = reader.push(encoder.encode('\n\n'));
    const ms = performance.now() - started;
    assert.equal(events[0]?.data.length, 16 * 1024 * 1024);
    // Quadratic reading took seconds here; linear takes tens of milliseconds.
    assert.ok(ms < 1_500, `${Math.round(ms)} ms`);
  });
});
