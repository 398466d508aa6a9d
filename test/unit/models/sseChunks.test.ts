// SseChunkParser must read a body exactly as the openai SDK's own stream does
// (it replaced it for speed): checked against the SDK on the same bodies, cut
// into reads at every position, plus the cases the loop depends on.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import { SseChunkParser } from '../../../src/models/sseChunks';

const encoder = new TextEncoder();

function parse(reads: readonly string[]): { values: unknown[]; error?: unknown } {
  const parser = new SseChunkParser((error) => new OpenAI.APIError(undefined, error as object, undefined, undefined));
  const values: unknown[] = [];
  try {
    for (const read of reads) {
      values.push(...parser.push(encoder.encode(read)));
      parser.check();
    }
    values.push(...parser.end());
    parser.check();
  } catch (error) {
    return { values, error };
  }
  return { values };
}

async function sdkParse(body: string): Promise<{ values: unknown[]; error?: unknown }> {
  const values: unknown[] = [];
  try {
    for await (const value of Stream.fromSSEResponse(new Response(body), new AbortController())) values.push(value);
  } catch (error) {
    return { values, error };
  }
  return { values };
}

const bodies: Record<string, string> = {
  plain: 'data: {"a":1}\n\ndata: {"a":2}\n\ndata: [DONE]\n\n',
  crlf: 'data: {"a":1}\r\n\r\ndata:{"b":"x"}\r\n\r\n',
  cr: 'data: {"a":1}\r\rdata: {"a":2}\r\r',
  multiline: 'data: {"a":\ndata: 1}\n\n',
  comments: ': ping\n\n: ping\ndata: {"a":1}\n\n',
  named: 'event: message\ndata: {"a":1}\n\nevent: other\ndata: {"b":2}\n\n',
  afterDone: 'data: {"a":1}\n\ndata: [DONE]\n\ndata: {"a":2}\n\n',
  unterminated: 'data: {"a":1}\n\ndata: {"a":2}\n',
  unicode: 'data: {"text":"héllo — 世界 🙂"}\n\n',
  malformed: 'data: {"a":1}\n\ndata: {"a":\n\ndata: {"a":3}\n\n',
  errorEvent: 'data: {"a":1}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n',
  fieldWithoutColon: 'data\n\ndata: {"a":1}\n\n',
};

describe('SseChunkParser', () => {
  for (const [name, body] of Object.entries(bodies)) {
    it(`reads "${name}" as the SDK does, however the body is cut into reads`, async () => {
      const expected = await sdkParse(body);
      const bytes = encoder.encode(body);
      const text = (from: number, to: number) => new TextDecoder().decode(bytes.slice(from, to));
      // Cut at every byte boundary (a multi-byte character may be split; the parser decodes by bytes).
      for (let cut = 0; cut <= bytes.length; cut++) {
        const parser = new SseChunkParser((error) => new OpenAI.APIError(undefined, error as object, undefined, undefined));
        const values: unknown[] = [];
        let error: unknown;
        try {
          for (const part of [bytes.slice(0, cut), bytes.slice(cut)]) {
            values.push(...parser.push(part));
            parser.check();
          }
          values.push(...parser.end());
          parser.check();
        } catch (caught) {
          error = caught;
        }
        assert.deepEqual(values, expected.values, `cut at ${cut}: ${JSON.stringify(text(0, cut))}`);
        assert.equal(error === undefined, expected.error === undefined, `cut at ${cut}: error ${String(error)} vs ${String(expected.error)}`);
        if (error) assert.equal((error as Error).constructor, (expected.error as Error).constructor);
      }
      // One read per character.
      assert.deepEqual(parse([...body]).values, expected.values);
    });
  }

  it('an event with no data line is no event, as the SSE standard says (the SDK would fail on its empty data)', () => {
    assert.deepEqual(parse(['data: {"a":1}\n\nevent: other\n\ndata: {"a":2}\n\n']), { values: [{ a: 1 }, { a: 2 }] });
  });

  it('hands out the events before a bad one, then throws its error', () => {
    const { values, error } = parse(['data: {"a":1}\n\ndata: nope\n\ndata: {"a":3}\n\n']);
    assert.deepEqual(values, [{ a: 1 }]);
    assert.ok(error instanceof SyntaxError);
  });

  it('throws a SyntaxError on an event that is JSON but not an object (the SDK would hand it on, and reading it would fail later as if the connection dropped)', () => {
    for (const [data, kind] of [['null', 'null'], ['"text"', 'a string'], ['[1]', 'an array'], ['7', 'a number']]) {
      const { values, error } = parse([`data: {"a":1}\n\ndata: ${data}\n\ndata: {"a":3}\n\n`]);
      assert.deepEqual(values, [{ a: 1 }]);
      assert.ok(error instanceof SyntaxError, data);
      assert.equal((error as Error).message, `an event held ${kind}, not a chunk object`);
    }
  });

  it('turns an event carrying `error` into the SDK APIError', () => {
    const { error } = parse(['data: {"error":{"message":"overloaded"}}\n\n']);
    assert.ok(error instanceof OpenAI.APIError);
    assert.match((error as Error).message, /overloaded/);
  });

  it('keeps a long line that arrives over many reads whole', () => {
    const long = 'x'.repeat(100_000);
    const body = `data: {"text":"${long}"}\n\n`;
    const reads: string[] = [];
    for (let index = 0; index < body.length; index += 1000) reads.push(body.slice(index, index + 1000));
    assert.deepEqual(parse(reads).values, [{ text: long }]);
  });
});
