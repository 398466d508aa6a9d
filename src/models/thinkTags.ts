// Reasoning that arrives inside the reply's text, between <think> tags: what
// DeepSeek-R1, QwQ and Qwen3 write when their server has no reasoning parser
// (llama.cpp, LM Studio, vLLM without --reasoning-parser, older Ollama). Left
// in the text it would show as the answer, be parsed for a tool envelope and
// be sent back to the model on every later turn; split off, it is reasoning
// like `reasoning_content`. Only a reply that opens with the tag counts: a
// tag further on is the answer's own text (e.g. an answer about the tag).

export interface SplitText {
  readonly reasoning: string;
  readonly text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';
const NOTHING: SplitText = { reasoning: '', text: '' };

type State = 'start' | 'thinking' | 'afterThinking' | 'text';

/** Splits one reply's streamed text; `push` each delta in order, then `end`. */
export class ThinkTagSplitter {
  private state: State = 'start';
  /** Text that may still be part of a tag. */
  private held = '';

  /** True once the rest of the reply is plain text: callers may stop pushing and pass deltas through. */
  get passesThrough(): boolean {
    return this.state === 'text';
  }

  /** The delta's reasoning and text; the reasoning, when both are there, came first. */
  push(delta: string): SplitText {
    let input = this.held + delta;
    this.held = '';
    let reasoning = '';
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
        this.state = 'text';
        return { reasoning: '', text: input };
      }
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
      if (input === '') return reasoning ? { reasoning, text: '' } : NOTHING;
      this.state = 'text';
    }
    return { reasoning, text: input };
  }

  /** The reply ended: what was held back. Reasoning left open (cut at the token limit) stays reasoning. */
  end(): SplitText {
    const held = this.held;
    this.held = '';
    if (held === '') return NOTHING;
    if (this.state === 'thinking') return { reasoning: held, text: '' };
    this.state = 'text';
    return { reasoning: '', text: held };
  }
}

/** How many characters at the end of `text` could begin the closing tag. */
function partialTagAtEnd(text: string): number {
  for (let length = Math.min(CLOSE.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(CLOSE.slice(0, length))) return length;
  }
  return 0;
}
