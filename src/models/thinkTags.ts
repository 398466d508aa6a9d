// Reasoning that arrives inside the reply's text, between <think> tags: what
// DeepSeek-R1, QwQ and Qwen3 write when their server has no reasoning parser
// (llama.cpp, LM Studio, vLLM without --reasoning-parser, older Ollama). Left
// in the text it would show as the answer, be parsed for a tool envelope and
// be sent back to the model on every later turn; split off, it is reasoning
// like `reasoning_content`. A reply that opens with the tag is split as it
// streams. Some chat templates put the opening tag in the prompt (DeepSeek-R1's
// since 2025-01, QwQ's): the reply starts with the reasoning itself and only
// closes the tag. That text shows first as text; the first `</think>` with no
// `<think>` before it makes everything before it reasoning after the fact (as
// vLLM's DeepSeek-R1 parser reads such a reply). Tags after an opening one
// further on are the answer's own text (e.g. an answer about the tags).

export interface SplitText {
  readonly reasoning: string;
  readonly text: string;
  /**
   * The reply closed a <think> its prompt had opened: the text handed out
   * before this was reasoning. `reasoning` holds all of it (that text and
   * this delta's part before the tag) and replaces it.
   */
  readonly retractsText?: true;
}

const OPEN = '<think>';
const CLOSE = '</think>';
const NOTHING: SplitText = { reasoning: '', text: '' };

/** `watching`: the reply did not open with the tag; its text passes through, kept until a closing tag or an opening one decides. */
type State = 'start' | 'thinking' | 'watching' | 'afterThinking' | 'text';

/** Splits one reply's streamed text; `push` each delta in order, then `end`. */
export class ThinkTagSplitter {
  private state: State = 'start';
  /** Text that may still be part of a tag. */
  private held = '';
  /** While watching: the pieces of text handed out so far, which a closing tag would make reasoning (joined only then). */
  private passed: string[] = [];
  private passedLength = 0;

  /** True once the rest of the reply is plain text: callers may stop pushing and pass deltas through. */
  get passesThrough(): boolean {
    return this.state === 'text';
  }

  /** The delta's reasoning and text; the reasoning, when both are there, came first. */
  push(delta: string): SplitText {
    let input = this.held + delta;
    this.held = '';
    let reasoning = '';
    let retracts = false;
    if (this.state === 'start') {
      const lead = input.trimStart();
      if (lead.startsWith(OPEN)) {
        this.state = 'thinking';
        input = lead.slice(OPEN.length);
      } else if (OPEN.startsWith(lead)) {
        // Only blanks, or the first letters of the tag, so far.
        this.held = input;
        return NOTHING;
      } else {
        this.state = 'watching';
      }
    }
    if (this.state === 'watching') {
      const close = this.closingTagIn(input);
      if (close < 0) {
        // (Unless an opening tag just ended the watch: then nothing needs keeping.)
        if (this.state === 'watching') {
          this.passed.push(input);
          this.passedLength += input.length;
        }
        return { reasoning: '', text: input };
      }
      const all = this.passed.join('') + input;
      this.passed = [];
      this.passedLength = 0;
      reasoning = all.slice(0, close);
      input = all.slice(close + CLOSE.length);
      retracts = true;
      this.state = 'afterThinking';
    }
    if (this.state === 'thinking') {
      const close = input.indexOf(CLOSE);
      if (close < 0) {
        const keep = partialTagAtEnd(input);
        this.held = input.slice(input.length - keep);
        return { reasoning: input.slice(0, input.length - keep), text: '' };
      }
      reasoning = input.slice(0, close);
      input = input.slice(close + CLOSE.length);
      this.state = 'afterThinking';
    }
    if (this.state === 'afterThinking') {
      // The blank lines between the reasoning and the answer belong to neither.
      input = input.trimStart();
      if (input !== '') this.state = 'text';
    }
    if (retracts) return { reasoning, text: input, retractsText: true };
    if (input === '' && reasoning === '') return NOTHING;
    return { reasoning, text: input };
  }

  /** The reply ended: what was held back. Reasoning left open (cut at the token limit) stays reasoning. */
  end(): SplitText {
    const held = this.held;
    this.held = '';
    this.passed = [];
    this.passedLength = 0;
    if (held === '') return NOTHING;
    if (this.state === 'thinking') return { reasoning: held, text: '' };
    this.state = 'text';
    return { reasoning: '', text: held };
  }

  /**
   * While watching: where a closing tag with no opening one before it starts,
   * as an index into the passed text followed by `input`; -1 when there is
   * none. An opening tag ends the watch: the reply writes the tags itself.
   */
  private closingTagIn(input: string): number {
    // A tag completed by this delta ends in it, at its '>': most deltas have none and cost one scan.
    if (!input.includes('>')) return -1;
    const tail = this.passedTail(CLOSE.length - 1);
    const window = tail + input;
    const open = window.indexOf(OPEN);
    const close = window.indexOf(CLOSE);
    if (open >= 0 && (close < 0 || open < close)) {
      this.state = 'text';
      this.passed = [];
      this.passedLength = 0;
      return -1;
    }
    return close < 0 ? -1 : this.passedLength - tail.length + close;
  }

  /** The last `length` characters handed out (fewer at the start). */
  private passedTail(length: number): string {
    let tail = '';
    for (let index = this.passed.length - 1; index >= 0 && tail.length < length; index--) tail = this.passed[index] + tail;
    return tail.slice(-length);
  }
}

/** How many characters at the end of `text` could begin the closing tag. */
function partialTagAtEnd(text: string): number {
  for (let length = Math.min(CLOSE.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(CLOSE.slice(0, length))) return length;
  }
  return 0;
}
