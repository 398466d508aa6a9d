// What the panel says aloud while a run goes. The conversation log stops being
// a live region during a run (a screen reader would read the thinking and the
// answer word by word as they stream, and a tool step again on every state
// change); instead each step speaks once per change that matters, in a short
// sentence, through one status line.
import { callSubject, condensedTitle } from './stepText';
import { todoHeadline } from './todoListView';
import type { Step } from './steps';

export interface Announcement {
  /** The step and the state spoken: the same key is never spoken twice. */
  readonly key: string;
  readonly text: string;
}

const ANSWER_EXCERPT_CHARS = 400;
/** update_todo_list (src/tools/todoListTool.ts), named here so the panel's bundle does not take in the tool. */
const TODO_LIST_TOOL = 'update_todo_list';

/** What a step's current state says aloud, if anything. */
export function announcementFor(step: Step): Announcement | undefined {
  const say = (state: string, text: string): Announcement => ({ key: `${step.id}:${state}`, text });
  switch (step.kind) {
    case 'tool-call': {
      // The plan speaks for itself once it is taken (below), not as a call.
      if (step.name === TODO_LIST_TOOL) return undefined;
      const subject = callSubject(step.argsText);
      const call = subject === undefined ? step.name : `${step.name} ${subject}`;
      // A quick call can go from queued to done within one frame: its start is spoken as what it did.
      if (step.state === 'running' || step.state === 'awaiting') return say('call', `Calling ${call}`);
      if (step.state === 'done' || step.state === 'cached') return say('call', `Called ${call}`);
      if (step.state === 'failed') return say('failed', `${call} failed`);
      return undefined;
    }
    case 'approval':
      return step.status === 'pending' ? say('pending', `Approval needed: ${step.summary}`) : undefined;
    case 'elicitation':
      return step.status === 'pending' ? say('pending', `${step.serverName} asks: ${step.message}`) : undefined;
    case 'answer': {
      if (step.messageKind !== 'answer' || !step.done || step.discarded) return undefined;
      const text = plainText(step.text);
      const excerpt = text.length > ANSWER_EXCERPT_CHARS ? `${text.slice(0, ANSWER_EXCERPT_CHARS - 1)}…` : text;
      return say('done', excerpt ? `Answer: ${excerpt}` : 'The answer is empty');
    }
    case 'notice':
      // The phase step (tool phase over, answer model next) would only add chatter before the answer.
      return step.phase === undefined ? say('shown', step.message) : undefined;
    case 'error':
      return say('shown', `Error: ${step.message}`);
    case 'condensed':
      return say('shown', condensedTitle(step));
    case 'steer':
      return say('shown', `Sent into the run: ${step.text}`);
    case 'tool-result':
      // Each new plan is read once: where it stands, and what is being done.
      return step.summary?.kind === 'todos' && step.state === 'done' ? say('plan', `Plan: ${todoHeadline(step.summary.items)}`) : undefined;
    case 'user':
    case 'thinking':
      return undefined;
  }
}

/** Markdown as it reads: no fences, markers or link targets. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^\s*(```|~~~).*$/gm, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Speaks each announcement once, gathering those of one frame into one
 * sentence. `hear` marks steps as already known without speaking (a stored
 * conversation opened, a panel restored).
 */
export class StepAnnouncer {
  private readonly spoken = new Set<string>();
  private pending: string[] = [];

  constructor(private readonly speak: (text: string) => void) {}

  observe(step: Step): void {
    const announcement = announcementFor(step);
    if (announcement === undefined || this.spoken.has(announcement.key)) return;
    this.spoken.add(announcement.key);
    this.pending.push(announcement.text);
  }

  hear(steps: Iterable<Step>): void {
    for (const step of steps) {
      const announcement = announcementFor(step);
      if (announcement !== undefined) this.spoken.add(announcement.key);
    }
  }

  /** Speaks what the frame gathered. */
  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.map((part) => part.replace(/[.\s]+$/, '')).join('. ') + '.';
    this.pending = [];
    this.speak(text);
  }

  reset(): void {
    this.spoken.clear();
    this.pending = [];
  }
}

/** The status line screen readers hear: visually hidden, polite, read whole. */
export function createLiveStatus(): { readonly element: HTMLElement; say(text: string): void; clear(): void } {
  const element = document.createElement('div');
  element.className = 'visually-hidden';
  element.dataset['testid'] = 'announcer';
  element.setAttribute('role', 'status');
  element.setAttribute('aria-live', 'polite');
  element.setAttribute('aria-atomic', 'true');
  return {
    element,
    say(text) {
      // The same words twice in a row are a change too: clear first, set on the next frame.
      if (element.textContent === text) {
        element.textContent = '';
        requestAnimationFrame(() => (element.textContent = text));
      } else element.textContent = text;
    },
    clear() {
      // Another conversation shown: the last one's news is not this one's state.
      element.textContent = '';
    },
  };
}
