// Reading a file the way the user sees it (unsaved editor text first) and
// applying an approved change: ask, re-check nothing moved while the user
// looked, journal the old state, then let the host write.

import { diffLines } from 'diff';
import { lstat, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { GIT_IGNORE_FILE, IgnoreRules } from './ignoreRules';
import { isInside, realpathOfNearestExisting, scopeFolders, type ScopedPath } from './pathScope';
import { SensitivePaths } from './sensitivePaths';
import type { ToolContext, ToolResult } from './tool';
import { decodeFileBytes, encodingName, type FileEncoding } from './textEncoding';
import { CancelledError } from '../common/errors';
import { doesNotExist, REJECTED_EDIT_TEXT, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';
import type { WorkspaceHost } from './workspaceHost';
import { byteSize, sizeOverLimit } from '../common/byteSize';

/** Larger files are refused by read and edit tools (a range of a large file is still fine for read_file). */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;

export interface FileText {
  readonly text: string;
  /** True when the text came from an editor with unsaved changes. */
  readonly fromEditor: boolean;
  /** Set when the file on disk is not UTF-8: how it was read (it is not written back). */
  readonly encoding?: Exclude<FileEncoding, 'utf-8'> | undefined;
}

/** The text of an existing file, or a fault (missing, a folder, binary, too large). */
export async function readFileText(host: WorkspaceHost, target: ScopedPath): Promise<FileText> {
  const editorText = host.dirtyDocumentText(target.absolute);
  if (editorText !== undefined) return { text: editorText, fromEditor: true };
  let info;
  try {
    info = await stat(target.absolute);
  } catch {
    throw new WorkspaceToolFault(`${doesNotExist(target)}.`);
  }
  if (info.isDirectory()) throw new WorkspaceToolFault(`${target.display} is a folder; use list_dir to see what is in it.`);
  // A FIFO or device would block the read or never end.
  if (!info.isFile()) throw new WorkspaceToolFault(`${target.display} is not a regular file.`);
  if (info.size > MAX_TEXT_FILE_BYTES) {
    throw new WorkspaceToolFault(`${target.display} is too large (${sizeOverLimit(info.size, MAX_TEXT_FILE_BYTES)}; the limit is ${byteSize(MAX_TEXT_FILE_BYTES)}).`);
  }
  const bytes = await readFile(target.absolute);
  const decoded = decodeFileBytes(bytes);
  if (decoded.kind === 'binary') throw new WorkspaceToolFault(`${target.display} is a binary file (${bytes.length} bytes); only text files can be read or edited.`);
  return { text: decoded.text, fromEditor: false, encoding: decoded.encoding === 'utf-8' ? undefined : decoded.encoding };
}

/**
 * Refuses to change a file whose bytes on disk are not UTF-8 (an editor's
 * text included: VS Code shows such a file with replacement characters unless
 * told its encoding, and saving would write them). Tandem writes UTF-8, which
 * would change every character outside the edit without the diff showing it.
 */
export async function refuseNonUtf8(target: ScopedPath): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await readFile(target.absolute);
  } catch {
    return; // Not on disk (yet): written as UTF-8.
  }
  const decoded = decodeFileBytes(bytes);
  if (decoded.kind === 'binary' || decoded.encoding === 'utf-8') return;
  throw new WorkspaceToolFault(
    `${target.display} is encoded as ${encodingName(decoded.encoding)}, and Tandem writes files as UTF-8 only: changing it would also change ` +
      'every non-ASCII character outside the edit. Nothing was changed. Tell the user: converting the file to UTF-8 first ' +
      '(in VS Code: click the encoding in the status bar, then Save with Encoding) lets the agent edit it.',
  );
}

/** The current text, or undefined when the file does not exist. */
export async function currentTextOrUndefined(host: WorkspaceHost, target: ScopedPath): Promise<string | undefined> {
  if (host.dirtyDocumentText(target.absolute) === undefined && !(await pathExists(target.absolute))) return undefined;
  return (await readFileText(host, target)).text;
}

