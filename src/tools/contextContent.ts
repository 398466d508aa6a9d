// What an item attached to a message (a context chip) contributes: a file's
// text or a folder's listing, read under the same rules as the workspace
// tools (inside a workspace folder, not in .git, not excluded by .gitignore
// unless the user chose it, never by .tandemignore), capped so one large file
// cannot fill the context.

import { stat } from 'node:fs/promises';
import { IgnoreRules } from './ignoreRules';
import { resolveScopedPath, scopeFolders, type ScopedPath } from './pathScope';
import { readFileText, refuseIgnored } from './workspaceFiles';
import { walkFolder } from './workspaceWalker';
import { doesNotExist, WorkspaceToolFault } from './workspaceToolSupport';
import type { WorkspaceHost } from './workspaceHost';

/** Each attached item's text is cut to this many characters (head and tail kept). */
export const CONTEXT_ITEM_MAX_CHARS = 16_000;
/** A folder's listing stops after this many entries. */
export const CONTEXT_FOLDER_MAX_ENTRIES = 200;

/** `text` cut to `max` characters: its head and tail, with the number of characters left out between them. */
export function capHeadTail(text: string, max = CONTEXT_ITEM_MAX_CHARS): string {
  if (text.length <= max) return text;
  // Most of what matters (imports, declarations, a heading) is at the top.
  const head = Math.ceil(max * 0.6);
  const tail = max - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}${omissionMark(omitted)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/** The line that says how much of an item was left out (omittedCharacters reads it back). */
export function omissionMark(omitted: number): string {
  return `\n[… ${omitted} characters omitted …]\n`;
}

/** How many characters capHeadTail left out of an item's block; 0 when it was not cut. */
export function omittedCharacters(block: string): number {
  const mark = /\n\[… (\d+) characters omitted …\]\n/u.exec(block);
  return mark ? Number(mark[1]) : 0;
}

/** `text` in a Markdown code fence longer than any backtick run inside it. */
export function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/gu)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

/** One attached item as the model reads it: a heading naming it, then its capped text in a fence. */
export function contextBlock(heading: string, body: string, language = ''): string {
  return `${heading}:\n${fence(capHeadTail(body), language)}`;
}

export interface ContextPath {
  readonly target: ScopedPath;
  readonly isDirectory: boolean;
  /** Excluded by .gitignore, attached because the user chose it by name. */
  readonly gitIgnored: boolean;
}

/**
 * How a path came to be attached. `chosen`: the user picked it (the @ picker,
 * Add to Context), which is their consent to send a file .gitignore excludes,
 * as selecting its text would be; anything else (open editors, a diff) keeps
 * such files out. .tandemignore keeps them out either way.
 */
export type ContextChoice = 'chosen' | 'gathered';

/** Resolves a path the user attached, under the tools' rules; a fault says why it cannot be attached. */
export async function resolveContextPath(host: WorkspaceHost, input: string, choice: ContextChoice = 'gathered'): Promise<ContextPath> {
  const target = await resolveScopedPath(input, await scopeFolders(host.folders()));
  if (!target.ok) throw new WorkspaceToolFault(target.message);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(target.absolute)).isDirectory();
  } catch {
    if (host.dirtyDocumentText(target.absolute) === undefined) throw new WorkspaceToolFault(`${doesNotExist(target)}.`);
    isDirectory = false;
  }
  const gitIgnored = await refuseIgnored(target, isDirectory, 'read', choice === 'chosen');
  return { target, isDirectory, gitIgnored };
}

/** The block for an attached file: its text (unsaved editor text first), capped. */
export async function fileContextBlock(host: WorkspaceHost, input: string, choice: ContextChoice = 'gathered'): Promise<string> {
  const { target, isDirectory } = await resolveContextPath(host, input, choice);
  if (isDirectory) return folderContextBlock(host, input, undefined, choice);
  const { text } = await readFileText(host, target);
  return contextBlock(`Attached file ${target.display}`, text, languageOf(target.relative));
}

/** The block for an attached folder: the paths inside it, ignored ones left out, capped. */
export async function folderContextBlock(host: WorkspaceHost, input: string, signal = new AbortController().signal, choice: ContextChoice = 'gathered'): Promise<string> {
  const { target, isDirectory, gitIgnored } = await resolveContextPath(host, input, choice);
  if (!isDirectory) return fileContextBlock(host, input, choice);
  // Walk a few times the cap, then keep the shallowest entries: the folder's outline, not one deep corner of it.
  const found: { path: string; depth: number }[] = [];
  let more = false;
  await walkFolder(target.folder, new IgnoreRules(target.folder.real), {
    signal,
    start: target.relative,
    // Inside a folder .gitignore excludes (the user chose it), its rules would hide everything.
    gitignore: !gitIgnored,
    onEntry: (entry) => {
      if (found.length >= CONTEXT_FOLDER_MAX_ENTRIES * 5) {
        more = true;
        return 'stop';
      }
      const inside = target.relative === '' ? entry.relative : entry.relative.slice(target.relative.length + 1);
      found.push({ path: entry.kind === 'directory' ? `${inside}/` : inside, depth: entry.depth });
      return undefined;
    },
  });
  if (found.length > CONTEXT_FOLDER_MAX_ENTRIES) more = true;
  const entries = found
    .sort((a, b) => a.depth - b.depth)
    .slice(0, CONTEXT_FOLDER_MAX_ENTRIES)
    .map((entry) => entry.path)
    .sort();
  const listing = entries.length === 0 ? '(empty)' : entries.join('\n');
  const note = more ? `\n[listing stopped after ${CONTEXT_FOLDER_MAX_ENTRIES} entries]` : '';
  return contextBlock(`Attached folder ${target.display} (its files and folders, ignored ones left out)`, listing + note);
}

/** A fence language from the file name, for readability only. */
function languageOf(relative: string): string {
  const extension = /\.([a-z0-9]+)$/iu.exec(relative)?.[1]?.toLowerCase() ?? '';
  return /^[a-z0-9]{1,10}$/u.test(extension) ? extension : '';
}
