// Which conversation a window's panel opens. At start, the one used last in
// any window (one value shared by the workspace's windows). At the panel's
// first `ready`, the one that panel itself showed before the reload, named by
// the state VS Code keeps for its page: two windows then each reopen their
// own. No `vscode` import.
import type { ConversationStore, StoredConversation } from './conversationStore';

/** A conversation that could not be opened (its file cannot be cut clean or repaired): where its file is, and why. */
export interface OpenProblem {
  readonly file: string;
  readonly reason: string;
}

export interface OpenedConversation {
  /** Undefined: a new conversation. */
  readonly conversation: StoredConversation | undefined;
  readonly problem?: OpenProblem | undefined;
}

type Opener = Pick<ConversationStore, 'load' | 'fileOf' | 'list'>;

/** Loads `id`; a failure is reported, not thrown, so the panel starts anyway with a new conversation. */
export async function openStored(store: Pick<ConversationStore, 'load' | 'fileOf'>, id: string | undefined): Promise<OpenedConversation> {
  if (id === undefined) return { conversation: undefined };
  try {
    return { conversation: await store.load(id) };
  } catch (error) {
    return { conversation: undefined, problem: { file: store.fileOf(id), reason: error instanceof Error ? error.message : String(error) } };
  }
}

/** What the user is told (in the style of the save problems' warnings). */
export function openProblemMessage(problem: OpenProblem): string {
  return `Tandem could not open the last conversation (${problem.reason}), so the panel starts a new one. Its file is kept, unchanged, at ${problem.file}.`;
}

/** The part of the session the choice looks at. */
interface OpenSession {
  readonly current: StoredConversation;
  readonly running: boolean;
}

/**
 * Decides, once, at the panel's first `ready`, whether to switch from the
 * conversation opened at start to the one the panel's page showed before.
 * Only while nothing has happened to the one opened at start (no run, no
 * other conversation opened, nothing added): a command used before the page
 * was up (Ask About Selection, New Chat) chose for the user already.
 */
export class PanelReopen {
  private pending = true;
  private readonly eventsAtStart: number;

  constructor(
    private readonly store: Opener,
    private readonly atStart: StoredConversation,
  ) {
    this.eventsAtStart = atStart.events.length;
  }

  /**
   * `shown`: the conversation the page showed (undefined: a page with no
   * state, which keeps the one used last). Undefined: keep what is open.
   * A conversation that cannot be read any more (deleted, never saved: an
   * empty new chat) gives a new conversation, as the page had.
   */
  async choose(shown: string | undefined, session: OpenSession): Promise<OpenedConversation | undefined> {
    if (!this.pending) return undefined;
    this.pending = false;
    if (shown === undefined || shown === session.current.id || !this.untouched(session)) return undefined;
    // Only from History: a conversation deleted since (another window's Undo may still restore it) is not taken up again.
    const opened = this.store.list().some((entry) => entry.id === shown) ? await openStored(this.store, shown) : { conversation: undefined };
    // Loading took a moment: a command may have used the panel meanwhile.
    return this.untouched(session) ? opened : undefined;
  }

  private untouched(session: OpenSession): boolean {
    return session.current === this.atStart && !session.running && session.current.events.length === this.eventsAtStart;
  }
}
