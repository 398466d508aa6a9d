// Reads a streamed chat completion's server-sent events in one pass, with
// eventsource-parser doing the SSE framing.
//
// Why not the SDK's Stream: it passes every event through four nested async
// generators and, for each event, copies the rest of the network read
// (`data.slice(patternIndex)`), so a read holding k events costs k² bytes
// copied. A model that streams fast, or a consumer that is briefly busy, makes
// the reads large and that copying dominated the loop's CPU per chunk. Here
// each read is decoded once and its lines are split in one scan.
//
// What the SDK does with the events is kept: `[DONE]` ends the stream and what
// follows it is ignored; every other event is JSON (a parse failure throws its
// SyntaxError) and one carrying `error` throws the SDK's APIError; an event with
// no blank line after it at the end of the body is dropped. Beyond the SDK, an
// event that is JSON but not an object throws a SyntaxError too. The framing is
// the SSE standard's (an event with no data line is no event).
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** Builds the error of an event that carries `error` (the SDK's APIError). */
export type StreamErrorFactory = (error: unknown) => Error;

export class SseChunkParser {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  /** The values completed by the read being fed. */
  private out: unknown[] = [];
  private done = false;
  /** The last text fed ended with \r: the parser holds it back, as it may be the first half of \r\n. */
  private endsWithCr = false;
  /** What a bad event threw; the events before it are still handed out first, as the SDK yields them. */
  private failure: { error: unknown } | undefined;

  constructor(private readonly streamError: StreamErrorFactory) {
    this.parser = createParser({ onEvent: (message) => this.dispatch(message.data) });
  }

  /** Throws what a bad event threw, once the values before it have been consumed. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** The JSON values of the events completed by `bytes`, in order (up to a bad one; then call `check`). */
  push(bytes: Uint8Array): unknown[] {
    return this.feed(this.decoder.decode(bytes, { stream: true }));
  }

  /** The body ended: the decoder's last bytes; an event they do not close is dropped. */
  end(): unknown[] {
    const out = this.feed(this.decoder.decode());
    // A body that ends with a bare \r has ended that line too.
    if (this.endsWithCr) out.push(...this.feed('\n'));
    return out;
  }

  private feed(text: string): unknown[] {
    const out: unknown[] = [];
    if (text === '' || this.done || this.failure) return out;
    this.out = out;
    this.endsWithCr = text.charCodeAt(text.length - 1) === 13;
    this.parser.feed(text);
    return out;
  }

  private dispatch(data: string): void {
    if (this.done || this.failure) return;
    if (data.startsWith('[DONE]')) {
      this.done = true;
      return;
    }
    try {
      const value = JSON.parse(data) as { error?: unknown } | null;
      // A chunk is an object: anything else is as unreadable as bad JSON, not an empty chunk or a lost connection.
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new SyntaxError(`an event held ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a chunk object`);
      if (value.error) throw this.streamError(value.error);
      this.out.push(value);
    } catch (error) {
      this.failure = { error };
    }
  }
}
