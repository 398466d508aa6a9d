// A small key-value state in a JSON file that every window on a workspace
// shares: each change is made under a lock file, from what is on disk at that
// moment, and written atomically (temporary file, then rename). No `vscode` import.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** The part of vscode.Memento the store needs. */
export interface KeyValueState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
  /** Reads again what another window may have written since (absent: nothing else writes it). */
  refresh?(): Promise<void>;
  /** Changes some keys from their values as stored right now (absent: `get` and `update` do). */
  modify?(change: (read: <T>(key: string) => T | undefined) => Record<string, unknown>): Promise<void>;
}

type JsonRead = { readonly values: Record<string, unknown> } | 'missing' | 'unreadable' | 'damaged';

async function readJsonObject(file: string): Promise<JsonRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    // Not there, or not readable now (permissions, too many open files): neither is a damaged file.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { values: parsed as Record<string, unknown> } : 'damaged';
  } catch {
    return 'damaged';
  }
}

/**
 * A KeyValueState in a JSON file beside the conversations, written at once
 * and atomically: a Memento may not reach the disk when VS Code is killed,
 * and then the files would be there but not the history that finds them.
 * Every window on the workspace shares the file, so a change starts from
 * what is on disk (`refresh`), not from what this window read at start.
 */
export class JsonFileState implements KeyValueState {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private values: Record<string, unknown>,
    /** Where an unreadable file was moved, so that nothing overwrites it. */
    readonly setAside: string | undefined,
  ) {}

  static async open(file: string): Promise<JsonFileState> {
    const read = await readJsonObject(file);
    let setAside: string | undefined;
    if (read === 'damaged') {
      // Kept for a person to look at; the history is rebuilt from the conversation files (ConversationStore.recoverIndex).
      setAside = `${file}.damaged-${Date.now()}`;
      await rename(file, setAside).catch(() => (setAside = undefined));
    }
    return new JsonFileState(file, typeof read === 'object' ? read.values : {}, setAside);
  }

  get<T>(key: string): T | undefined {
    return this.values[key] as T | undefined;
  }

  async refresh(): Promise<void> {
    await this.writing.catch(() => undefined);
    await this.reread().catch(() => undefined);
  }

  /** What is on disk now; a file that cannot be read is not written over (its list would be lost). */
  private async reread(): Promise<void> {
    const read = await readJsonObject(this.file);
    if (typeof read === 'object') this.values = read.values;
    else if (read === 'missing') this.values = {};
    else if (read === 'damaged') await rename(this.file, `${this.file}.damaged-${Date.now()}`).catch(() => undefined);
    else throw new Error(`${path.basename(this.file)} cannot be read`);
  }

  /** Changes one key of the file as it is now: the other keys stay as the last window wrote them. */
  update(key: string, value: unknown): Promise<void> {
    return this.modify(() => ({ [key]: value }));
  }

  /**
   * Reads the file, changes the keys `change` returns (undefined removes
   * one) from the values just read, and writes it, with nothing awaited in
   * between but the file itself: the narrowest window in which another
   * window's write could be lost. Memory takes the change only once written.
   */
  modify(change: (read: <T>(key: string) => T | undefined) => Record<string, unknown>): Promise<void> {
    // A failed write costs that write only: the next one starts afresh.
    const write = this.writing.catch(() => undefined).then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const release = await lockFile(`${this.file}.lock`);
      try {
        await this.reread();
        const next = { ...this.values };
        for (const [key, value] of Object.entries(change((key) => next[key] as never))) {
          if (value === undefined) delete next[key];
          else next[key] = value;
        }
        const temporary = `${this.file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
        try {
          await writeFile(temporary, JSON.stringify(next), 'utf8');
          await rename(temporary, this.file);
        } catch (error) {
          await rm(temporary, { force: true }).catch(() => undefined);
          throw error;
        }
        this.values = next;
      } finally {
        await release();
      }
    });
    this.writing = write;
    return write;
  }
}

/** A lock older than this was left by a window that died while writing: it is taken over. */
const STALE_LOCK_MS = 5_000;
const LOCK_RETRY_MS = 10;

/**
 * Holds `lock` (created exclusively) until the returned release: windows
 * change the shared index one at a time, each from what the last one wrote.
 */
async function lockFile(lock: string): Promise<() => Promise<void>> {
  for (let waited = 0; ; waited += LOCK_RETRY_MS) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (age > STALE_LOCK_MS || waited > STALE_LOCK_MS * 2) await rm(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
}
