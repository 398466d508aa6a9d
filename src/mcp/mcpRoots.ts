// MCP roots: the folders a server may work in, as the client names them
// (`roots/list`). Tandem names the workspace's folders to the servers it
// starts on this machine (stdio), so one such as the filesystem server works
// on the open workspace without being told where it is, and hears when the
// folders change (`notifications/roots/list_changed`). No vscode import.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface McpRoot {
  /** A file:// URI. */
  readonly uri: string;
  readonly name?: string | undefined;
}

/** The roots of these folders (absolute paths), each named by its folder's name unless one is given. */
export function rootsOf(folders: readonly { readonly path: string; readonly name?: string | undefined }[]): McpRoot[] {
  return folders.map((folder) => ({ uri: pathToFileURL(folder.path).href, name: folder.name ?? path.basename(folder.path) }));
}
