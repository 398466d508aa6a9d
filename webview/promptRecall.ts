// Up and Down in the prompt box bring back what was asked before, as in a
// terminal and in VS Code's own chat: Up on the first line goes back, Down on
// the last line goes forward and, past the newest, returns the text that was
// being written. Editing a recalled question and sending it sends the edit.
// Messages sent into a run (Steer) are recalled too, where they were taken.
import type { Step } from './steps';

/** What Up brings back, oldest first: the questions and the messages sent into runs, as typed. */
export function recallable(steps: readonly Step[]): string[] {
  return steps.flatMap((step) => (step.kind === 'user' || step.kind === 'steer' ? [step.typed] : []));
}

/** Which question is shown; the text being written is kept while older ones are. */
export class PromptRecall {
  /** How far back: 0 = the text being written, 1 = the newest question. */
  private back = 0;
  private draft = '';

  constructor(private readonly questions: () => readonly string[]) {}

  /** The older question to show instead of `current`, or undefined when there is none. */
  older(current: string): string | undefined {
    const asked = this.questions();
    if (this.back >= asked.length) return undefined;
    if (this.back === 0) this.draft = current;
    this.back += 1;
    return asked[asked.length - this.back];
  }

  /** The newer question (or, past the newest, the text being written), or undefined when already there. */
  newer(): string | undefined {
    if (this.back === 0) return undefined;
    this.back -= 1;
    if (this.back === 0) return this.draft;
    const asked = this.questions();
    return asked[asked.length - this.back];
  }

  /** Sent or cleared: the next Up starts from the newest question again. */
  reset(): void {
    this.back = 0;
    this.draft = '';
  }
}

/** Wires the recall to the prompt box's arrow keys (a suggestion list, when open, takes them first). */
export function attachPromptRecall(prompt: HTMLTextAreaElement, questions: () => readonly string[], onChange: (text: string) => void): PromptRecall {
  const recall = new PromptRecall(questions);
  prompt.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const { selectionStart, selectionEnd, value } = prompt;
    if (selectionStart !== selectionEnd) return;
    // Within the text, the arrows move the caret between lines as usual.
    const onFirstLine = !value.slice(0, selectionStart).includes('\n');
    const onLastLine = !value.slice(selectionEnd).includes('\n');
    const next = event.key === 'ArrowUp' ? (onFirstLine ? recall.older(value) : undefined) : onLastLine ? recall.newer() : undefined;
    if (next === undefined) return;
    event.preventDefault();
    prompt.value = next;
    const caret = event.key === 'ArrowUp' ? 0 : next.length;
    prompt.setSelectionRange(caret, caret);
    onChange(next);
  });
  return recall;
}
