import { z } from 'zod';
import { itemsThatFit, TOOL_PAGE_CHARS } from '../agent/resultCap';
import { headEnd } from '../common/surrogatePairs';
import type { Tool } from './tool';
import { encodingName } from './textEncoding';
import { askToReadIgnored, readFileText } from './workspaceFiles';
import { defineWorkspaceTool, requireScopedPath, summaryPreview, WorkspaceToolFault, type WorkspaceToolDeps } from './workspaceToolSupport';

/** At most this many lines come back from one call, and at most TOOL_PAGE_CHARS characters (whole lines). */
export const READ_MAX_LINES = 2000;
/** Room kept in the page for the two notes below, numbers of ten digits included. */
const READ_NOTES_CHARS = 300;

export function createReadFileTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'read_file',
    description:
      'Read a text file of the workspace, whole or a range of lines (1-based, inclusive). Unsaved changes in an open editor are included. ' +
        'A file .gitignore excludes (e.g. in node_modules) is read only if the user allows it when asked. ' +
      `Long output is cut at ${READ_MAX_LINES} lines or about ${TOOL_PAGE_CHARS} characters (at a whole line) with a note saying how to read on. Binary files are refused.`,
    readOnly: true,
    input: z.object({
      path: z.string().describe('Path relative to the workspace folder (in a multi-root workspace, may start with the folder name).'),
      startLine: z.number().int().min(1).optional().describe('First line to read (1-based). Default: 1.'),
      endLine: z.number().int().min(1).optional().describe('Last line to read (inclusive). Default: the end of the file.'),
    }),
    run: async (args, context) => {
      const { target } = await requireScopedPath(deps.host, args.path);
      const { declined } = await askToReadIgnored(target, false, context, { toolName: 'read_file', arguments: args });
      if (declined) return declined;
      const file = await readFileText(deps.host, target);
      const lines = file.text.split(/\r?\n/u);
      if (lines.length > 1 && lines.at(-1) === '') lines.pop();
      const totalLines = file.text === '' ? 0 : lines.length;
      const first = args.startLine ?? 1;
      const requestedLast = Math.min(args.endLine ?? totalLines, totalLines);
      if (args.endLine !== undefined && args.endLine < first) throw new WorkspaceToolFault(`endLine (${args.endLine}) is before startLine (${first}).`);
      if (totalLines > 0 && first > totalLines) throw new WorkspaceToolFault(`${target.display} has ${totalLines} lines; startLine ${first} is past the end.`);

      let last = Math.min(requestedLast, first + READ_MAX_LINES - 1);
      const source =
        (file.fromEditor ? ', from the editor with unsaved changes' : '') +
        (file.encoding ? `, encoded as ${encodingName(file.encoding)}: the edit tools will not change it` : '');
      const rangeTo = (end: number) => (totalLines === 0 ? 'empty file' : `lines ${first}-${end} of ${totalLines}`);
      // The header is measured with requestedLast: the page's last line has no more digits.
      const fixedChars = `${target.display} (${rangeTo(requestedLast)}${source})`.length + READ_NOTES_CHARS;
      const wanted = lines.slice(first - 1, last);
      const fitting = itemsThatFit(wanted, fixedChars);
      let body = wanted.slice(0, fitting).join('\n');
      /** A line longer than the page (minified code), shown cut: its length. */
      let cutLine: number | undefined;
      if (fitting > 0) {
        last = first + fitting - 1;
      } else if (wanted.length > 0) {
        const line = wanted[0] ?? '';
        cutLine = line.length;
        body = line.slice(0, headEnd(line, TOOL_PAGE_CHARS - fixedChars - 1));
        last = first;
      }
      const range = rangeTo(last);
      let text = `${target.display} (${range}${source})\n${body}`;
      if (cutLine !== undefined) {
        text += `\n[Truncated: line ${first} is ${cutLine} characters long; only its first ${body.length} are shown, and no read_file call shows the rest.]`;
      }
      if (last < requestedLast) {
        text += `\n[Truncated: lines ${last + 1}-${requestedLast} were left out. Call read_file with startLine=${last + 1} to read on.]`;
      }
      return { text, summary: summaryPreview(`${target.display} (${range})`), touchedPaths: [target.absolute] };
    },
  });
}
