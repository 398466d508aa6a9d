// The workspace host for plain Node (tests, the benchmark, the AG-UI
// endpoint): folders given up front, changes written with node:fs.

import { accessSync, constants } from 'node:fs';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { distinctFolderNames } from './folderNames';
import type { WorkspaceFolderInfo, WorkspaceHost } from './workspaceHost';

export interface NodeWorkspaceHostOptions {
  readonly folders: readonly (string | WorkspaceFolderInfo)[];
  /** rg to use; 'path' looks it up on PATH; undefined searches in JavaScript. */
  readonly ripgrep?: string | 'path' | undefined;
  /** Unsaved editor text to pretend is open, by absolute path (tests). */
  readonly openDocuments?: ReadonlyMap<string, string> | undefined;
  /** Extra sensitive-path globs (`tandem.tools.sensitivePaths`). */
  readonly sensitivePaths?: readonly string[] | undefined;
  /** Where log lines go; dropped without it. */
  readonly log?: ((line: string) => void) | undefined;
}

export class NodeWorkspaceHost implements WorkspaceHost {
  private readonly folderList: WorkspaceFolderInfo[];
  private readonly rgPath: string | undefined;

  constructor(private readonly options: NodeWorkspaceHostOptions) {
    const given = options.folders.map((folder) => (typeof folder === 'string' ? { name: path.basename(folder), path: path.resolve(folder) } : folder));
    const names = distinctFolderNames(given);
    this.folderList = given.map((folder, index) => ({ ...folder, name: names[index]! }));
    this.rgPath = options.ripgrep === 'path' ? findOnPath('rg') : options.ripgrep;
  }

  folders(): readonly WorkspaceFolderInfo[] {
    return this.folderList;
  }

  dirtyDocumentText(absolutePath: string): string | undefined {
    return this.options.openDocuments?.get(absolutePath);
  }

  ripgrepPath(): string | undefined {
    return this.rgPath;
  }

  sensitivePaths(): readonly string[] {
    return this.options.sensitivePaths ?? [];
  }

  log(line: string): void {
    this.options.log?.(line);
  }

  async writeFile(absolutePath: string, content: Uint8Array, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await mkdir(path.dirname(absolutePath), { recursive: true });
    await writeFile(absolutePath, content, { signal });
  }

  async deleteFile(absolutePath: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await rm(absolutePath, { force: true });
  }

  async createDirectory(absolutePath: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await mkdir(absolutePath, { recursive: true });
  }

  async removeEmptyDirectory(absolutePath: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    try {
      await rmdir(absolutePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }
}

/** An executable of this name on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const directory of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, process.platform === 'win32' ? `${name}.exe` : name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next directory.
    }
  }
  return undefined;
}
