// What a revert did, in one notice: the files put back, the folders the run
// had created and that are gone again, what was kept and what failed.
import type { RevertOutcome } from './editJournal';

/** "Reverted 2 files changed by that run: a.ts, b.ts. Removed the folder it created: docs. Kept 1 file changed after the run: c.ts." */
export function revertSummary(outcome: RevertOutcome, name: (file: string) => string): string {
  const plural = (count: number) => `${count} file${count === 1 ? '' : 's'}`;
  const names = (files: readonly string[]) => (files.length > 5 ? `${files.slice(0, 5).map(name).join(', ')} and ${files.length - 5} more` : files.map(name).join(', '));
  let text = `Reverted ${plural(outcome.restored.length)} changed by that run${outcome.restored.length > 0 ? `: ${names(outcome.restored)}` : ''}.`;
  const folders = outcome.removedFolders;
  if (folders.length > 0) text += ` Removed the folder${folders.length === 1 ? '' : 's'} it created: ${names(folders)}.`;
  if (outcome.skipped.length > 0) text += ` Kept ${plural(outcome.skipped.length)} changed after the run: ${outcome.skipped.map(name).join(', ')}.`;
  if (outcome.failed.length > 0) text += ` Could not restore ${outcome.failed.map((failure) => `${name(failure.path)} (${failure.reason})`).join(', ')}.`;
  return text;
}
