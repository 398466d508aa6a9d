// The workspace tools as the agent loop sees them, built over a host.

import type { EditJournal } from './editJournal';
import { createFindFilesTool } from './findFilesTool';
import { createListDirTool } from './listDirTool';
import { createReadFileTool } from './readFileTool';
import { createSearchTextTool } from './searchTextTool';
import type { Tool } from './tool';
import { createCreateDirectoryTool, createDeleteFileTool, createEditFileTool, createWriteFileTool } from './writeTools';
import type { WorkspaceHost } from './workspaceHost';

export function createWorkspaceTools(host: WorkspaceHost, journal: EditJournal): Tool[] {
  const deps = { host, journal };
  return [
    createReadFileTool(deps),
    createListDirTool(deps),
    createFindFilesTool(deps),
    createSearchTextTool(deps),
    createWriteFileTool(deps),
    createEditFileTool(deps),
    createCreateDirectoryTool(deps),
    createDeleteFileTool(deps),
  ];
}
