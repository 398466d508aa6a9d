import { Minimatch } from 'minimatch';
import { z } from 'zod';
import { itemsThatFit } from '../agent/resultCap';
import { IgnoreRules } from './ignoreRules';
import { displayPath, type ScopedFolder } from './pathScope';
import type { Tool, ToolResult } from './tool';
import { defineWorkspaceTool, requireFolders, type WorkspaceToolDeps } from './workspaceToolSupport';
import { walkFolder } from './workspaceWalker';

export const FIND_DEFAULT_LIMIT = 200;

export function createFindFilesTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'find_files',
    description:
      "Find files of the workspace by glob, e.g. '**/*.ts', 'src/**/test_*.py', '*.md'. A glob without '/' matches the file name at any depth. " +
      'Files ignored by .gitignore or .tandemignore are left out. Returns paths, capped at limit and at what fits in one result, with the total count.',
    readOnly: true,
    input: z.object({
      pattern: z.string().min(1).describe('Glob matched against the path relative to the workspace folder.'),
      limit: z.number().int().min(1).max(5000).default(FIND_DEFAULT_LIMIT).describe('Most paths to return.'),
    }),
    run: async (args, context) => {
      const folders = await requireFolders(deps.host);
      const glob = args.pattern.replace(/^\.\//u, '');
      const matcher = new Minimatch(glob, { dot: true, matchBase: !glob.includes('/'), nocase: false });
      const found: string[] = [];
      let total = 0;
      for (const folder of folders) {
        // In a multi-root workspace a glob may also start with the folder's name.
        const prefixed = folders.length > 1 && glob.startsWith(`${folder.name}/`) ? new Minimatch(glob.slice(folder.name.length + 1), { dot: true }) : undefined;
        await walkFolder(folder, new IgnoreRules(folder.real), {
          signal: context.signal,
          onEntry: (entry) => {
            if (entry.kind !== 'file') return undefined;
            if (!matcher.match(entry.relative) && prefixed?.match(entry.relative) !== true) return undefined;
            total += 1;
            if (found.length < args.limit) found.push(displayPath(folder, entry.relative, folders.length));
            return undefined;
          },
        });
      }
      if (total === 0) return noFileMatches(folders, args.pattern, glob, args.limit, context.signal);
      const quoted = JSON.stringify(args.pattern);
      const headerShowing = (shownCount: number) => `${total} files match ${quoted} (showing the first ${shownCount}):`;
      const overflow = (shownCount: number) => `\n[${found.length - shownCount} more paths found do not fit in one result; narrow the pattern (e.g. start it with a folder) to see them.]`;
      // Measured with the longest header and note: the numbers of the page actually shown have no more digits.
      const shown = itemsThatFit(found, headerShowing(found.length).length + overflow(0).length);
      const header = shown < total ? headerShowing(shown) : `${total} files match ${quoted}:`;
      let text = [header, ...found.slice(0, shown)].join('\n');
      if (shown < found.length) text += overflow(shown);
      return {
        text,
        summary: { kind: 'search', total, top: found.slice(0, 3).map((title) => ({ title })) },
      };
    },
  });
}

/** Files listed whose names contain a bare pattern that matched nothing: suggestions, so fewer than a full page. */
const CONTAINING_NAMES_SHOWN = 50;

/**
 * Nothing matched. Models often pass a bare name ('renderer' for
 * lib/renderer.mjs): such a pattern is looked for inside file names, ignoring
 * case; else the answer says how to write the glob.
 */
async function noFileMatches(folders: readonly ScopedFolder[], pattern: string, glob: string, limit: number, signal: AbortSignal): Promise<ToolResult> {
  const bare = !/[/*?[\]{}]/u.test(glob);
  if (bare) {
    const part = glob.toLowerCase();
    const found: string[] = [];
    let total = 0;
    for (const folder of folders) {
      await walkFolder(folder, new IgnoreRules(folder.real), {
        signal,
        onEntry: (entry) => {
          if (entry.kind !== 'file' || !entry.relative.slice(entry.relative.lastIndexOf('/') + 1).toLowerCase().includes(part)) return undefined;
          total += 1;
          if (found.length < Math.min(limit, CONTAINING_NAMES_SHOWN)) found.push(displayPath(folder, entry.relative, folders.length));
          return undefined;
        },
      });
    }
    if (total > 0) {
      const shown = total > found.length ? ` (showing the first ${found.length})` : '';
      const header = `No file is named ${JSON.stringify(pattern)} exactly; ${total === 1 ? '1 file name contains' : `${total} file names contain`} it${shown}:`;
      return { text: [header, ...found].join('\n'), summary: { kind: 'search', total, top: found.slice(0, 3).map((title) => ({ title })) } };
    }
  }
  const example = bare ? glob : 'name';
  const either = bare ? 'No file name contains it either. ' : '';
  return {
    text:
      `No files match ${JSON.stringify(pattern)}. ${either}A pattern without '/' must match a whole file name, at any depth: ` +
      `'*${example}*' or '${example}.*' for part of a name, '**/${example}/**' for the files in folders of that name; ` +
      "a pattern with '/' matches the path from the workspace folder, e.g. 'src/**/*.ts'.",
    summary: { kind: 'search', total: 0, top: [] },
  };
}
