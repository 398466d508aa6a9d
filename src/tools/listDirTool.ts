import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { fittedListing } from '../agent/resultCap';
import { IgnoreRules } from './ignoreRules';
import type { Tool } from './tool';
import { askToReadIgnored } from './workspaceFiles';
import type { ScopedFolder } from './pathScope';
import { defineWorkspaceTool, doesNotExist, requireFolders, requireScopedPath, summaryPreview, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';
import { walkFolder } from './workspaceWalker';

export const LIST_DEFAULT_LIMIT = 500;
export const LIST_MAX_LIMIT = 5000;

export function createListDirTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'list_dir',
    description:
      "List a folder of the workspace: folders end with '/', symbolic links with '@'. Entries ignored by .gitignore or .tandemignore are left out; " +
      'a folder .gitignore excludes (e.g. node_modules/some-package) is listed only if the user allows it when asked. ' +
      'Optionally recursive (to a depth), capped at a number of entries and at what fits in one result, with a note when more exist.',
    readOnly: true,
    input: z.object({
      path: z
        .string()
        .default('.')
        .describe("Folder relative to the workspace folder; '.' for the root (in a multi-root workspace, '.' lists the folders, and paths start with a folder's name)."),
      recursive: z.boolean().default(false).describe('List sub-folders too.'),
      maxDepth: z.number().int().min(1).max(20).default(5).describe('How deep a recursive listing goes.'),
      limit: z.number().int().min(1).max(LIST_MAX_LIMIT).default(LIST_DEFAULT_LIMIT).describe('Most entries to return.'),
    }),
    run: async (args, context) => {
      // A multi-root workspace's root is its folders: listing only the first would hide the others from the model.
      if (isWorkspaceRoot(args.path)) {
        const folders = await requireFolders(deps.host);
        if (folders.length > 1) return workspaceFoldersListing(folders);
      }
      const { target } = await requireScopedPath(deps.host, args.path);
      // Before the path is looked at: whether an ignored path exists is the user's to share.
      const { ignored, declined } = await askToReadIgnored(target, true, context, { toolName: 'list_dir', arguments: args });
      if (declined) return declined;
      let isDirectory = false;
      try {
        isDirectory = (await stat(target.absolute)).isDirectory();
      } catch {
        throw new WorkspaceToolFault(`${doesNotExist(target)}.`);
      }
      if (!isDirectory) throw new WorkspaceToolFault(`${target.display} is a file, not a folder; use read_file.`);

      const entries: string[] = [];
      let more = false;
      let unopenable = 0;
      const base = target.relative;
      await walkFolder(target.folder, new IgnoreRules(target.folder.real), {
        signal: context.signal,
        start: base,
        // Inside a folder .gitignore excludes (the user allowed it), its rules would hide everything.
        gitignore: !ignored,
        maxDepth: args.recursive ? args.maxDepth : 1,
        onEntry: (entry) => {
          if (entries.length >= args.limit) {
            more = true;
            return 'stop';
          }
          const inner = base === '' ? entry.relative : entry.relative.slice(base.length + 1);
          entries.push(entry.kind === 'directory' ? `${inner}/` : entry.kind === 'symlink' ? `${inner}@` : inner);
          return undefined;
        },
        onUnopenableName: () => {
          unopenable += 1;
        },
      });
      entries.sort();
      const found = `${entries.length}${more ? '+' : ''} entries`;
      const depth = args.recursive ? `, recursive to depth ${args.maxDepth}` : '';
      const header = (shownCount: number | undefined) =>
        `${target.display}/ (${found}${shownCount === undefined ? '' : `, showing the first ${shownCount}`}${depth}${ignored ? ', excluded by .gitignore' : ''})`;
      const overflow = (shownCount: number) =>
        `\n[${entries.length - shownCount} more entries found do not fit in one result; list a sub-folder${args.recursive ? ', or a smaller maxDepth,' : ''} to see them.]`;
      const page = entries.length === 0 ? { text: `${header(undefined)}\n(empty, or everything in it is ignored)`, shown: 0 } : fittedListing(entries, entries.length, header, overflow);
      let text = page.text;
      // The page held every entry collected, but the walk stopped at the limit.
      if (more && page.shown === entries.length) text += `\n[Truncated at ${args.limit} entries; list a sub-folder or raise limit to see more.]`;
      // Said, so the model does not take the listing for the whole folder; the names themselves stay out (a newline in
      // one would pass for another entry).
      if (unopenable > 0) {
        text += `\n[${unopenable} ${unopenable === 1 ? 'entry is' : 'entries are'} not shown: ${unopenable === 1 ? 'its name holds' : 'their names hold'} a control character or bytes that are not UTF-8, which no tool can open.]`;
      }
      return { text, summary: summaryPreview(header(page.shown < entries.length ? page.shown : undefined)) };
    },
  });
}

function isWorkspaceRoot(input: string): boolean {
  // '', '.', './' (and './.'): not '..', which the path check refuses.
  return /^(\.\/)*\.?$/u.test(input.trim());
}

function workspaceFoldersListing(folders: readonly ScopedFolder[]): { text: string; summary: ReturnType<typeof summaryPreview> } {
  const header = `The workspace has ${folders.length} folders; a path starts with its folder's name (e.g. ${JSON.stringify(`${folders[1]!.name}/`)}):`;
  const text = [header, ...folders.map((folder) => `${folder.name}/`), `List one to see inside it: list_dir ${JSON.stringify(folders[0]!.name)}.`].join('\n');
  return { text, summary: summaryPreview(`${folders.length} workspace folders: ${folders.map((folder) => folder.name).join(', ')}`) };
}
