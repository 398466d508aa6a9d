// The tools that change the workspace. Each shows its change for approval
// (the host's diff editor) and a rejection is the result, not an error.

import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { firstChangedLine } from '../common/textPosition';
import { editDiagnosticsText } from './diagnostics';
import { applyExactEdits } from './exactEdits';
import type { ScopedPath } from './pathScope';
import type { Tool } from './tool';
import {
  applyApprovedChange,
  currentTextOrUndefined,
  isSensitiveTarget,
  MAX_TEXT_FILE_BYTES,
  missingAncestors,
  readFileText,
  recheckBeforeWrite,
  refuseIgnored,
  refuseNonUtf8,
} from './workspaceFiles';
import {
  defineWorkspaceTool,
  doesNotExist,
  looksBinary,
  REJECTED_EDIT_TEXT,
  requireScopedPath,
  summaryPreview,
  WorkspaceToolFault,
  type WorkspaceToolDeps,
} from './workspaceToolSupport';
import { byteSize, sizeOverLimit } from '../common/byteSize';

const pathArgument = z.string().describe('Path relative to the workspace folder (in a multi-root workspace, may start with the folder name).');

async function requireWritableFile(deps: WorkspaceToolDeps, input: string): Promise<ScopedPath> {
  const { target } = await requireScopedPath(deps.host, input);
  if (target.relative === '') throw new WorkspaceToolFault('That is the workspace folder itself, not a file.');
  // Before anything that looks at the file, so an ignored file answers exactly as a read does.
  await refuseIgnored(target, false, 'write');
  if (target.exists) {
    const info = await stat(target.absolute);
    if (info.isDirectory()) throw new WorkspaceToolFault(`${target.display} is a folder, not a file.`);
    if (!info.isFile()) throw new WorkspaceToolFault(`${target.display} is not a regular file.`);
    // Writing in place through a second hard link would change that file too, wherever it lives.
    if (info.nlink > 1) throw new WorkspaceToolFault(`${target.display} has other hard links (maybe outside the workspace); refusing to change it.`);
  }
  return target;
}

/** The file's errors and warnings once they settle after an applied change, as a paragraph for the result; '' without a source. */
async function diagnosticsNote(deps: WorkspaceToolDeps, target: ScopedPath, signal: AbortSignal, line: number): Promise<string> {
  if (!deps.diagnostics) return '';
  try {
    return `\n\n${editDiagnosticsText(target.display, await deps.diagnostics.settled(target.absolute, signal, { line }))}`;
  } catch {
    return ''; // The change is made; missing diagnostics never turn it into a failure.
  }
}

function lines(count: number): string {
  return count === 1 ? '1 line' : `${count} lines`;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * New content for a file that ends its lines with CRLF gets CRLF too: the
 * model sees every line end as '\n' (read_file), and replacing a file should
 * not rewrite all of its line ends without the diff showing why.
 */
function inLineEndsOf(before: string | undefined, content: string): string {
  if (before === undefined || content.includes('\r\n')) return content;
  const firstEnd = before.indexOf('\n');
  return firstEnd > 0 && before[firstEnd - 1] === '\r' ? content.replace(/\n/gu, '\r\n') : content;
}

export function createWriteFileTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'write_file',
    description:
      'Create a file or replace its whole content (parent folders are created). The user sees the change as a diff and may reject it. ' +
      'For changing part of an existing file, prefer edit_file.',
    readOnly: false,
    approvesItself: true,
    input: z.object({ path: pathArgument, content: z.string().describe('The complete new content of the file.') }),
    run: async (args, context) => {
      const target = await requireWritableFile(deps, args.path);
      await refuseNonUtf8(target);
      const before = await currentTextOrUndefined(deps.host, target);
      const content = inLineEndsOf(before, args.content);
      if (before === content) return { text: `${target.display} already has exactly this content; nothing changed.` };
      const rejected = await applyApprovedChange(deps, context, { toolName: 'write_file', target, before, after: content });
      if (rejected !== undefined) return rejected;
      const text = `${before === undefined ? 'Created' : 'Replaced'} ${target.display} (${lines(lineCount(content))}).` + (await diagnosticsNote(deps, target, context.signal, firstChangedLine(before, content)));
      return { text, summary: summaryPreview(text), touchedPaths: [target.absolute] };
    },
  });
}

