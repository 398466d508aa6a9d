// get_diagnostics: the errors and warnings VS Code reports for a file, a
// folder or the whole workspace. Read-only, so it runs unasked under the
// default policy. For one file the host shows it first (VS Code computes a
// file's diagnostics only while it is open) and waits for them to settle; a
// folder or the workspace lists what VS Code knows now. Files outside the
// workspace, in `.git/` or excluded by the ignore files are left out.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { diagnosticsListText, SEVERITIES, type DiagnosticsSource, type FileDiagnostic, type ShownDiagnostic } from './diagnostics';
import type { ScopedFolder } from './pathScope';
import { shownPaths } from './shownInScope';
import type { Tool } from './tool';
import { askToReadIgnored } from './workspaceFiles';
import { defineWorkspaceTool, doesNotExist, requireFolders, requireScopedPath, summaryPreview, WorkspaceToolFault } from './workspaceToolSupport';
import type { WorkspaceHost } from './workspaceHost';

export const GET_DIAGNOSTICS_TOOL = 'get_diagnostics';
export const DIAGNOSTICS_DEFAULT_LIMIT = 100;

export interface GetDiagnosticsDeps {
  readonly host: WorkspaceHost;
  readonly diagnostics: DiagnosticsSource;
}

export function createGetDiagnosticsTool(deps: GetDiagnosticsDeps): Tool {
  return defineWorkspaceTool({
    name: GET_DIAGNOSTICS_TOOL,
    description:
      'List the problems (errors, warnings) that VS Code reports: for one file (opened so its language service checks it), for a folder, or for the whole workspace (files VS Code has checked). ' +
      'Use it after changes, or to find what is broken.',
    readOnly: true,
    input: z.object({
      path: z.string().optional().describe('A file or folder relative to the workspace folder; omit for the whole workspace.'),
      severity: z.enum(SEVERITIES as [string, ...string[]]).default('warning').describe("The least severe level to include: 'error', 'warning' (default: errors and warnings), 'information' or 'hint'."),
      maxResults: z.number().int().min(1).max(500).default(DIAGNOSTICS_DEFAULT_LIMIT).describe('At most this many lines.'),
    }),
    run: async (args, context) => {
      const minSeverity = args.severity as (typeof SEVERITIES)[number];
      const options = { minSeverity, limit: args.maxResults };
      if (args.path !== undefined && args.path.trim() !== '' && args.path.trim() !== '.') {
        const { target, folders } = await requireScopedPath(deps.host, args.path);
        const isDirectory = target.exists && (await stat(target.absolute)).isDirectory();
        // Before anything else, so an ignored path answers as a read does: .gitignore'd ones after the user allows it.
        const ignored = await askToReadIgnored(target, isDirectory, context, { toolName: 'get_diagnostics', arguments: args });
        if (ignored.declined) return ignored.declined;
        if (!target.exists) throw new WorkspaceToolFault(`${doesNotExist(target)}.`);
        if (!isDirectory) {
          const report = await deps.diagnostics.settled(target.absolute, context.signal);
          const entries = report.diagnostics.map((diagnostic) => ({ diagnostic, shown: target.display }));
          const unsettled = report.settled ? '' : '\n(No final report from a language service within the wait; this may be incomplete.)';
          const text = diagnosticsListText(entries, { ...options, scope: target.display }) + unsettled;
          return { text, summary: summaryPreview(text.split('\n')[0] ?? text) };
        }
        const entries = await shownInScope(deps.diagnostics.current([target.absolute]), folders, ignored.ignored);
        const text = diagnosticsListText(entries, { ...options, scope: `${target.display}/` });
        return { text, summary: summaryPreview(text.split('\n')[0] ?? text) };
      }
      const folders = await requireFolders(deps.host);
      const entries = await shownInScope(deps.diagnostics.current(folders.map((folder) => folder.given)), folders);
      const text = diagnosticsListText(entries, { ...options, scope: 'the workspace' });
      return { text, summary: summaryPreview(text.split('\n')[0] ?? text) };
    },
  });
}

/**
 * The diagnostics of files inside the workspace and not ignored, with their workspace-relative paths.
 * `insideAllowedIgnored`: all of them lie in a .gitignore'd folder the user allowed, so only .tandemignore leaves any out.
 */
async function shownInScope(diagnostics: readonly FileDiagnostic[], folders: readonly ScopedFolder[], insideAllowedIgnored = false): Promise<ShownDiagnostic[]> {
  const shown = await shownPaths(
    diagnostics.map((diagnostic) => diagnostic.path),
    folders,
    insideAllowedIgnored,
  );
  return diagnostics.flatMap((diagnostic) => {
    const display = shown.get(diagnostic.path);
    return display === undefined ? [] : [{ diagnostic, shown: display }];
  });
}
