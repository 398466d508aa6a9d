// Turns what a terminal prints into plain text for the model: escape
// sequences (colours, cursor moves, the OSC 633/133 marks of shell
// integration, window titles) are dropped, CRLF becomes LF, and a line
// rewritten with a bare CR (progress bars) keeps only its last state. Chunks
// may split a sequence anywhere, so an unfinished one waits for the next.

import { headEnd, tailStart } from '../common/surrogatePairs';
import { omissionMark } from './contextContent';

const ESC = '\u001b';
const BEL = '\u0007';
/** An OSC or DCS/APC/PM/SOS string that never ends is dropped after this many characters. */
const MAX_PENDING = 4096;
/** A line is handed on unfinished at this length (a redraw with \r then starts a fresh one). */
const MAX_LINE = 65_536;

export class TerminalTextCleaner {
  private pending = '';
  /** The current line so far; a bare CR starts it over at the next character. */
  private line = '';
  private carriageReturn = false;

  /** Cleans one chunk; returns the text of the lines it completed. */
  push(chunk: string): string {
    const text = this.pending + chunk;
    this.pending = '';
    let out = '';
    let index = 0;
    while (index < text.length) {
      const char = text[index]!;
      if (char === ESC || char === '\u009b' || char === '\u009d') {
        const end = sequenceEnd(text, index);
        if (end === undefined) {
          const rest = text.slice(index);
          // An unfinished sequence waits for the next chunk, unless it is runaway.
          if (rest.length < MAX_PENDING) this.pending = rest;
          break;
        }
        index = end;
        continue;
      }
      index++;
      if (char === '\n') {
        out += `${this.line}\n`;
        this.line = '';
        this.carriageReturn = false;
      } else if (char === '\r') {
        this.carriageReturn = true;
      } else if (char === '\b') {
        this.line = this.line.slice(0, -1);
      } else if (char === '\t' || char >= ' ') {
        if (this.carriageReturn) {
          this.line = '';
          this.carriageReturn = false;
        }
        if (char !== '\u007f') this.line += char;
        // A line that never ends (minified output) goes on as it is, so memory stays bounded.
        if (this.line.length >= MAX_LINE) {
          out += this.line;
          this.line = '';
        }
      }
      // Other control characters (BEL, SI/SO, ...) are dropped.
    }
    return out;
  }

  /** The rest: the last line without its newline. */
  flush(): string {
    const rest = this.line;
    this.line = '';
    this.pending = '';
    this.carriageReturn = false;
    return rest;
  }
}

/** Strips escape sequences from a complete text. */
export function stripTerminalEscapes(text: string): string {
  const cleaner = new TerminalTextCleaner();
  return cleaner.push(text) + cleaner.flush();
}

/** Index just past the escape sequence starting at `start`, or undefined when the text ends inside it. */
function sequenceEnd(text: string, start: number): number | undefined {
  const first = text[start]!;
  let kind: string;
  let index: number;
  if (first === '\u009b') {
    kind = '[';
    index = start + 1;
  } else if (first === '\u009d') {
    kind = ']';
    index = start + 1;
  } else {
    if (start + 1 >= text.length) return undefined;
    kind = text[start + 1]!;
    index = start + 2;
  }
  if (kind === '[') {
    // CSI: parameter and intermediate bytes, then one final byte in @..~.
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 0x40 && code <= 0x7e) return index + 1;
      // Parameter (0x30-0x3f) and intermediate (0x20-0x2f) bytes go on; anything else is malformed: drop what was read.
      if (code < 0x20 || code > 0x3f) return index;
    }
    return undefined;
  }
  if (kind === ']' || kind === 'P' || kind === '_' || kind === '^' || kind === 'X') {
    // OSC, DCS, APC, PM, SOS: a string ended by BEL or ST (ESC \).
    for (; index < text.length; index++) {
      const char = text[index]!;
      if (char === BEL || char === '\u009c') return index + 1;
      if (char === ESC) {
        if (index + 1 >= text.length) return undefined;
        if (text[index + 1] === '\\') return index + 2;
      }
    }
    return undefined;
  }
  if (kind >= ' ' && kind <= '/') {
    // nF: intermediates, then a final byte (e.g. ESC ( B selects a charset).
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 0x30 && code <= 0x7e) return index + 1;
    }
    return undefined;
  }
  // Two-character sequences (ESC 7, ESC =, ESC M, ...).
  return start + 2;
}

/** Raw characters kept at each end: escape sequences (colours) take room. */
const RAW_HEAD_CHARS = 16_000;
const RAW_TAIL_CHARS = 32_000;

/**
 * The first and the last raw characters of a terminal's stream, the middle
 * dropped as it arrives: constant work and memory per chunk, cleaned only
 * when read.
 */
export class RawHeadTail {
  private head = '';
  private readonly tail: string[] = [];
  private tailLength = 0;
  /** Raw characters dropped from the middle. */
  private dropped = 0;

  append(data: string): void {
    if (this.head.length < RAW_HEAD_CHARS) {
      const room = headEnd(data, RAW_HEAD_CHARS - this.head.length);
      this.head += data.slice(0, room);
      data = data.slice(room);
      if (!data) return;
    }
    if (data.length > RAW_TAIL_CHARS) {
      // One huge chunk: only its end can stay.
      const from = tailStart(data, data.length - RAW_TAIL_CHARS);
      this.dropped += this.tailLength + from;
      this.tail.length = 0;
      this.tailLength = 0;
      data = data.slice(from);
    }
    this.tail.push(data);
    this.tailLength += data.length;
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= RAW_TAIL_CHARS) {
      const gone = this.tail.shift()!.length;
      this.tailLength -= gone;
      this.dropped += gone;
    }
  }

  /**
   * The text, escape sequences removed. Whole while nothing was dropped (the
   * caller caps it); otherwise head and tail within `max` characters, with one
   * mark saying how much was left out between them.
   */
  cleaned(max: number): string {
    const tailRaw = this.tail.join('');
    if (this.dropped === 0) return stripTerminalEscapes(this.head + tailRaw);
    // The tail begins in the middle of a line (maybe of an escape sequence): it is taken from its next line.
    const lineStart = tailRaw.indexOf('\n') + 1;
    const headText = stripTerminalEscapes(this.head);
    const tailText = stripTerminalEscapes(tailRaw.slice(lineStart));
    const room = max - omissionMark(this.dropped + headText.length + tailText.length).length;
    const headKeep = headEnd(headText, Math.min(headText.length, Math.ceil(room * 0.6)));
    const tailFrom = tailStart(tailText, Math.max(0, tailText.length - (room - headKeep)));
    const omitted = this.dropped + lineStart + (headText.length - headKeep) + tailFrom;
    return headText.slice(0, headKeep) + omissionMark(omitted) + tailText.slice(tailFrom);
  }
}
