// The run's events on their way to the panel. In code-server every
// postMessage crosses the extension host, a websocket and two frames, and
// each message costs the browser a few tasks whatever it carries; so events
// are merged (deltas compacted) and sent at most once per frame. The first
// event after a quiet spell goes out at once (end of the current task), not a
// frame later. One message at a time is unanswered: when the browser stalls,
// what arrives meanwhile waits here and goes out as one message once it
// catches up, instead of a backlog of small messages worked through long
// after the stall. So the pace is one message a frame while the browser keeps
// up, and its own pace when it is loaded. (Why one frame and one message:
// docs/performance-log.md, "Streaming to the screen"; sending twice a frame, or
// as soon as answered, measured no better at p99.)
// No vscode import: the transport is injected, so this is tested in Node.
import type { AgentEvent } from '../protocol/agentEvents';
import { appendCompacted } from '../protocol/eventCompaction';

export interface PanelEventQueueOptions {
  /** Sends a batch; resolves when the panel's side has taken it (webview.postMessage's Thenable), undefined when there is no panel. */
  readonly send: (conversationId: string, events: AgentEvent[]) => PromiseLike<unknown> | undefined;
  /** Least time between two messages (one frame). */
  readonly intervalMs?: number;
  /** Messages sent and not yet taken before the queue holds back (default 1: the browser's pace). */
  readonly window?: number;
  /** A message not answered by then no longer holds the queue back (a lost answer must not stop the stream). */
  readonly answerTimeoutMs?: number;
  readonly now?: () => number;
}

export class PanelEventQueue {
  private events: AgentEvent[] = [];
  private conversationId: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private immediate: ReturnType<typeof setImmediate> | undefined;
  private lastSent = Number.NEGATIVE_INFINITY;
  private unanswered = 0;
  private readonly intervalMs: number;
  private readonly window: number;
  private readonly answerTimeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PanelEventQueueOptions) {
    this.intervalMs = options.intervalMs ?? 16;
    this.window = options.window ?? 1;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 2_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Queues an event; events of another conversation first send what is queued. */
  push(conversationId: string, event: AgentEvent): void {
    if (this.conversationId !== conversationId) this.flush();
    this.conversationId = conversationId;
    appendCompacted(this.events, event);
    this.schedule();
  }

  /** Sends what is queued now, whatever the pace (before a message that must come after these events). */
  flush(): void {
    this.cancel();
    if (this.events.length === 0 || this.conversationId === undefined) return;
    const events = this.events;
    this.events = [];
    this.lastSent = this.now();
    const taken = this.options.send(this.conversationId, events);
    if (taken === undefined) return;
    this.unanswered++;
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      clearTimeout(timeout);
      this.unanswered--;
      if (this.events.length > 0) this.schedule();
    };
    const timeout = setTimeout(answer, this.answerTimeoutMs);
    taken.then(answer, answer);
  }

  dispose(): void {
    this.cancel();
    this.events = [];
  }

  private schedule(): void {
    if (this.timer !== undefined || this.immediate !== undefined) return;
    if (this.unanswered >= this.window) return; // the next answer schedules again
    const wait = this.lastSent + this.intervalMs - this.now();
    // A quiet queue sends at the end of this task, so events pushed together go together.
    if (wait <= 0) this.immediate = setImmediate(() => this.send());
    else this.timer = setTimeout(() => this.send(), Math.ceil(wait));
  }

  private send(): void {
    this.timer = undefined;
    this.immediate = undefined;
    if (this.unanswered >= this.window) return;
    this.flush();
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}
