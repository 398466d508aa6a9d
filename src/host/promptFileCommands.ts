// The workspace's prompt files as slash commands in the panel's prompt box
// (src/tools/promptFiles.ts): read when the panel opens and again when one of
// them, or the workspace's folders, change. VS Code's input box asks for each
// `${input:…}` the command line does not give; the editor variables are what
// the active editor shows when the command is sent (the panel is a view
// beside it, so the editor stays the active one).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SlashCommand } from '../protocol/webviewMessages';
import { expandPromptFile, loadPromptFiles, PROMPT_FILE_PATTERNS, promptFileCommand, type EditorVariables, type PromptFile } from '../tools/promptFiles';
import type { SlashExpansion } from './chatViewProvider';
import { toolPathOf } from './workspaceFolderNames';

const RELOAD_DELAY_MS = 300;

function editorVariables(): EditorVariables {
  const editor = vscode.window.activeTextEditor;
  const document = editor?.document;
  const folder = (document && vscode.workspace.getWorkspaceFolder(document.uri)) ?? vscode.workspace.workspaceFolders?.[0];
  const onDisk = document !== undefined && !document.isUntitled;
  return {
    workspaceFolder: folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined,
    file: onDisk ? toolPathOf(document.uri) : undefined,
    selection: editor && !editor.selection.isEmpty ? document!.getText(editor.selection) : undefined,
  };
}

export class PromptFileCommands implements vscode.Disposable {
  private files: readonly PromptFile[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private watchers: vscode.Disposable[] = [];
  private loading: Promise<void> = Promise.resolve();

  readonly onDidChange = this.changed.event;

  constructor(private readonly log: (line: string) => void) {
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(() => this.watch()));
    this.watch();
  }

  /** Settles once the files read last are in. */
  ready(): Promise<void> {
    return this.loading;
  }

  commands(): SlashCommand[] {
    return this.files.map((file) => {
      const how = [file.mode && `${file.mode === 'chat' ? 'Chat' : 'Agent'} mode`, file.tools && `tools: ${file.tools.join(', ') || 'none'}`].filter(Boolean).join('; ');
      const description = file.description ?? `Prompt file ${file.file}`;
      return { command: file.command, description: how ? `${description} (${how})` : description, arguments: file.inputs };
    });
  }

  /** The message `text` becomes, and its mode; undefined: it names no prompt file; null: the user cancelled a question. */
  async expand(text: string): Promise<SlashExpansion | undefined | null> {
    await this.loading;
    const found = promptFileCommand(this.files, text);
    if (found === undefined) return undefined;
    const editor = editorVariables();
    const expanded = await expandPromptFile(
      found.file,
      found.rest,
      async (name, hint) => vscode.window.showInputBox({ title: `/${found.file.command}`, prompt: hint ? `${name} — ${hint}` : name, placeHolder: hint, ignoreFocusOut: true }),
      editor,
    );
    return expanded === null ? null : { text: expanded, ...(found.file.mode && { mode: found.file.mode }), ...(found.file.tools && { tools: found.file.tools }) };
  }

  private watch(): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
    // The folders too: a file written into a folder just created can come before the watch on that folder
    // does, and then only the folder's own event tells.
    const glob = `{${[...new Set(PROMPT_FILE_PATTERNS.flatMap((pattern) => [pattern.split('/')[0]!, path.posix.dirname(pattern), pattern]))].join(',')}}`;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
      const changed = () => this.reloadSoon();
      this.watchers.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    }
    this.reload();
  }

  private timer: NodeJS.Timeout | undefined;

  /** A burst of changes (a folder made, then its files written) is read once, after it. */
  private reloadSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reload(), RELOAD_DELAY_MS);
  }

  private reload(): void {
    this.loading = this.loading
      .then(async () => {
        const local = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
        this.files = await loadPromptFiles(local.map((folder) => ({ path: folder.uri.fsPath, name: folder.name })));
        this.changed.fire();
      })
      .catch((error: unknown) => this.log(`prompt files: could not read them: ${error instanceof Error ? error.message : String(error)}`));
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const disposable of [...this.watchers, ...this.disposables]) disposable.dispose();
  }
}
