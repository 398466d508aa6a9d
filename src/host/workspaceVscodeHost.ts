// The workspace host inside VS Code: folders from the workspace, unsaved text
// from open documents, and every change through WorkspaceEdit so the user can
// undo it (Ctrl+Z in the editor, or Undo in the explorer for created files).

import * as vscode from 'vscode';
import type { WorkspaceFolderInfo, WorkspaceHost } from '../tools/workspaceHost';
import { locateRipgrep } from './ripgrepLocator';
import { namedWorkspaceFolders } from './workspaceFolderNames';

export class VscodeWorkspaceHost implements WorkspaceHost {
  private rgPath: string | undefined | null = null;

  constructor(private readonly logLine: (line: string) => void = () => undefined) {}

  log(line: string): void {
    this.logLine(line);
  }

  folders(): readonly WorkspaceFolderInfo[] {
    return namedWorkspaceFolders().map(({ folder, name }) => ({ name, path: folder.uri.fsPath }));
  }

  sensitivePaths(): readonly string[] {
    // Only ever adds paths that ask, so every scope's value may apply; bad entries are dropped.
    // The configured rules files join the system prompt, so a change to them asks too.
    // Every scope's list, not the one that wins: a workspace's list must not replace the user's extra paths.
    const configuration = vscode.workspace.getConfiguration('tandem');
    const scopes = (key: string): unknown[] => {
      const found = configuration.inspect<unknown>(key);
      return [found?.defaultValue, found?.globalValue, found?.workspaceValue, found?.workspaceFolderValue];
    };
    return [...scopes('tools.sensitivePaths'), ...scopes('agent.rulesFiles')].flatMap((value) =>
      Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : [],
    );
  }

  dirtyDocumentText(absolutePath: string): string | undefined {
    const document = findOpenDocument(absolutePath);
    return document?.isDirty ? document.getText() : undefined;
  }

  async unsavedText(absolutePath: string): Promise<string | undefined> {
    let document = findOpenDocument(absolutePath);
    if (document === undefined) {
      // After a reload, unsaved text lives in a backup until the document is loaded again: load it.
      const uri = vscode.Uri.file(absolutePath);
      if (!(await exists(uri))) return undefined;
      try {
        document = await vscode.workspace.openTextDocument(uri);
      } catch {
        return undefined; // Not a text document (binary, too large): the disk is what counts.
      }
    }
    return document.isDirty ? document.getText() : undefined;
  }

  ripgrepPath(): string | undefined {
    // Looked up on first search, not at activation.
    if (this.rgPath === null) this.rgPath = locateRipgrep();
    return this.rgPath;
  }

  async writeFile(absolutePath: string, content: Uint8Array, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const uri = vscode.Uri.file(absolutePath);
    const edit = new vscode.WorkspaceEdit();
    if (!(await exists(uri)) || isBinary(content)) {
      edit.createFile(uri, { overwrite: true, contents: content });
      await apply(edit, absolutePath);
      return;
    }
    // An existing text file: replace the document's text, so the editor's undo stack holds the change.
    try {
      await replaceDocumentText(uri, absolutePath, content);
    } catch (error) {
      // The document found open can be closed under us (the approval diff that
      // held it closing a moment earlier): once more, with the document reopened.
      if (!(error instanceof DocumentClosedError)) throw error;
      await replaceDocumentText(uri, absolutePath, content);
    }
  }

  async deleteFile(absolutePath: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.file(absolutePath), { ignoreIfNotExists: true });
    await apply(edit, absolutePath);
  }

  async createDirectory(absolutePath: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(absolutePath));
  }

  async removeEmptyDirectory(absolutePath: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const uri = vscode.Uri.file(absolutePath);
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(uri);
    } catch {
      return; // Already gone.
    }
    if (entries.length === 0) await vscode.workspace.fs.delete(uri, { recursive: false, useTrash: false });
  }
}

class DocumentClosedError extends Error {}

async function replaceDocumentText(uri: vscode.Uri, absolutePath: string, content: Uint8Array): Promise<void> {
  const open = findOpenDocument(absolutePath);
  const document = open ?? (await vscode.workspace.openTextDocument(uri));
  if (open === undefined && document.isDirty) {
    // Unsaved text restored from a backup after a reload, which the change was not made against.
    throw new Error(`${absolutePath} has unsaved changes in VS Code that were not seen; nothing was written. Read it again.`);
  }
  // Unsaved text the user typed stays unsaved: the change joins it in the editor and the document stays dirty.
  const keepUnsaved = document.isDirty;
  try {
    const edit = new vscode.WorkspaceEdit();
    const fullRange = document.validateRange(new vscode.Range(0, 0, document.lineCount, 0));
    edit.replace(document.uri, fullRange, new TextDecoder().decode(content));
    await apply(edit, absolutePath);
    if (!keepUnsaved && !(await document.save())) throw new Error(`VS Code could not save ${absolutePath}`);
  } catch (error) {
    if (document.isClosed && !keepUnsaved) throw new DocumentClosedError(error instanceof Error ? error.message : String(error));
    throw error;
  }
}

function findOpenDocument(absolutePath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find(
    (document) => document.uri.scheme === 'file' && !document.isClosed && document.uri.fsPath === absolutePath,
  );
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

function isBinary(content: Uint8Array): boolean {
  return content.subarray(0, 8192).includes(0);
}

async function apply(edit: vscode.WorkspaceEdit, absolutePath: string): Promise<void> {
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the change to ${absolutePath}`);
}
