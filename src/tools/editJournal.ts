// Remembers, per run, what each touched file held before the run first
// changed it, so "Revert this run's edits" can put every file back: rewrite
// changed ones, delete created ones, recreate deleted ones, remove folders the
// run created (when empty again).

import type { WorkspaceHost } from './workspaceHost';

interface RunRecord {
  /** Absolute path -> bytes before the run's first change (undefined: it did not exist). */
  readonly files: Map<string, Uint8Array | undefined>;
  readonly createdDirectories: string[];
}

export interface RevertOutcome {
  /** Absolute paths put back (files and removed folders). */
  readonly restored: string[];
  readonly failed: { readonly path: string; readonly reason: string }[];
}

export class EditJournal {
  private readonly runs = new Map<string, RunRecord>();
  private readonly listeners = new Set<(runId: string) => void>();

  constructor(private readonly host: WorkspaceHost) {}

  /** Records a file's state before a change; only the first record of a run counts. */
  recordFile(runId: string, absolutePath: string, before: Uint8Array | undefined): void {
    const run = this.runOf(runId);
    if (!run.files.has(absolutePath)) run.files.set(absolutePath, before);
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

  /** Restores every file the run touched, newest change first; the run's record is then dropped. */
  async revertRun(runId: string, signal: AbortSignal = new AbortController().signal): Promise<RevertOutcome> {
    const run = this.runs.get(runId);
    const outcome: RevertOutcome = { restored: [], failed: [] };
    if (run === undefined) return outcome;
    this.runs.delete(runId);
    for (const [file, before] of [...run.files].reverse()) {
      try {
        if (before === undefined) await this.host.deleteFile(file, signal);
        else await this.host.writeFile(file, before, signal);
        outcome.restored.push(file);
      } catch (error) {
        outcome.failed.push({ path: file, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    for (const directory of [...run.createdDirectories].reverse()) {
      try {
        await this.host.removeEmptyDirectory(directory, signal);
        outcome.restored.push(directory);
      } catch (error) {
        outcome.failed.push({ path: directory, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    this.changed(runId);
    return outcome;
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
