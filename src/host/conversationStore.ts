// Conversations on disk, one append-only JSON Lines file each
// (conversationLog.ts), so they survive a window reload and a restart and a
// run never rewrites what is stored; the index (titles, order, the open one)
// in a small state object, a JSON file beside them. No `vscode` import.
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, open, readdir, readFile, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentEvent } from '../protocol/agentEvents';
import type { ConversationSummary } from '../protocol/webviewMessages';
import { eventLines, headerLine, parseLog, type ParsedLog } from './conversationLog';
import { pathExists } from '../tools/workspaceFiles';
import { RunEditsStore } from './runEditsStore';
import { deleteOldRemoved } from './removedConversations';
import type { KeyValueState } from './jsonFileState';
import { TandemError } from '../common/errors';

export interface StoredConversation {
  readonly id: string;
  title: string;
  readonly createdAt: number;
  updatedAt: number;
  /** The panel's stream: the loop's events plus the host's own (prompts, edits). */
  readonly events: AgentEvent[];
}

const indexKey = 'tandem.conversations';
const currentKey = 'tandem.currentConversation';
/** The last conversation deleted, kept on disk until the next delete or the next start, so Undo can bring it back. */
const deletedKey = 'tandem.deletedConversation';
/** History keeps this many; a new one past it deletes the oldest (the session says which). */
export const maxConversations = 100;

// Moved to the protocol (the panel compacts what it keeps too); re-exported for existing callers.
export { appendCompacted } from '../protocol/eventCompaction';

/**
 * The event a run's save holds back: the latest usage, which the next one
 * replaces. Streamed text is written as far as it has come (the next delta
 * starts a new event), so a window reloaded in the middle of an answer keeps
 * what had arrived.
 */
function mayStillGrow(event: AgentEvent): boolean {
  return event.type === 'CUSTOM' && event['name'] === 'tandem.usage';
}

/** A deleted conversation Undo can still restore, where it stood in the list, and which window's process deleted it. */
interface DeletedEntry {
  readonly summary: ConversationSummary;
  readonly position: number;
  readonly by?: number | undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The code of the RUN_ERROR that ends, as shown, a run with no end on record (its window reloaded or closed, or another window still running it). */
export const INTERRUPTED_CODE = 'INTERRUPTED';

/** A stored run that began and never ended: the host that ran it went away. */
function unfinishedRun(events: readonly AgentEvent[]): boolean {
  for (let index = events.length - 1; index >= 0; index--) {
    const type = events[index]!.type;
    if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') return false;
    if (type === 'RUN_STARTED') return true;
  }
  return false;
}

function interruptedRunError(now: number): AgentEvent {
  return {
    type: 'RUN_ERROR',
    code: INTERRUPTED_CODE,
    // Which of the two it cannot know: it says both, and what to do in each case.
    message:
      'This run did not finish here: the window running it was reloaded or closed while it was going, or another window is still running it. ' +
      'What had arrived is kept above; send the question again for a whole answer, or open this conversation again later to see what the other window added.',
    timestamp: now,
  } as AgentEvent;
}

export class ConversationStore {
  /** The edit journals of the conversations' runs (what "Revert this run's edits" restores). */
  readonly runEdits: RunEditsStore;

  constructor(
    private readonly directory: string,
    private readonly state: KeyValueState,
    private readonly now: () => number = Date.now,
    /** Told what went wrong on the side without stopping anything (a set-aside file that could not be deleted). */
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    this.runEdits = new RunEditsStore(directory);
  }

  create(): StoredConversation {
    const time = this.now();
    return { id: randomUUID(), title: '', createdAt: time, updatedAt: time, events: [] };
  }

  list(): ConversationSummary[] {
    return [...(this.state.get<ConversationSummary[]>(indexKey) ?? [])];
  }

  currentId(): string | undefined {
    return this.state.get<string>(currentKey);
  }

  async setCurrent(id: string | undefined): Promise<void> {
    if (this.currentId() === id) return; // each save during a run asks again: the index is not rewritten for nothing
    await this.state.update(currentKey, id);
  }

