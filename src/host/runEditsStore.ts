// The edit journals of a conversation's runs, beside its log: one JSON file
// per run that changed files, in `<conversation id>.edits/`, so a revert
// still works after a window reload or from history. Deleted with the
// conversation. No `vscode` import.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseJournalSnapshot, type JournalRunSnapshot } from '../tools/editJournalSnapshot';

const idPattern = /^[A-Za-z0-9-]{1,100}$/u;

export class RunEditsStore {
  constructor(private readonly directory: string) {}

  async save(conversationId: string, runId: string, snapshot: JournalRunSnapshot): Promise<void> {
    const file = this.file(conversationId, runId);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a crash leaves the old record or none, never half of one.
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(snapshot), 'utf8');
    await rename(temporary, file);
  }

  /** The stored journal of a run; undefined when there is none or it cannot be read. */
  async load(conversationId: string, runId: string): Promise<JournalRunSnapshot | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(conversationId, runId), 'utf8');
    } catch {
      return undefined;
    }
    try {
      return parseJournalSnapshot(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  async remove(conversationId: string, runId: string): Promise<void> {
    await rm(this.file(conversationId, runId), { force: true });
  }

  async removeConversation(conversationId: string): Promise<void> {
    await rm(this.folder(conversationId), { recursive: true, force: true });
  }

  private folder(conversationId: string): string {
    if (!idPattern.test(conversationId)) throw new Error(`Not a conversation id: ${conversationId}`);
    return path.join(this.directory, `${conversationId}.edits`);
  }

  private file(conversationId: string, runId: string): string {
    if (!idPattern.test(runId)) throw new Error(`Not a run id: ${runId}`);
    return path.join(this.folder(conversationId), `${runId}.json`);
  }
}
