// The uncommitted changes of a Git repository as an attached item: its diff
// (staged, then not staged) cut into one section per file, then the files Git
// does not track yet (no diff has them) with their text; each file checked
// under the same rules as any attached path (inside a workspace folder, not in
// .git, not excluded by .gitignore or .tandemignore). An excluded file's
// changes are left out and named as left out: its content never goes. The
// item has one budget: files' changes come whole while they fit, the next is
// cut at a line, the rest are named, so nothing is cut mid-hunk unsaid.
import * as path from 'node:path';
import { resolveScopedPath, scopeFolders } from './pathScope';
import { capHeadTail, CONTEXT_ITEM_MAX_CHARS, resolveContextPath } from './contextContent';
import { readFileText, refuseIgnored } from './workspaceFiles';
import type { WorkspaceHost } from './workspaceHost';

export interface RepositoryDiff {
  /** The repository's root folder, absolute. */
  readonly root: string;
  /** `git diff --cached`. */
  readonly staged: string;
  /** `git diff`. */
  readonly unstaged: string;
  /** New files Git does not track yet, absolute. */
  readonly untracked: readonly string[];
}

/** A new file's text is cut to this many characters: the whole item has one budget. */
const NEW_FILE_MAX_CHARS = 4_000;
/**
 * The diff, then new files' text, stop here: what is left of the item's
 * budget holds the headings and the two lists of files not shown.
 */
const CONTENT_BUDGET = CONTEXT_ITEM_MAX_CHARS - 3_000;
/** Each list of files not shown names files up to this many characters. */
const NAMES_MAX_CHARS = 1_000;
/** A file's changes larger than what is left are cut to it when at least this much is left; else only named. */
const LEAST_CUT_SECTION = 1_500;

interface FileSection {
  /** The path the section changes (the new one for a rename), relative to the repository's root. */
  readonly file: string;
  readonly text: string;
}

/** Cuts a unified Git diff at each `diff --git` line. */
export function diffSections(diff: string): FileSection[] {
  const sections: FileSection[] = [];
  const starts = [...diff.matchAll(/^diff --git (.*)$/gmu)];
  starts.forEach((start, index) => {
    const end = starts[index + 1]?.index ?? diff.length;
    sections.push({ file: pathOf(start[1] ?? ''), text: diff.slice(start.index, end).replace(/\n+$/u, '') });
  });
  return sections;
}

/** The `b/` side of `a/x b/x` (quoted when the path has unusual characters). */
function pathOf(names: string): string {
  const quoted = /"b\/((?:[^"\\]|\\.)*)"$/u.exec(names);
  if (quoted) return quoted[1]!.replace(/\\(.)/gu, '$1');
  const plain = / b\/(.*)$/u.exec(names);
  return plain?.[1] ?? names;
}

/** The repositories' changes as one text: each file's section, or a line saying why it was left out. */
export async function filteredDiff(host: WorkspaceHost, repositories: readonly RepositoryDiff[]): Promise<string> {
  const folders = await scopeFolders(host.folders());
  const parts: string[] = [];
  // Files whose changes come whole while the diff has room: the model never reads half a hunk, and knows what it did not see.
  let diffUsed = 0;
  for (const repository of repositories) {
    for (const [label, diff] of [['Staged', repository.staged], ['Not staged', repository.unstaged]] as const) {
      const kept: string[] = [];
      const unshown: string[] = [];
      /** Files left out (excluded, outside the workspace) once their own line no longer fits. */
      const leftOut: string[] = [];
      for (const section of diffSections(diff)) {
        const target = await resolveScopedPath(path.join(repository.root, section.file), folders);
        let text: string;
        try {
          if (!target.ok) throw new Error(target.message);
          // A deleted file is checked by its path alone.
          await refuseIgnored(target, false, 'read');
          const room = CONTENT_BUDGET - diffUsed;
          if (section.text.length < room) text = section.text;
          else if (room >= LEAST_CUT_SECTION) text = firstLines(section.text, room);
          else {
            unshown.push(section.file);
            continue;
          }
        } catch (error) {
          text = `[changes to ${section.file} left out: ${error instanceof Error ? error.message : String(error)}]`;
          if (text.length >= CONTENT_BUDGET - diffUsed) {
            leftOut.push(section.file);
            continue;
          }
        }
        kept.push(text);
        diffUsed += text.length + 1;
      }
      if (unshown.length > 0) kept.push(`[changes to ${unshown.length} more file${unshown.length === 1 ? '' : 's'} not shown, the item being full: ${names(unshown)}]`);
      if (leftOut.length > 0) kept.push(`[changes to ${leftOut.length} more file${leftOut.length === 1 ? '' : 's'} left out (excluded or outside the workspace): ${names(leftOut)}]`);
      if (kept.length > 0) parts.push(`# ${label} (${repository.root})\n${kept.join('\n')}`);
    }
    // The diff comes first: new files take what the item's budget leaves (less room for the headings), the rest are named.
    const added: string[] = [];
    const unshown: string[] = [];
    let used = parts.reduce((sum, part) => sum + part.length + 2, 0);
    for (const file of repository.untracked) {
      try {
        const { target } = await resolveContextPath(host, file);
        if (used >= CONTENT_BUDGET) {
          unshown.push(target.display);
          continue;
        }
        const { text } = await readFileText(host, target);
        const block = `new file ${target.display}:\n${capHeadTail(text, Math.min(NEW_FILE_MAX_CHARS, CONTENT_BUDGET - used))}`;
        added.push(block);
        used += block.length + 2;
      } catch (error) {
        added.push(`[new file ${path.relative(repository.root, file)} left out: ${error instanceof Error ? error.message : String(error)}]`);
      }
    }
    if (unshown.length > 0) {
      added.push(`[${unshown.length} more new file${unshown.length === 1 ? '' : 's'} not shown, the item being full (attach one to include it): ${names(unshown)}]`);
    }
    if (added.length > 0) parts.push(`# Not tracked yet (${repository.root})\n${added.join('\n\n')}`);
  }
  return parts.join('\n\n');
}

/** The whole lines of `text` that fit in `max` characters, and how many lines were left. */
function firstLines(text: string, max: number): string {
  const lines = text.split('\n');
  let length = 0;
  let count = 0;
  // Room for the closing note.
  while (count < lines.length && length + lines[count]!.length + 1 <= max - 100) length += lines[count++]!.length + 1;
  return `${lines.slice(0, count).join('\n')}\n[… ${lines.length - count} more lines of this file's changes not shown, the item being full]`;
}

/** File names, comma-separated, as many as fit in NAMES_MAX_CHARS. */
function names(files: readonly string[]): string {
  let text = '';
  for (const [index, file] of files.entries()) {
    if (text.length + file.length + 2 > NAMES_MAX_CHARS) return `${text}, … (${files.length - index} more)`;
    text += index === 0 ? file : `, ${file}`;
  }
  return text;
}
