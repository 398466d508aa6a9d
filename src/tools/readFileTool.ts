import { z } from 'zod';
import type { Tool } from './tool';
import { readFileText, refuseIgnored } from './workspaceFiles';
import { defineWorkspaceTool, requireScopedPath, summaryPreview, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';

/** At most this many lines and characters come back from one call. */
export const READ_MAX_LINES = 2000;
export const READ_MAX_CHARS = 100_000;

export function createReadFileTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'read_file',
    description:
      'Read a text file of the workspace, whole or a range of lines (1-based, inclusive). Unsaved changes in an open editor are included. ' +
      `Long output is cut at ${READ_MAX_LINES} lines or ${READ_MAX_CHARS} characters with a note saying how to read on. Binary files are refused.`,
    readOnly: true,
    input: z.object({
      path: z.string().describe('Path relative to the workspace folder (in a multi-root workspace, may start with the folder name).'),
      startLine: z.number().int().min(1).optional().describe('First line to read (1-based). Default: 1.'),
      endLine: z.number().int().min(1).optional().describe('Last line to read (inclusive). Default: the end of the file.'),
    }),
    run: async (args) => {
      const { target } = await requireScopedPath(deps.host, args.path);
      await refuseIgnored(target, false, 'read');
      const file = await readFileText(deps.host, target);
      const lines = file.text.split(/\r?\n/u);
      if (lines.length > 1 && lines.at(-1) === '') lines.pop();
      const totalLines = file.text === '' ? 0 : lines.length;
      const first = args.startLine ?? 1;
      const requestedLast = Math.min(args.endLine ?? totalLines, totalLines);
      if (args.endLine !== undefined && args.endLine < first) throw new WorkspaceToolFault(`endLine (${args.endLine}) is before startLine (${first}).`);
      if (totalLines > 0 && first > totalLines) throw new WorkspaceToolFault(`${target.display} has ${totalLines} lines; startLine ${first} is past the end.`);

      let last = Math.min(requestedLast, first + READ_MAX_LINES - 1);
      let body = lines.slice(first - 1, last).join('\n');
      /** A line longer than the cap (minified code), shown cut: its length. */
      let cutLine: number | undefined;
      if (body.length > READ_MAX_CHARS) {
        body = body.slice(0, READ_MAX_CHARS);
        const shownLines = body.split('\n');
        // Keep whole lines only, unless a single line is itself longer than the cap.
        if (shownLines.length > 1) shownLines.pop();
        else cutLine = lines[first - 1]?.length;
        body = shownLines.join('\n');
        last = first + shownLines.length - 1;
      }
      const range = totalLines === 0 ? 'empty file' : `lines ${first}-${last} of ${totalLines}`;
      const source = file.fromEditor ? ', from the editor with unsaved changes' : '';
      let text = `${target.display} (${range}${source})\n${body}`;
      if (cutLine !== undefined) {
        text += `\n[Truncated: line ${first} is ${cutLine} characters long; only its first ${READ_MAX_CHARS} are shown, and no read_file call shows the rest.]`;
      }
      if (last < requestedLast) {
        text += `\n[Truncated: lines ${last + 1}-${requestedLast} were left out. Call read_file with startLine=${last + 1} to read on.]`;
      }
      return { text, summary: summaryPreview(`${target.display} (${range})`), touchedPaths: [target.absolute] };
    },
  });
}
