// The narrow interface the workspace tools need from their host. The tools
// read the disk themselves (node:fs); the host supplies what only it knows:
// the folders, the unsaved editor text, where ripgrep is, and how a change is
// applied (VS Code routes it through WorkspaceEdit so undo works).

export interface WorkspaceFolderInfo {
  /** Display name; prefixes paths in a multi-root workspace. */
  readonly name: string;
  /** Absolute path as the host knows it (realpath is taken by the scope check). */
  readonly path: string;
}

export interface WorkspaceHost {
  /** The open workspace folders, in order; empty when none is open. */
  folders(): readonly WorkspaceFolderInfo[];
  /**
   * The text of an open editor document for this absolute path when it has
   * unsaved changes; undefined when none is open or it matches the disk (the
   * tools then read the disk, and never say "unsaved" of a file only open).
   */
  dirtyDocumentText(absolutePath: string): string | undefined;
  /**
   * The editor's text when it differs from the disk (unsaved changes), else
   * undefined. May load the document (VS Code keeps unsaved text across a
   * reload as a backup). Without it, dirtyDocumentText is used.
   */
  unsavedText?(absolutePath: string): Promise<string | undefined>;
  /** Absolute path of an rg executable, or undefined to search in JavaScript. */
  ripgrepPath(): string | undefined;
  /** Writes (creates or replaces) a file; parent folders are created as needed. */
  writeFile(absolutePath: string, content: Uint8Array, signal: AbortSignal): Promise<void>;
  deleteFile(absolutePath: string, signal: AbortSignal): Promise<void>;
  createDirectory(absolutePath: string, signal: AbortSignal): Promise<void>;
  /** The user's extra sensitive-path globs (`tandem.tools.sensitivePaths`), read fresh for each write. */
  sensitivePaths?(): readonly string[];
  /** A line for the user's log (Tandem's output channel): what a tool did that its result does not say. */
  log?(line: string): void;
  /** Removes a directory only if it is empty (used by revert); no error otherwise. */
  removeEmptyDirectory(absolutePath: string, signal: AbortSignal): Promise<void>;
}