/**
 * Refuses a path hidden by .gitignore or .tandemignore, for writes as for
 * reads: a write that answered "text not found" or "already has this
 * content" would tell the model what an ignored `.env` holds. True when the
 * path is .gitignore'd and `gitIgnoredAllowed` let it through.
 */
export async function refuseIgnored(target: ScopedPath, isDirectory: boolean, access: 'read' | 'write', gitIgnoredAllowed = false): Promise<boolean> {
  const by = await new IgnoreRules(target.folder.real).ignoredBy(target.relative, isDirectory);
  if (by === undefined) return false;
  // `gitIgnoredAllowed`: the user consents (asked, or chose the path); .tandemignore is their "keep out" and always refuses.
  if (gitIgnoredAllowed && by === GIT_IGNORE_FILE) return true;
  throw new WorkspaceToolFault(`${target.display} is excluded by ${by}, so the agent may not ${access} it.`);
}

/**
 * Before reading a path .gitignore excludes (a dependency, build output, a
 * local `.env`): the user is asked, every time, before anything about the
 * path is looked at, so neither an answer nor a refusal tells the model more
 * than the path it named. .tandemignore still refuses outright: it is the
 * user's own "keep the agent out". `declined` is the result to give instead
 * when the read may not go ahead.
 */
export async function askToReadIgnored(
  target: ScopedPath,
  isDirectory: boolean,
  context: ToolContext,
  call: { readonly toolName: string; readonly arguments: unknown },
): Promise<{ readonly ignored: boolean; readonly declined?: ToolResult }> {
  if (!(await refuseIgnored(target, isDirectory, 'read', true))) return { ignored: false };
  const what = isDirectory ? `the folder ${target.display}` : target.display;
  const approved = await context.approval.request(
    {
      kind: 'toolCall',
      toolName: call.toolName,
      toolCallId: context.callId,
      arguments: call.arguments,
      readOnly: false,
      summary: `Read ${what}, which .gitignore keeps from the agent (dependencies, build output, local secrets such as .env).`,
      // Asked for each path, whatever the policy or the always-allow list says: such a file may hold a key.
      alwaysAsks: true,
      alwaysAllow: null,
      allowedBy: () => false,
    },
    context.signal,
  );
  if (context.signal.aborted) throw new CancelledError();
  if (approved) return { ignored: true };
  return { ignored: true, declined: { text: `The user did not allow reading ${what} (excluded by .gitignore); it was not read.`, rejected: true } };
}

/** True when a change to this path must always ask (DESIGN.md's list plus `tandem.tools.sensitivePaths`). */
export function isSensitiveTarget(host: WorkspaceHost, target: ScopedPath, isDirectory = false): boolean {
  const rules = new SensitivePaths(host.sensitivePaths?.() ?? []);
  return rules.matches(target.relative, isDirectory) || rules.matches(target.lexical, isDirectory);
}

/**
 * Right before writing, after the user approved: the path must still resolve
 * to the very place that was shown, inside an open workspace folder, with no
 * symbolic link (or second hard link) swapped in while the user looked.
 */