export function createEditFileTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'edit_file',
    description:
      'Change an existing text file by exact-string replacement. Each oldText must appear exactly once (copy it exactly, with enough context to be unique) ' +
      'unless replaceAll is set. Several edits apply in order, all or none. The user sees the change as a diff and may reject it.',
    readOnly: false,
    approvesItself: true,
    input: z.object({
      path: pathArgument,
      edits: z
        .array(
          z.object({
            oldText: z.string().describe('Exact text to replace, as it is in the file.'),
            newText: z.string().describe('Replacement text.'),
            replaceAll: z.boolean().optional().describe('Replace every occurrence instead of requiring one.'),
          }),
        )
        .min(1)
        .describe('Edits applied one after another.'),
    }),
    run: async (args, context) => {
      const target = await requireWritableFile(deps, args.path);
      if (!target.exists && deps.host.dirtyDocumentText(target.absolute) === undefined) {
        throw new WorkspaceToolFault(`${doesNotExist(target)}; use write_file to create it.`);
      }
      await refuseNonUtf8(target);
      const before = (await readFileText(deps.host, target)).text;
      const edited = applyExactEdits(before, args.edits);
      if (!edited.ok) throw new WorkspaceToolFault(`${target.display}: ${edited.message} Nothing was changed.`);
      if (edited.text === before) return { text: `${target.display}: the edits cancel out and leave the file as it is; nothing changed.` };
      const rejected = await applyApprovedChange(deps, context, { toolName: 'edit_file', target, before, after: edited.text });
      if (rejected !== undefined) return rejected;
      const text = `Edited ${target.display}: ${edited.replacements} replacement${edited.replacements === 1 ? '' : 's'}.` + (await diagnosticsNote(deps, target, context.signal, firstChangedLine(before, edited.text)));
      return { text, summary: summaryPreview(text), touchedPaths: [target.absolute] };
    },
  });
}

export function createDeleteFileTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'delete_file',
    description: 'Delete a file of the workspace (not a folder). The user is always asked, whatever the approval setting.',
    readOnly: false,
    approvesItself: true,
    input: z.object({ path: pathArgument }),
    run: async (args, context) => {
      const target = await requireWritableFile(deps, args.path);
      if (!target.exists) throw new WorkspaceToolFault(`${doesNotExist(target)}.`);
      // A deleted file can be restored from the copy the journal keeps: past the limit, that copy is not made.
      const size = (await stat(target.absolute)).size;
      if (size > MAX_TEXT_FILE_BYTES) {
        throw new WorkspaceToolFault(
          `${target.display} is too large to delete with a way back (${sizeOverLimit(size, MAX_TEXT_FILE_BYTES)}; Tandem keeps a copy of what it deletes up to ${byteSize(MAX_TEXT_FILE_BYTES)}). Ask the user to delete it.`,
        );
      }
      const bytes = await readFile(target.absolute);
      const editorText = deps.host.dirtyDocumentText(target.absolute);
      const isText = editorText !== undefined || !looksBinary(bytes);
      const before = editorText ?? (isText ? bytes.toString('utf8') : `(binary file, ${bytes.length} bytes)`);
      const rejected = await applyApprovedChange(deps, context, {
        toolName: 'delete_file',
        target,
        before,
        after: undefined,
        beforeBytes: editorText === undefined ? bytes : Buffer.from(editorText, 'utf8'),
      });
      if (rejected !== undefined) return rejected.text === REJECTED_EDIT_TEXT ? { text: 'The user rejected deleting this file; it is unchanged.', rejected: true } : rejected;
      const text = `Deleted ${target.display}.`;
      return { text, summary: summaryPreview(text) };
    },
  });
}

export function createCreateDirectoryTool(deps: WorkspaceToolDeps): Tool {
  return defineWorkspaceTool({
    name: 'create_directory',
    description: 'Create a folder (and any missing parents) in the workspace.',
    readOnly: false,
    approvesItself: true,
    input: z.object({ path: pathArgument }),
    run: async (args, context) => {
      const { target } = await requireScopedPath(deps.host, args.path);
      if (target.exists) {
        const isDirectory = (await stat(target.absolute)).isDirectory();
        if (isDirectory) return { text: `${target.display} already exists.` };
        throw new WorkspaceToolFault(`${target.display} exists and is a file.`);
      }
      await refuseIgnored(target, true, 'write');
      const sensitive = isSensitiveTarget(deps.host, target, true);
      const approved = await context.approval.request(
        {
          kind: 'toolCall',
          toolName: 'create_directory',
          toolCallId: context.callId,
          arguments: { path: target.display },
          readOnly: false,
          summary: `Create folder ${target.display}${sensitive ? ' — a sensitive path' : ''}`,
          sensitive,
        },
        context.signal,
      );
      context.signal.throwIfAborted();
      if (!approved) return { text: 'The user rejected creating this folder; nothing was created.' };
      await recheckBeforeWrite(deps.host, target);
      const created = [...(await missingAncestors(target.absolute, target.folder.real)), target.absolute];
      for (const directory of created) deps.journal.recordCreatedDirectory(context.runId, directory);
      await deps.host.createDirectory(target.absolute, context.signal);
      const text = `Created folder ${target.display}.`;
      return { text, summary: summaryPreview(text) };
    },
  });
}
