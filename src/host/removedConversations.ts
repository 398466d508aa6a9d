// Conversation files set aside when a damaged conversation is removed from
// History (`<id>.jsonl.removed`, ConversationStore.removeUnreadable): kept a
// while for a person to look at, then deleted at a start, so they do not
// pile up in the extension's storage for good.
import { lstat, rm } from 'node:fs/promises';
import * as path from 'node:path';

/** How long a set-aside file is kept, counted from when it was set aside. */
export const REMOVED_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

const REMOVED_NAME = /^[A-Za-z0-9-]{1,100}\.jsonl\.removed$/;

export function isRemovedConversation(name: string): boolean {
  return REMOVED_NAME.test(name);
}

/**
 * Deletes the set-aside files among `names` (a listing of `directory`) older
 * than REMOVED_KEPT_MS; any other name, and anything not a plain file, is
 * left alone. A file that cannot be deleted is reported to `onFailure` and
 * skipped: the next start tries again. Returns the names deleted. `remove`
 * stands in for deleting in tests (a file Windows will not let go of).
 */
export async function deleteOldRemoved(
  directory: string,
  names: readonly string[],
  now: number,
  onFailure: (file: string, error: unknown) => void,
  remove: (file: string) => Promise<void> = (file) => rm(file),
): Promise<string[]> {
  const deleted: string[] = [];
  for (const name of names) {
    if (!isRemovedConversation(name)) continue;
    const file = path.join(directory, name);
    try {
      // lstat: a link or a folder by that name is not one the store made.
      const stats = await lstat(file);
      // Set aside when last modified, or renamed (the change time): the later one, in case the store
      // could not stamp the file when it renamed it and its modified time is that of an old last write.
      if (!stats.isFile() || now - Math.max(stats.mtimeMs, stats.ctimeMs) <= REMOVED_KEPT_MS) continue;
      await remove(file);
      deleted.push(name);
    } catch (error) {
      // Gone meanwhile (another window's start deleted it): nothing to say.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onFailure(file, error);
    }
  }
  return deleted;
}
