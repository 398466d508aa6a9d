import { Minimatch } from 'minimatch';
import { z } from 'zod';
import { IgnoreRules } from './ignoreRules';
import { displayPath } from './pathScope';
import type { Tool } from './tool';
import { defineWorkspaceTool, requireFolders, type WorkspaceToolDeps } from './workspaceToolSupport';
import { walkFolder } from './workspaceWalker';

export const FIND_DEFAULT_LIMIT = 200;

export function createFindFilesTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'find_files',
    description:
      "Find files of the workspace by glob, e.g. '**/*.ts', 'src/**/test_*.py', '*.md'. A glob without '/' matches the file name at any depth. " +
      'Files ignored by .gitignore or .tandemignore are left out. Returns paths, capped, with the total count.',
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
      const header = total === 0 ? `No files match ${JSON.stringify(args.pattern)}.` : `${total} files match ${JSON.stringify(args.pattern)}${total > found.length ? ` (showing the first ${found.length})` : ''}:`;
      return {
        text: [header, ...found].join('\n'),
        summary: { kind: 'search', total, top: found.slice(0, 3).map((title) => ({ title })) },
      };
    },
  });
}
