// Remembers, per run, what each touched file held before the run first
// changed it and what the run left there, so "Revert this run's edits" can put
// every file back: rewrite changed ones, delete created ones, recreate deleted
// ones, remove folders the run created (when empty again). A file that no
// longer holds what the run left is restored only if the user says so. A run's
// record can be taken out as a snapshot and brought back (after a reload).

import { chmod, stat } from 'node:fs/promises';
import { contentDigest, type JournalRunSnapshot } from './editJournalSnapshot';
import { isInside, scopeFolders } from './pathScope';
import { checkBeforeRevert, currentDigest, type JournalEntry } from './revertCheck';
import type { WorkspaceHost } from './workspaceHost';

interface MutableEntry {
  readonly before: Uint8Array | undefined;
  /** The file's permission bits before the run, when it existed (a deleted script comes back executable). */
  readonly mode?: number | undefined;
  after: string | null;
}

interface RunRecord {
  /** Absolute path -> its state before the run and what the run left. */
  readonly files: Map<string, MutableEntry>;
  readonly createdDirectories: string[];
}

export interface RevertOutcome {
  /** Absolute paths of the files put back. */
  readonly restored: string[];
  /** Folders the run created, removed again (only when empty). */
  readonly removedFolders: string[];
  /** Files changed after the run that the user chose to keep. */
  readonly skipped: string[];
  readonly failed: { readonly path: string; readonly reason: string }[];
}

/** A file that no longer holds what the run left: the user decides. */
export interface RevertConflict {
  readonly path: string;
  /** Why it is asked, e.g. "It was changed after the run." */
  readonly reason: string;
  /** True when restoring deletes it (the run created it). */
  readonly deletes: boolean;
}

export interface RevertOptions {
  /** Asked per changed file: true restores it anyway, false keeps it. Absent: changed files are kept. */
  readonly confirm?: (conflict: RevertConflict) => Promise<boolean>;
  readonly signal?: AbortSignal;
}

export class EditJournal {
  private readonly runs = new Map<string, RunRecord>();
  private readonly listeners = new Set<(runId: string) => void>();

  constructor(private readonly host: WorkspaceHost) {}

  /**
   * Records a change about to be made: the state before counts from the run's
   * first change of the file, `after` (undefined: deleted) from its last.
   */
  recordFile(runId: string, absolutePath: string, before: Uint8Array | undefined, after: Uint8Array | undefined, mode?: number): void {
    const run = this.runOf(runId);
    const digest = after === undefined ? null : contentDigest(after);
    const entry = run.files.get(absolutePath);
    if (entry === undefined) run.files.set(absolutePath, { before, mode: before === undefined ? undefined : mode, after: digest });
    else entry.after = digest;
    this.changed(runId);
  }

  recordCreatedDirectory(runId: string, absolutePath: string): void {
    const run = this.runOf(runId);
    if (!run.createdDirectories.includes(absolutePath)) run.createdDirectories.push(absolutePath);
    this.changed(runId);
  }

  /** Absolute paths of files the run changed, in the order first touched. */
  touchedFiles(runId: string): string[] {
    return [...(this.runs.get(runId)?.files.keys() ?? [])];
  }

