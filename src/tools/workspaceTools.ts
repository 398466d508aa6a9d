// The workspace tools as the agent loop sees them, built over a host, and the
// model's todo list (it touches nothing, but every host offers it).

import type { DiagnosticsSource } from './diagnostics';
import type { EditJournal } from './editJournal';
import { createGetDiagnosticsTool } from './getDiagnosticsTool';
import { createFindFilesTool } from './findFilesTool';
import { createListDirTool } from './listDirTool';
import { createReadFileTool } from './readFileTool';
import { createSearchTextTool } from './searchTextTool';
import type { Tool } from './tool';
import { createTodoListTool } from './todoListTool';
import { createCreateDirectoryTool, createDeleteFileTool, createEditFileTool, createWriteFileTool } from './writeTools';
import type { WorkspaceHost } from './workspaceHost';

/** With a diagnostics source (VS Code), edits report the file's problems and get_diagnostics is offered. */
export function createWorkspaceTools(host: WorkspaceHost, journal: EditJournal, diagnostics?: DiagnosticsSource): Tool[] {
  const deps = { host, journal, diagnostics };
  return [
    createReadFileTool(deps),
    createListDirTool(deps),
    createFindFilesTool(deps),
    createSearchTextTool(deps),
    createWriteFileTool(deps),
    createEditFileTool(deps),
    createCreateDirectoryTool(deps),
    createDeleteFileTool(deps),
    ...(diagnostics ? [createGetDiagnosticsTool({ host, diagnostics })] : []),
    createTodoListTool(),
  ];
}