export async function recheckBeforeWrite(host: WorkspaceHost, target: ScopedPath): Promise<void> {
  const nothing = 'nothing was written';
  const folders = await scopeFolders(host.folders());
  const folder = folders.find((candidate) => candidate.real === target.folder.real);
  if (folder === undefined) throw new WorkspaceToolFault(`${target.display}: its workspace folder is no longer open; ${nothing}.`);
  let real: { path: string; exists: boolean };
  try {
    real = await realpathOfNearestExisting(target.absolute);
  } catch (error) {
    throw new WorkspaceToolFault(`${target.display} can no longer be resolved (${error instanceof Error ? error.message : String(error)}); ${nothing}.`);
  }
  if (real.path !== target.absolute || !isInside(folder.real, real.path)) {
    throw new WorkspaceToolFault(`${target.display} now leads somewhere else (a symbolic link appeared in its path while waiting for approval); ${nothing}.`);
  }
  if (real.exists) {
    const info = await lstat(target.absolute);
    if (info.isSymbolicLink()) throw new WorkspaceToolFault(`${target.display} became a symbolic link while waiting for approval; ${nothing}.`);
    if (info.isFile() && info.nlink > 1) throw new WorkspaceToolFault(`${target.display} gained another hard link while waiting for approval; ${nothing}.`);
  }
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

function countLines(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** How long the approval summary may spend counting changed lines; past it, the sizes before and after. */
const DIFF_TIMEOUT_MS = 50;

/**
 * "12 lines" for a new file; for a change, the lines it adds and removes and
 * the size after ("+1 −1 lines, 364 lines"): a one-line edit of a long file
 * must not read as "364 → 364 lines".
 */
export function describeSize(before: string | undefined, after: string): string {
  const lines = (count: number) => `${count} line${count === 1 ? '' : 's'}`;
  if (before === undefined) return lines(countLines(after));
  // Bounded: a rewrite of a long file costs the diff seconds, and this runs on the extension host before every write.
  const parts = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (parts === undefined) return `${countLines(before)} → ${lines(countLines(after))}`;
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  if (added === 0 && removed === 0) return `no line changed, ${lines(countLines(after))}`;
  return `+${added} −${removed} line${added + removed === 1 ? '' : 's'}, ${lines(countLines(after))}`;
}

/** Whether the file (or its unsaved editor text) still holds `shown`: what the journal would restore on Undo. */
async function sameBytesAsShown(host: WorkspaceHost, target: ScopedPath, shown: Uint8Array): Promise<boolean> {
  const editorText = host.dirtyDocumentText(target.absolute);
  let now: Uint8Array;
  try {
    now = editorText !== undefined ? Buffer.from(editorText, 'utf8') : await readFile(target.absolute);
  } catch {
    return false;
  }
  return Buffer.from(now.buffer, now.byteOffset, now.byteLength).equals(shown);
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
  const sensitive = isSensitiveTarget(deps.host, target);
  const verb = change.after === undefined ? 'Delete' : change.before === undefined ? 'Create' : 'Change';
  const approved = await context.approval.request(
    {
      kind: 'edit',
      toolName: change.toolName,
      toolCallId: context.callId,
      path: target.absolute,
      before: change.before,
      after: change.after,
      summary: `${verb} ${target.display}${change.after === undefined ? '' : ` (${describeSize(change.before, change.after)})`}${sensitive ? ' — a sensitive path' : ''}`,
      sensitive,
    },
    context.signal,
  );
  context.signal.throwIfAborted();
  if (!approved) return { text: REJECTED_EDIT_TEXT, rejected: true };

  // The user may have typed in the file while the diff was open; never overwrite what they did not see.
  const unchanged = change.beforeBytes === undefined ? (await currentTextOrUndefined(deps.host, target)) === change.before : await sameBytesAsShown(deps.host, target, change.beforeBytes);
  if (!unchanged) {
    throw new WorkspaceToolFault(`${target.display} changed while waiting for approval; ${change.after === undefined ? 'it was not deleted' : 'nothing was written'}. Read it again and retry.`);
  }
  await recheckBeforeWrite(deps.host, target);
  const beforeBytes = change.beforeBytes ?? (change.before === undefined ? undefined : Buffer.from(change.before, 'utf8'));
  const mode = beforeBytes === undefined ? undefined : await stat(target.absolute).then((info) => info.mode & 0o7777, () => undefined);
  if (change.after === undefined) {
    deps.journal.recordFile(context.runId, target.absolute, beforeBytes, undefined, mode);
    await deps.host.deleteFile(target.absolute, context.signal);
    return undefined;
  }
  for (const directory of await missingAncestors(target.absolute, target.folder.real)) {
    deps.journal.recordCreatedDirectory(context.runId, directory);
  }
  const afterBytes = Buffer.from(change.after, 'utf8');
  deps.journal.recordFile(context.runId, target.absolute, beforeBytes, afterBytes, mode);
  await deps.host.writeFile(target.absolute, afterBytes, context.signal);
  return undefined;
}
