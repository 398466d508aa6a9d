// Before a revert puts a file back: does it still hold what the run left
// there? What the user sees counts (an editor's unsaved text first), so a
// revert never silently replaces changes the user made after the run.

import { readFile } from 'node:fs/promises';
import { contentDigest } from './editJournalSnapshot';
import type { WorkspaceHost } from './workspaceHost';

/** What a revert knows about one file: its state before the run and what the run left. */
export interface JournalEntry {
  /** Bytes before the run's first change; undefined when the run created the file. */
  readonly before: Uint8Array | undefined;
  /** Digest of what the run left; null when the run deleted the file. */
  readonly after: string | null;
}

/** The verdict for one file: restore it, nothing to do, or ask the user (with why). */
export type RevertCheck = { readonly kind: 'restore' } | { readonly kind: 'alreadyRestored' } | { readonly kind: 'changed'; readonly reason: string };

/** Digest of the file as the user sees it (unsaved editor text first); null when it does not exist. */
export async function currentDigest(host: WorkspaceHost, absolutePath: string): Promise<string | null> {
  const unsaved = host.unsavedText ? await host.unsavedText(absolutePath) : host.dirtyDocumentText(absolutePath);
  if (unsaved !== undefined) return contentDigest(Buffer.from(unsaved, 'utf8'));
  try {
    return contentDigest(await readFile(absolutePath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Compares what the file holds now (`current`, from currentDigest) with the journal. */
export function checkBeforeRevert(entry: JournalEntry, current: string | null): RevertCheck {
  const before = entry.before === undefined ? null : contentDigest(entry.before);
  if (current === before) return { kind: 'alreadyRestored' };
  if (current === entry.after) return { kind: 'restore' };
  if (entry.after === null) return { kind: 'changed', reason: 'The run deleted it, and it exists again.' };
  if (current === null) return { kind: 'changed', reason: 'It was deleted after the run.' };
  if (entry.before === undefined) return { kind: 'changed', reason: 'The run created it, and it was changed after the run.' };
  return { kind: 'changed', reason: 'It was changed after the run.' };
}
