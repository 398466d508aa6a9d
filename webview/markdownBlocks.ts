// Splits a growing Markdown text into finished blocks and the live tail, so a
// streamed answer is parsed in constant work per update: only the text after
// the last finished block is lexed again. A block is finished once a later
// block has started (marked's block tokens); finished blocks never change.
// Pure (no DOM), so the equivalence with a full render is tested in Node.
import { Marked, type Token, type TokensList } from 'marked';

export interface BlockUpdate {
  /** True when everything shown before must be dropped (the text was not a continuation). */
  readonly reset: boolean;
  /** HTML of blocks finished by this update, in order; they never change again. */
  readonly finished: readonly string[];
  /** HTML of each block still changing (the last two), in order; replaces the previous tail. */
  readonly tail: readonly string[];
}

export class MarkdownBlockSplitter {
  private text = '';
  /** Characters of `text` covered by finished blocks. */
  private finishedLength = 0;
  /** Reference definitions ([x]: url) reach backwards; with them every update is a full render. */
  private whole = false;

  constructor(private readonly marked: Marked = new Marked({ gfm: true, breaks: false, async: false })) {}

  /** Characters the next update lexes again (the live tail); stays small however long the text. */
  get pendingLength(): number {
    return this.text.length - this.finishedLength;
  }

  update(rawText: string): BlockUpdate {
    const text = rawText.includes('\r') ? rawText.replace(/\r\n|\r/g, '\n') : rawText;
    let reset = false;
    if (this.whole || !text.startsWith(this.text)) {
      reset = true;
      this.finishedLength = 0;
    }
    this.text = text;
    if (this.whole) return { reset, finished: [], tail: [this.marked.parse(text) as string] };

    const rest = text.slice(this.finishedLength);
    const tokens: TokensList = this.marked.lexer(rest);
    if (Object.keys(tokens.links).length > 0 || rawLength(tokens) !== rest.length) {
      this.whole = true;
      this.finishedLength = 0;
      return { reset: true, finished: [], tail: [this.marked.parse(text) as string] };
    }
    // The last two blocks stay live: a block can still join the one before it
    // ("1. a\n\n2" is a list and a paragraph until "2." makes one list).
    let last = lastBlock(tokens, tokens.length - 1);
    last = lastBlock(tokens, last - 1);
    const finished: string[] = [];
    for (let index = 0; index < last; index++) {
      const token = tokens[index]!;
      if (token.type !== 'space') finished.push(this.parse(token));
      this.finishedLength += token.raw.length;
    }
    const tail: string[] = [];
    for (let index = last; index < tokens.length; index++) {
      const token = tokens[index]!;
      if (token.type !== 'space') tail.push(this.parse(token));
    }
    return { reset, finished, tail };
  }

  private parse(token: Token): string {
    return this.marked.parser([token]);
  }
}

/** Index of the last non-space token at or before `from` (0 at least). */
function lastBlock(tokens: readonly Token[], from: number): number {
  let index = from;
  while (index > 0 && tokens[index]!.type === 'space') index--;
  return Math.max(index, 0);
}

function rawLength(tokens: readonly Token[]): number {
  let length = 0;
  for (const token of tokens) length += token.raw.length;
  return length;
}
