// Reading a file the way the user sees it (unsaved editor text first) and
// applying an approved change: ask, re-check nothing moved while the user
// looked, journal the old state, then let the host write.

import { lstat, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { IgnoreRules, TANDEM_IGNORE_FILE } from './ignoreRules';
import type { ScopedPath } from './pathScope';
import type { ToolContext, ToolResult } from './tool';
import { looksBinary, REJECTED_EDIT_TEXT, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';
import type { WorkspaceHost } from './workspaceHost';

/** Larger files are refused by read and edit tools (a range of a large file is still fine for read_file). */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;

export interface FileText {
  readonly text: string;
  /** True when the text came from an editor with unsaved changes. */
  readonly fromEditor: boolean;
}

/** The text of an existing file, or a fault (missing, a folder, binary, too large). */
export async function readFileText(host: WorkspaceHost, target: ScopedPath): Promise<FileText> {
  const editorText = host.openDocumentText(target.absolute);
  if (editorText !== undefined) return { text: editorText, fromEditor: true };
  let info;
  try {
    info = await stat(target.absolute);
  } catch {
    throw new WorkspaceToolFault(`${target.display} does not exist.`);
  }
  if (info.isDirectory()) throw new WorkspaceToolFault(`${target.display} is a folder; use list_dir to see what is in it.`);
  // A FIFO or device would block the read or never end.
  if (!info.isFile()) throw new WorkspaceToolFault(`${target.display} is not a regular file.`);
  if (info.size > MAX_TEXT_FILE_BYTES) {
    throw new WorkspaceToolFault(`${target.display} is too large (${info.size} bytes; the limit is ${MAX_TEXT_FILE_BYTES}).`);
  }
  const bytes = await readFile(target.absolute);
  if (looksBinary(bytes)) throw new WorkspaceToolFault(`${target.display} is a binary file (${bytes.length} bytes); only text files can be read or edited.`);
  return { text: bytes.toString('utf8'), fromEditor: false };
}

/** The current text, or undefined when the file does not exist. */
export async function currentTextOrUndefined(host: WorkspaceHost, target: ScopedPath): Promise<string | undefined> {
  if (host.openDocumentText(target.absolute) === undefined && !(await pathExists(target.absolute))) return undefined;
  return (await readFileText(host, target)).text;
}

/** Refuses a path hidden by .gitignore or .tandemignore (for reads) or by .tandemignore only (for writes). */
export async function refuseIgnored(target: ScopedPath, isDirectory: boolean, access: 'read' | 'write'): Promise<void> {
  const by = await new IgnoreRules(target.folder.real).ignoredBy(target.relative, isDirectory);
  if (by === undefined) return;
  if (access === 'write' && by !== TANDEM_IGNORE_FILE) return;
  throw new WorkspaceToolFault(`${target.display} is excluded by ${by}, so the agent may not ${access} it.`);
}

export async function pathExists(absolute: string): Promise<boolean> {
  try {
    await lstat(absolute);
    return true;
  } catch {
    return false;
  }
}

/** Ancestors of a path that do not exist yet, outermost first. */
export async function missingAncestors(absolute: string, stopAt: string): Promise<string[]> {
  const missing: string[] = [];
  for (let current = path.dirname(absolute); current.length > stopAt.length && !(await pathExists(current)); current = path.dirname(current)) {
    missing.unshift(current);
  }
  return missing;
}

export interface ProposedChange {
  readonly toolName: string;
  readonly target: ScopedPath;
  readonly before: string | undefined;
  /** Undefined deletes the file. */
  readonly after: string | undefined;
  /** What the journal restores on revert (raw bytes, for files that are not text). */
  readonly beforeBytes?: Uint8Array | undefined;
}

/** Asks, then applies. Returns the rejection result, or undefined when the change was made. */
export async function applyApprovedChange(deps: WorkspaceToolDeps, context: ToolContext, change: ProposedChange): Promise<ToolResult | undefined> {
  const { target } = change;
  const approved = await context.approval.request(
    { kind: 'edit', toolName: change.toolName, path: target.absolute, before: change.before, after: change.after },
    context.signal,
  );
  context.signal.throwIfAborted();
  if (!approved) return { text: REJECTED_EDIT_TEXT };

  // The user may have typed in the file while the diff was open; never overwrite what they did not see.
  const now = change.beforeBytes === undefined ? await currentTextOrUndefined(deps.host, target) : change.before;
  if (now !== change.before) {
    throw new WorkspaceToolFault(`${target.display} changed while waiting for approval; nothing was written. Read it again and retry.`);
  }
  const beforeBytes = change.beforeBytes ?? (change.before === undefined ? undefined : Buffer.from(change.before, 'utf8'));
  if (change.after === undefined) {
    deps.journal.recordFile(context.runId, target.absolute, beforeBytes);
    await deps.host.deleteFile(target.absolute, context.signal);
    return undefined;
  }
  for (const directory of await missingAncestors(target.absolute, target.folder.real)) {
    deps.journal.recordCreatedDirectory(context.runId, directory);
  }
  deps.journal.recordFile(context.runId, target.absolute, beforeBytes);
  await deps.host.writeFile(target.absolute, Buffer.from(change.after, 'utf8'), context.signal);
  return undefined;
}