  /** Events of each conversation already in its file. */
  private readonly written = new Map<string, number>();
  /** Conversations whose last append failed: the next one starts on a fresh line. */
  private readonly torn = new Set<string>();
  /** The cut-off notices load() added to runs no host finished: stored with the next event after them. */
  private readonly saidOnLoad = new WeakSet<AgentEvent>();
  /** Conversations whose run this host is saving as it goes (saved with `final: false` and not yet finally). */
  private readonly live = new Set<string>();

  /** Events of `id` already stored: appendCompacted must not merge into them. */
  persistedCount(id: string): number {
    return this.written.get(id) ?? 0;
  }

  /** Where `id`'s log is (what a person is told when it cannot be opened). */
  fileOf(id: string): string {
    return this.file(id);
  }

  private file(id: string, extension: '.jsonl' | '.json' = '.jsonl'): string {
    if (!/^[A-Za-z0-9-]{1,100}$/.test(id)) throw new Error(`Not a conversation id: ${id}`);
    return path.join(this.directory, `${id}${extension}`);
  }

  async load(id: string): Promise<StoredConversation | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(id), 'utf8');
    } catch {
      return this.migrate(id);
    }
    let parsed = parseLog(text, id);
    if (!parsed) {
      const restored = await this.restoreHeader(id, text);
      if (!restored) return undefined;
      ({ parsed, text } = restored);
    }
    // Cut a torn last line so the next append starts clean.
    if (parsed.validBytes < Buffer.byteLength(text, 'utf8')) await truncate(this.file(id), parsed.validBytes);
    this.written.set(id, parsed.events.length);
    // A run this host is not running, stored as begun and never ended, is said to be over. It is
    // stored with this window's next save only: another window may still be running it.
    if (!this.live.has(id) && unfinishedRun(parsed.events)) {
      const ended = interruptedRunError(this.now());
      this.saidOnLoad.add(ended);
      parsed.events.push(ended);
    }
    const summary = this.list().find((entry) => entry.id === id);
    return {
      id,
      title: summary?.title ?? parsed.header.title,
      createdAt: parsed.header.createdAt,
      updatedAt: summary?.updatedAt ?? parsed.header.createdAt,
      events: parsed.events,
    };
  }

  /**
   * A file with events and no header (another window removed it between the
   * existence check and the append, or an earlier version wrote it after
   * another window had deleted the file): the header is put back from the
   * history's entry, once.
   */
  private async restoreHeader(id: string, text: string): Promise<{ parsed: ParsedLog; text: string } | undefined> {
    const summary = this.list().find((entry) => entry.id === id);
    if (!summary) return undefined;
    const whole = headerLine({ tandemConversation: 1, id, title: summary.title, createdAt: summary.updatedAt }) + text;
    const parsed = parseLog(whole, id);
    if (!parsed || parsed.events.length === 0) return undefined;
    const temporary = `${this.file(id)}.${process.pid}.tmp`;
    await writeFile(temporary, whole, 'utf8');
    await rename(temporary, this.file(id));
    return { parsed, text: whole };
  }

  /** A conversation in the old one-JSON-file format: rewritten once as a log, then the old file goes. */
  private async migrate(id: string): Promise<StoredConversation | undefined> {
    let old: StoredConversation;
    try {
      old = JSON.parse(await readFile(this.file(id, '.json'), 'utf8')) as StoredConversation;
    } catch {
      return undefined;
    }
    if (!Array.isArray(old.events) || old.id !== id) return undefined;
    const temporary = `${this.file(id)}.${process.pid}.tmp`;
    await writeFile(temporary, headerLine({ tandemConversation: 1, id, title: old.title, createdAt: old.createdAt }) + eventLines(old.events), 'utf8');
    await rename(temporary, this.file(id));
    await rm(this.file(id, '.json'), { force: true });
    this.written.set(id, old.events.length);
    return old;
  }

  /**
   * Appends the events not yet stored and moves the conversation to the top of
   * the index. During a run (`final: false`) the last event stays in memory,
   * since the next delta may still merge into it.
   */
  async save(conversation: StoredConversation, options: { final?: boolean } = {}): Promise<SaveOutcome> {
    const { events, id } = conversation;
    if (events.length === 0) return { dropped: [] };
    const final = options.final ?? true;
    if (final) this.live.delete(id);
    else this.live.add(id);
    let written = this.written.get(id);
    // Its file went away (another window deleted it, or its folder was removed): all of it is written, and listed, again.
    const vanished = written !== undefined && !(await pathExists(this.file(id)));
    if (vanished) {
      this.torn.delete(id);
      written = undefined;
    }
    // Mid-run only an event that may still grow (a streamed delta, the latest usage) waits; the prompt that
    // starts a run is complete and goes to disk at once, so a window reloaded right after Send keeps it.
    const upTo = final || !mayStillGrow(events[events.length - 1]!) ? events.length : events.length - 1;
    // Only the cut-off notice load() added: looking at a conversation neither writes it nor makes it the latest.
    if (written !== undefined && upTo > written && events.slice(written, upTo).every((event) => this.saidOnLoad.has(event))) return { dropped: [] };
    const fresh = written === undefined;
    // "Last used" is the last event added: a conversation only looked at (then left, which saves it) keeps its time and place.
    const grew = written === undefined || upTo > written;
    if (grew) conversation.updatedAt = this.now();
    let text = fresh ? headerLine({ tandemConversation: 1, id, title: conversation.title, createdAt: conversation.createdAt }) : '';
    if (upTo > (written ?? 0)) text += eventLines(events.slice(written ?? 0, upTo));
    if (text) {
      // Counted as stored from the moment their text is taken, not once the write ends: a delta arriving
      // meanwhile would otherwise merge into an event already on its way to disk, and its text be lost there.
      this.written.set(id, Math.max(written ?? 0, upTo));
      try {
        await mkdir(this.directory, { recursive: true });
        if (fresh) await writeFile(this.file(id), text, 'utf8');
        else await appendFile(this.file(id), this.torn.has(id) ? `\n${text}` : text, 'utf8');
        this.torn.delete(id);
      } catch (error) {
        // Not stored after all: the next save writes them again.
        if (written === undefined) this.written.delete(id);
        else this.written.set(id, written);
        if (!fresh) this.torn.add(id);
        throw error;
      }
    }
    const listed = this.list().find((entry) => entry.id === id);
    // The index changes once per run, not per save, and only for a use: its time is newer than the one listed
    // (set by this save or by one during the run, which leaves the index alone).
    if (!vanished && !this.unlisted.has(id) && listed && listed.title === conversation.title && (!final || listed.updatedAt === conversation.updatedAt)) return { dropped: [] };
    const summary: ConversationSummary = { id, title: conversation.title, updatedAt: conversation.updatedAt };
    let dropped: ConversationSummary[] = [];
    try {
      await this.changeIndex((list) => {
        const index = [summary, ...list.filter((entry) => entry.id !== id)];
        dropped = index.splice(maxConversations);
        return { [indexKey]: index };
      });
      // Only once the list no longer has them.
      for (const entry of dropped) await this.removeFiles(entry.id);
    } catch (error) {
      // Its file is written; the history gets it with the next index write that works.
      this.unlisted.set(id, summary);
      throw new HistoryListError(error);
    }
    return { dropped };
  }

  private indexChanges: Promise<void> = Promise.resolve();
  /** Conversations saved while the index could not be written: listed by the next write that works. */
  private readonly unlisted = new Map<string, ConversationSummary>();

  /**
   * Changes the index as it is on disk now, one change at a time (in this
   * window by a queue, between windows by JsonFileState's lock file):
   * another window may have changed it since this one read it, and writing
   * this window's copy would drop that window's conversations.
   */
  private changeIndex(change: (index: ConversationSummary[], read: <T>(key: string) => T | undefined) => Record<string, unknown>): Promise<void> {
    const next = this.indexChanges.catch(() => undefined).then(async () => {
      const apply = (read: <T>(key: string) => T | undefined) => {
        const listed = [...(read<ConversationSummary[]>(indexKey) ?? [])];
        const missing = [...this.unlisted.values()].filter((entry) => !listed.some((other) => other.id === entry.id)).sort((a, b) => b.updatedAt - a.updatedAt);
        return change([...missing, ...listed], read);
      };
      if (this.state.modify) await this.state.modify(apply);
      else for (const [key, value] of Object.entries(apply((key) => this.state.get(key)))) await this.state.update(key, value);
      this.unlisted.clear();
    });
    this.indexChanges = next;
    return next;
  }

  /**
   * Lists the conversation files the index does not (an index set aside as
   * unreadable, an index write that failed or was lost to another window):
   * at start, from the folder's listing, reading only the unlisted files'
   * headers. The conversation Undo can still restore stays out. Returns how
   * many it listed. Deletes, too, the damaged files set aside more than 30
   * days ago (removedConversations.ts).
   */
  async recoverIndex(): Promise<number> {
    let listing: string[];
    try {
      listing = await readdir(this.directory);
    } catch {
      return 0;
    }
    await deleteOldRemoved(this.directory, listing, this.now(), (file, error) =>
      this.warn(`could not delete ${file}, a damaged conversation set aside long ago: ${error instanceof Error ? error.message : String(error)}`),
    );
    const names = listing.filter((name) => /^[A-Za-z0-9-]{1,100}\.jsonl$/.test(name));
    const known = new Set([...this.list().map((entry) => entry.id), this.deleted()?.id]);
    const found: ConversationSummary[] = [];
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      if (known.has(id)) continue;
      const header = await readHeader(this.file(id), id);
      if (header) found.push({ id, title: header.title, updatedAt: header.modifiedAt });
    }
    if (found.length === 0) return 0;
    let added = 0;
    await this.changeIndex((list, read) => {
      // As the index is now: another window may have listed (or deleted) some since.
      const deleted = read<DeletedEntry>(deletedKey)?.summary.id;
      const missing = found.filter((entry) => entry.id !== deleted && !list.some((listed) => listed.id === entry.id));
      // Never past the limit: making room would delete conversations the user kept.
      const room = missing.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, Math.max(0, maxConversations - list.length));
      added = room.length;
      return added === 0 ? {} : { [indexKey]: mergedByTime(list, room) };
    });
    return added;
  }

  /** Takes an entry out of the history and leaves its files alone. */
  async forget(id: string): Promise<void> {
    await this.changeIndex((list) => ({ [indexKey]: list.filter((entry) => entry.id !== id) }));
    if (this.currentId() === id) await this.setCurrent(undefined);
  }

  /**
   * Takes out an entry whose file still cannot be read, and sets the file
   * aside (`<id>.jsonl.removed`) for a person to look at, for 30 days: left
   * as it was, the next start would find it unlisted and list it again. Says
   * where it went, or that the file reads now (and nothing was changed).
   */
  async removeUnreadable(id: string): Promise<{ readonly readable: true } | { readonly readable: false; readonly aside: string | undefined }> {
    // Asked some time after the failed open: a file a sync client or a scanner held then may read now.
    if (await this.load(id).catch(() => undefined)) return { readable: true };
    await this.forget(id);
    const file = this.fileOf(id);
    const aside = `${file}.removed`;
    try {
      await rename(file, aside);
      // A rename keeps the time of the last write, maybe months ago: the days it is kept count from now.
      const now = new Date(this.now());
      await utimes(aside, now, now).catch((error: unknown) => this.warn(`could not stamp ${aside} with the time it was set aside (${error instanceof Error ? error.message : String(error)}); its change time counts instead`));
      return { readable: false, aside };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { readable: false, aside: undefined };
      throw error;
    }
  }

  /**
   * Takes `id` out of the history. Its files (and the journal that reverts its
   * runs' edits) stay until the next delete or the next start, so one Undo
   * brings it back whole.
   */
  async delete(id: string): Promise<void> {
    this.live.delete(id);
    await this.purgeDeleted();
    let listed = false;
    let replaced: DeletedEntry | undefined;
    await this.changeIndex((list, read) => {
      const position = list.findIndex((entry) => entry.id === id);
      listed = position >= 0;
      // Marked with this window's process: another window's start leaves it for this one's Undo.
      const deleted = listed ? ({ summary: list[position]!, position, by: process.pid } satisfies DeletedEntry) : undefined;
      // One another window deleted since the purge above: its Undo ends here, and its files go (or the next start would list them again).
      const previous = read<DeletedEntry>(deletedKey);
      if (deleted && previous && previous.summary.id !== id && !list.some((entry) => entry.id === previous.summary.id)) replaced = previous;
      return { [indexKey]: list.filter((entry) => entry.id !== id), ...(deleted && { [deletedKey]: deleted }) };
    });
    if (!listed) await this.removeFiles(id);
    if (replaced) await this.removeFiles(replaced.summary.id);
    if (this.currentId() === id) await this.setCurrent(undefined);
  }

  /** The conversation Undo would restore, if any. */
  deleted(): ConversationSummary | undefined {
    return this.state.get<DeletedEntry>(deletedKey)?.summary;
  }

  /** Puts the last deleted conversation back where it was in the list; undefined when there is none. */
  async undoDelete(): Promise<ConversationSummary | undefined> {
    let restored: DeletedEntry | undefined;
    let dropped: ConversationSummary[] = [];
    await this.changeIndex((list, read) => {
      restored = read<DeletedEntry>(deletedKey);
      if (restored === undefined) return {};
      const index = list.filter((listed) => listed.id !== restored!.summary.id);
      index.splice(Math.min(restored.position, index.length), 0, restored.summary);
      dropped = index.splice(maxConversations);
      return { [indexKey]: index, [deletedKey]: undefined };
    });
    for (const entry of dropped) await this.removeFiles(entry.id);
    return restored?.summary;
  }

  /**
   * Removes for good what was deleted and not restored: at the next delete,
   * and when a window starts, unless the window that deleted it is still
   * open (its Undo still offers it).
   */
  async purgeDeleted(options: { atStart?: boolean } = {}): Promise<void> {
    let purged: DeletedEntry | undefined;
    await this.changeIndex((list, read) => {
      const entry = read<DeletedEntry>(deletedKey);
      if (entry === undefined || (options.atStart && entry.by !== undefined && entry.by !== process.pid && processAlive(entry.by))) return {};
      // Listed again since (saved, or restored by another window over the same files): its files stay.
      purged = list.some((listed) => listed.id === entry.summary.id) ? undefined : entry;
      return { [deletedKey]: undefined };
    });
    if (purged) await this.removeFiles(purged.summary.id);
  }

  private async removeFiles(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
    await rm(this.file(id, '.json'), { force: true });
    await this.runEdits.removeConversation(id);
    this.written.delete(id);
  }
}

