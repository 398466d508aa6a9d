// What every workspace tool shares: argument validation at the border, the
// scope check, and faults turned into result text the model can act on.

import { z } from 'zod';
import { CancelledError, isCancellation, TandemError } from '../common/errors';
import type { DiagnosticsSource } from './diagnostics';
import type { EditJournal } from './editJournal';
import { resolveScopedPath, scopeFolders, NO_FOLDER_MESSAGE, type ScopedFolder, type ScopedPath } from './pathScope';
import type { Tool, ToolContext, ToolResult } from './tool';
import type { WorkspaceHost } from './workspaceHost';

export const REJECTED_EDIT_TEXT = 'The user rejected this edit; the file is unchanged.';

export interface WorkspaceToolDeps {
  readonly host: WorkspaceHost;
  readonly journal: EditJournal;
  /** The host's diagnostics: an applied edit's result carries the file's errors and warnings. Absent outside VS Code. */
  readonly diagnostics?: DiagnosticsSource | undefined;
}

/** A fault the model should read as the result (a refused path, a missing string). */
export class WorkspaceToolFault extends TandemError {}

interface ToolSpec<Schema extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly input: Schema;
  readonly readOnly: boolean;
  readonly approvesItself?: boolean;
  readonly network?: boolean;
  readonly repeatable?: boolean;
  readonly run: (args: z.infer<Schema>, context: ToolContext) => Promise<ToolResult>;
}

export function defineWorkspaceTool<Schema extends z.ZodType>(spec: ToolSpec<Schema>): Tool {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(spec.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    readOnly: spec.readOnly,
    approvesItself: spec.approvesItself,
    ...(spec.network && { network: true }),
    ...(spec.repeatable && { repeatable: true }),
    source: { kind: 'workspace' },
    run: async (args, context) => {
      const parsed = spec.input.safeParse(args);
      if (!parsed.success) {
        return { text: `Error: invalid arguments for ${spec.name}: ${argumentProblems(parsed.error)}. Call it again with arguments that match its schema.`, isError: true };
      }
      try {
        return await spec.run(parsed.data, context);
      } catch (error) {
        if (isCancellation(error) || context.signal.aborted) throw error instanceof CancelledError ? error : new CancelledError();
        if (error instanceof WorkspaceToolFault) return { text: `Error: ${error.message}`, isError: true };
        const message = error instanceof Error ? error.message : String(error);
        return { text: `Error: ${spec.name} failed: ${message}`, isError: true };
      }
    },
  };
}

/** The folders, realpath'd; a fault when none is open. */
export async function requireFolders(host: WorkspaceHost): Promise<ScopedFolder[]> {
  const folders = await scopeFolders(host.folders());
  if (folders.length === 0) throw new WorkspaceToolFault(NO_FOLDER_MESSAGE);
  return folders;
}

/**
 * "<path> does not exist", and in a multi-root workspace, for a path that
 * named no folder, that the other folders lack it too (it was taken in the first).
 */
export function doesNotExist(target: ScopedPath): string {
  const others = target.alsoLookedIn ?? [];
  if (others.length === 0) return `${target.display} does not exist`;
  return `${target.display} does not exist, nor does ${target.relative} in ${others.map((name) => `${name}/`).join(', ')}`;
}

/** Resolves a path argument or throws a fault with the refusal. */
export async function requireScopedPath(host: WorkspaceHost, input: string): Promise<{ target: ScopedPath; folders: ScopedFolder[] }> {
  const folders = await requireFolders(host);
  const target = await resolveScopedPath(input, folders);
  if (!target.ok) throw new WorkspaceToolFault(target.message);
  return { target, folders };
}

/** Bytes that look binary (a NUL in the first 8 KiB, as git and ripgrep judge). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

export function summaryPreview(text: string): ToolResult['summary'] {
  return { kind: 'text', preview: text.length > 200 ? `${text.slice(0, 200)}…` : text };
}

/** Zod's issues in a line the model and the user both read: `path: missing (expected string); limit: too big…`. */
export function argumentProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join('.') || 'the arguments';
      const message = issue.message.replace(/^Invalid input: /, '');
      const missing = /^expected (\w+), received undefined$/.exec(message);
      return `${where}: ${missing ? `missing (expected ${missing[1]})` : message}`;
    })
    .join('; ');
}
