// Reads a streamed chat completion's server-sent events in one pass.
//
// Why not the SDK's Stream: it passes every event through four nested async
// generators and, for each event, copies the rest of the network read
// (`data.slice(patternIndex)`), so a read holding k events costs k² bytes
// copied. A model that streams fast, or a consumer that is briefly busy, makes
// the reads large and that copying dominates the loop's CPU. This parser
// decodes each read once, splits its lines in one scan and returns every
// complete event of the read together.
//
// It keeps the SDK's semantics (core/streaming.mjs): lines end at \n, \r or
// \r\n; `:` lines are comments; `data:` lines join with \n; a blank line ends
// an event that has data or an event name; `[DONE]` ends the stream and what
// follows it is ignored; every other event is JSON (a parse failure throws
// its SyntaxError) and one carrying `error` throws the SDK's APIError; an
// event with no blank line after it at the end of the body is dropped.

/** Builds the error of an event that carries `error` (the SDK's APIError). */
export type StreamErrorFactory = (error: unknown) => Error;

export class SseChunkParser {
  private readonly decoder = new TextDecoder();
  /** The unfinished line, in pieces (joined only once a line break arrives). */
  private partial: string[] = [];
  private partialEndsWithCr = false;
  private data: string[] = [];
  private event = '';
  private done = false;
  /** What a bad event threw; the events before it are still handed out first, as the SDK yields them. */
  private failure: { error: unknown } | undefined;

  constructor(private readonly streamError: StreamErrorFactory) {}

  /** Throws what a bad event threw, once the values before it have been consumed. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** The JSON values of the events completed by `bytes`, in order (up to a bad one; then call `check`). */
  push(bytes: Uint8Array): unknown[] {
    const piece = this.decoder.decode(bytes, { stream: true });
    const out: unknown[] = [];
    // No line break in this read: it only lengthens the current line.
    if (!this.partialEndsWithCr && piece.indexOf('\n') < 0 && piece.indexOf('\r') < 0) {
      if (piece) this.partial.push(piece);
      return out;
    }
    this.scan(piece, false, out);
    return out;
  }

  /** The body ended: what is left is one last line (an event it does not close is dropped). */
  end(): unknown[] {
    const out: unknown[] = [];
    this.scan(this.decoder.decode(), true, out);
    return out;
  }

  private scan(piece: string, final: boolean, out: unknown[]): void {
    const text = this.partial.length === 0 ? piece : this.partial.join('') + piece;
    this.partial = [];
    this.partialEndsWithCr = false;
    let start = 0;
    // Next \n and \r at or after `start`; -1 once there is none left (never searched again: one pass).
    let lf = -2;
    let cr = -2;
    while (start < text.length && !this.failure) {
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A \r at the end of the read may be the first half of \r\n.
        if (cr === text.length - 1 && !final) break;
        end = cr;
        next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      this.line(text.slice(start, end), out);
      start = next;
    }
    const rest = text.slice(start);
    if (final) {
      if (rest && !this.failure) this.line(rest, out);
      return;
    }
    if (rest) {
      this.partial.push(rest);
      this.partialEndsWithCr = rest.charCodeAt(rest.length - 1) === 13;
    }
  }

  private line(line: string, out: unknown[]): void {
    if (line === '') {
      if (this.event === '' && this.data.length === 0) return;
      const data = this.data.length === 1 ? this.data[0]! : this.data.join('\n');
      this.data = [];
      this.event = '';
      this.dispatch(data, out);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' a comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }

  private dispatch(data: string, out: unknown[]): void {
    if (this.done || this.failure) return;
    if (data.startsWith('[DONE]')) {
      this.done = true;
      return;
    }
    try {
      const value = JSON.parse(data) as { error?: unknown } | null;
      if (value && value.error) throw this.streamError(value.error);
      out.push(value);
    } catch (error) {
      this.failure = { error };
    }
  }
}