/** A save that wrote the conversation's file but not the History list beside it (`cause`: why). */
export class HistoryListError extends TandemError {
  constructor(cause: unknown) {
    super(`the History list could not be written (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

/** What a save changed besides the file: conversations History had no room for, deleted. */
export interface SaveOutcome {
  readonly dropped: readonly ConversationSummary[];
}

/** `found` (newest first) put into `list` (last used first) before the first entry older than each. */
function mergedByTime(list: readonly ConversationSummary[], found: readonly ConversationSummary[]): ConversationSummary[] {
  const merged = [...list];
  let at = 0;
  for (const entry of found) {
    while (at < merged.length && merged[at]!.updatedAt >= entry.updatedAt) at++;
    merged.splice(at++, 0, entry);
  }
  return merged;
}

/** A conversation file's header and when the file last changed; undefined when it has none for `id`. */
async function readHeader(file: string, id: string): Promise<{ title: string; modifiedAt: number } | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(HEADER_READ_BYTES), position: 0 });
      const parsed = parseLog(buffer.toString('utf8', 0, bytesRead), id);
      return parsed ? { title: parsed.header.title, modifiedAt: (await handle.stat()).mtimeMs } : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** Enough of a file's start for its header line (a title is at most a few hundred characters). */
const HEADER_READ_BYTES = 8192;

/** A history title from the first prompt: its first line; the panel cuts it to fit and shows all of it on hover. */
export function titleFrom(prompt: string): string {
  const line = prompt.trim().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
