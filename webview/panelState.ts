// What the panel keeps in VS Code's webview state, so a view that was hidden
// (its page thrown away) comes back at once and asks the host only for what
// it missed: the prompt's draft, and a snapshot of the conversation shown —
// its compacted events and where they end in the host's stream.
// setState serialises the whole state, so the snapshot is written when the
// panel is idle (a run ended, a conversation opened) or hidden, never per
// token; the draft is written after typing pauses, and then also told to the
// host (`onDraft`): VS Code's webview state need not survive a window reload
// (in code-server it does not), the host's copy does.
import { isLiveOnly, type AgentEvent } from '../src/protocol/agentEvents';
import { appendCompacted } from '../src/protocol/eventCompaction';
import type { StreamPosition } from '../src/protocol/streamPosition';

export interface Snapshot {
  readonly conversationId: string;
  readonly position: StreamPosition;
  readonly running: boolean;
  readonly events: readonly AgentEvent[];
}

interface SavedState {
  readonly draft?: string;
  readonly snapshot?: Snapshot;
}

export interface StateStorage {
  getState(): unknown;
  setState(state: unknown): void;
}

export class PanelState {
  private draft: string;
  private readonly restored: Snapshot | undefined;
  /** The conversation as the panel has it: compacted events and the host's position after them. */
  private conversationId: string | undefined;
  private events: AgentEvent[] = [];
  private position: StreamPosition | undefined;
  private running = false;
  private saved: Snapshot | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The draft as last told to `onDraft`. */
  private told: string;

  constructor(
    private readonly storage: StateStorage,
    private readonly delayMs = 300,
    /** The draft after typing paused, each time it changed. */
    private readonly onDraft: (draft: string) => void = () => undefined,
  ) {
    const state = (storage.getState() ?? {}) as SavedState;
    this.draft = typeof state.draft === 'string' ? state.draft : '';
    this.told = this.draft;
    this.restored = isSnapshot(state.snapshot) ? state.snapshot : undefined;
    this.saved = this.restored;
    if (this.restored) {
      this.conversationId = this.restored.conversationId;
      this.events = [...this.restored.events];
      this.position = this.restored.position;
      this.running = this.restored.running;
    }
  }

  get initialDraft(): string {
    return this.draft;
  }

  /** The conversation the last page showed, if its state survived. */
  get snapshot(): Snapshot | undefined {
    return this.restored;
  }

  setDraft(draft: string): void {
    this.draft = draft;
    this.schedule();
  }

  /** The host replaced the conversation (or, with `continues`, sent what came after the snapshot). */
  onConversation(id: string, events: readonly AgentEvent[], position: StreamPosition | undefined, running: boolean, continues: boolean): void {
    if (!continues || this.conversationId !== id) this.events = [];
    this.conversationId = id;
    this.keep(events);
    this.position = position;
    this.running = running;
    if (!running) this.schedule();
  }

  onEvents(events: readonly AgentEvent[], position: StreamPosition | undefined, running: boolean): void {
    this.keep(events);
    this.position = position;
    this.running = running;
    if (!running) this.schedule();
  }

  /** Writes the snapshot now (the page is being hidden). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.conversationId !== undefined && this.position !== undefined) {
      this.saved = { conversationId: this.conversationId, position: this.position, running: this.running, events: this.events };
    } else {
      this.saved = undefined;
    }
    this.storage.setState({ draft: this.draft, ...(this.saved ? { snapshot: this.saved } : {}) });
    if (this.draft !== this.told) {
      this.told = this.draft;
      this.onDraft(this.draft);
    }
  }

  /** Adds what the snapshot keeps: like the host's copy, never the live-only events (images). */
  private keep(events: readonly AgentEvent[]): void {
    for (const event of events) if (!isLiveOnly(event)) appendCompacted(this.events, event);
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
  }
}

function isSnapshot(value: unknown): value is Snapshot {
  const snapshot = value as Partial<Snapshot> | undefined;
  return (
    typeof snapshot?.conversationId === 'string' &&
    Array.isArray(snapshot.events) &&
    typeof snapshot.position?.stream === 'string' &&
    Number.isInteger(snapshot.position.count) &&
    Number.isInteger(snapshot.position.tail)
  );
}