  hasEdits(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** The most recent run with edits not yet reverted. */
  latestRunWithEdits(): string | undefined {
    return [...this.runs.keys()].at(-1);
  }

  /** Called with a run id when its journal changes (the panel can show its revert button). */
  onDidChange(listener: (runId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The run's record in its stored form; undefined when it has none. */
  snapshot(runId: string): JournalRunSnapshot | undefined {
    const run = this.runs.get(runId);
    if (run === undefined) return undefined;
    return {
      version: 1,
      files: [...run.files].map(([path, entry]) => ({
        path,
        before: entry.before === undefined ? null : Buffer.from(entry.before).toString('base64'),
        ...(entry.mode === undefined ? {} : { mode: entry.mode }),
        after: entry.after,
      })),
      createdDirectories: [...run.createdDirectories],
    };
  }

  /** Brings back a stored record (a reload forgot it); a record this journal still holds wins. */
  adopt(runId: string, snapshot: JournalRunSnapshot): void {
    if (this.runs.has(runId)) return;
    const files = new Map<string, MutableEntry>();
    for (const file of snapshot.files) {
      files.set(file.path, { before: file.before === null ? undefined : Buffer.from(file.before, 'base64'), mode: file.mode, after: file.after });
    }
    this.runs.set(runId, { files, createdDirectories: [...snapshot.createdDirectories] });
    this.changed(runId);
  }

  /**
   * Restores every file the run touched, newest change first. A file that
   * does not hold what the run left is restored only when `confirm` says so.
   * The run's record is then dropped, except for the workspace files whose
   * restore failed (say, a read-only file): those stay, so a second revert
   * can try them again.
   */
  async revertRun(runId: string, options: RevertOptions = {}): Promise<RevertOutcome> {
    const signal = options.signal ?? new AbortController().signal;
    const run = this.runs.get(runId);
    const outcome: RevertOutcome = { restored: [], removedFolders: [], skipped: [], failed: [] };
    if (run === undefined) return outcome;
    this.runs.delete(runId);
    // A stored record names absolute paths: only those inside an open workspace folder are touched.
    const folders = await scopeFolders(this.host.folders());
    const inWorkspace = (file: string) => folders.some((folder) => isInside(folder.real, file));
    const retry: [string, MutableEntry][] = [];
    for (const [file, entry] of [...run.files].reverse()) {
      try {
        if (!inWorkspace(file)) throw new Error('it is not inside an open workspace folder');
        const verdict = await this.decide(file, entry, options.confirm);
        if (verdict === 'skip') {
          outcome.skipped.push(file);
          continue;
        }
        if (verdict === 'restore') {
          if (entry.before === undefined) await this.host.deleteFile(file, signal);
          else {
            await this.host.writeFile(file, entry.before, signal);
            await restoreMode(file, entry.mode);
          }
        }
        outcome.restored.push(file);
      } catch (error) {
        outcome.failed.push({ path: file, reason: error instanceof Error ? error.message : String(error) });
        if (inWorkspace(file)) retry.unshift([file, entry]);
      }
    }
    if (retry.length > 0) this.runs.set(runId, { files: new Map(retry), createdDirectories: [] });
    for (const directory of [...run.createdDirectories].reverse()) {
      try {
        if (!inWorkspace(directory)) throw new Error('it is not inside an open workspace folder');
        await this.host.removeEmptyDirectory(directory, signal);
        outcome.removedFolders.push(directory);
      } catch (error) {
        outcome.failed.push({ path: directory, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    this.changed(runId);
    return outcome;
  }

  private async decide(file: string, entry: JournalEntry, confirm: RevertOptions['confirm']): Promise<'restore' | 'nothing' | 'skip'> {
    const check = checkBeforeRevert(entry, await currentDigest(this.host, file));
    if (check.kind === 'restore') return 'restore';
    if (check.kind === 'alreadyRestored') return 'nothing';
    const anyway = confirm ? await confirm({ path: file, reason: check.reason, deletes: entry.before === undefined }) : false;
    return anyway ? 'restore' : 'skip';
  }

  private runOf(runId: string): RunRecord {
    let run = this.runs.get(runId);
    if (run === undefined) {
      run = { files: new Map(), createdDirectories: [] };
      this.runs.set(runId, run);
    }
    return run;
  }

  private changed(runId: string): void {
    for (const listener of this.listeners) listener(runId);
  }
}

/** Puts back the permission bits a file had (a file the run deleted is written anew with the defaults). */
async function restoreMode(file: string, mode: number | undefined): Promise<void> {
  if (mode === undefined || process.platform === 'win32') return;
  try {
    if (((await stat(file)).mode & 0o7777) !== mode) await chmod(file, mode);
  } catch {
    // The content is back; its mode is a nicety the file system may not keep.
  }
}
