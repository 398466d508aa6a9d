import { Minimatch } from 'minimatch';
import { z } from 'zod';
import { fittedListing } from '../agent/resultCap';
import { IgnoreRules } from './ignoreRules';
import { displayPath } from './pathScope';
import { quotedInput } from './quotedInput';
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
      // Models often pass a bare name ('renderer' for lib/renderer.mjs): names containing it are gathered in the same walk, for when nothing matches.
      const part = isBareName(glob) ? glob.toLowerCase() : undefined;
      const containing: string[] = [];
      let containingTotal = 0;
      for (const folder of folders) {
        // In a multi-root workspace a glob may also start with the folder's name.
        const prefixed = folders.length > 1 && glob.startsWith(`${folder.name}/`) ? new Minimatch(glob.slice(folder.name.length + 1), { dot: true }) : undefined;
        await walkFolder(folder, new IgnoreRules(folder.real), {
          signal: context.signal,
          onEntry: (entry) => {
            if (entry.kind !== 'file') return undefined;
            if (part !== undefined && entry.relative.slice(entry.relative.lastIndexOf('/') + 1).toLowerCase().includes(part)) {
              containingTotal += 1;
              if (containing.length < Math.min(args.limit, CONTAINING_NAMES_SHOWN)) containing.push(displayPath(folder, entry.relative, folders.length));
            }
            if (!matcher.match(entry.relative) && prefixed?.match(entry.relative) !== true) return undefined;
            total += 1;
            if (found.length < args.limit) found.push(displayPath(folder, entry.relative, folders.length));
            return undefined;
          },
        });
      }
      if (total === 0) return noFileMatches(args.pattern, glob, containing, containingTotal);
      const quoted = quotedInput(args.pattern);
      const { text } = fittedListing(
        found,
        total,
        (shownCount) => `${total} files match ${quoted}${shownCount === undefined ? '' : ` (showing the first ${shownCount})`}:`,
        (shownCount) => `\n[${found.length - shownCount} more paths found do not fit in one result; narrow the pattern (e.g. start it with a folder) to see them.]`,
      );
      return {
        text,
        summary: { kind: 'search', total, top: found.slice(0, 3).map((title) => ({ title })) },
      };
    },
  });
}

/** Files listed whose names contain a bare pattern that matched nothing: suggestions, so fewer than a full page. */
const CONTAINING_NAMES_SHOWN = 50;

function isBareName(glob: string): boolean {
  return !/[/*?[\]{}]/u.test(glob);
}

/** Nothing matched: the names containing a bare pattern, else how to write the glob. */
function noFileMatches(pattern: string, glob: string, containing: readonly string[], containingTotal: number): ToolResult {
  const bare = isBareName(glob);
  if (containingTotal > 0) {
    const shown = containingTotal > containing.length ? ` (showing the first ${containing.length})` : '';
    const header = `No file is named ${quotedInput(pattern)} exactly; ${containingTotal === 1 ? '1 file name contains' : `${containingTotal} file names contain`} it${shown}:`;
    return { text: [header, ...containing].join('\n'), summary: { kind: 'search', total: containingTotal, top: containing.slice(0, 3).map((title) => ({ title })) } };
  }
  const example = bare && glob.length <= 80 ? glob : 'name';
  const either = bare ? 'No file name contains it either. ' : '';
  return {
    text:
      `No files match ${quotedInput(pattern)}. ${either}A pattern without '/' must match a whole file name, at any depth: ` +
      `'*${example}*' or '${example}.*' for part of a name, '**/${example}/**' for the files in folders of that name; ` +
      "a pattern with '/' matches the path from the workspace folder, e.g. 'src/**/*.ts'.",
    summary: { kind: 'search', total: 0, top: [] },
  };
}
