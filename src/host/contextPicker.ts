// Attaching context in VS Code: the `@` picker's suggestions (special items,
// then the workspace's folders and files, fuzzy-filtered as the user types),
// what a pick attaches, and `tandem.addContext` (the editor's selection or
// file, or what the explorer's or editor's context menu was opened on).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fuzzyFilter } from '../common/fuzzyMatch';
import type { ContextSuggestion } from '../protocol/webviewMessages';
import type { WorkspaceHost } from '../tools/workspaceHost';
import { toolPathOf } from './workspaceFolderNames';
import type { ContextAttachments } from './contextAttachments';
import type { RepositoryDiff } from '../tools/diffContent';
import { gitChangesAttachment, openEditorsAttachment, pathAttachment, problemsAttachment, selectionAttachment, terminalAttachment, unsavedEditorAttachment, urlAttachment, type Problem } from './contextItems';
import type { TerminalHistory } from './terminalHistory';
import { WorkspaceFileIndex } from './workspaceFileIndex';

/** The picker shows at most this many suggestions. */
export const MAX_SUGGESTIONS = 50;

const SPECIAL: readonly ContextSuggestion[] = [
  { kind: 'selection', path: 'selection', label: 'Selection', detail: "the active editor's selection" },
  { kind: 'problems', path: 'problems', label: 'Problems', detail: "the workspace's errors and warnings" },
  { kind: 'openEditors', path: 'open-editors', label: 'Open editors', detail: 'the files open in editors' },
  { kind: 'gitChanges', path: 'git-changes', label: 'Git changes', detail: 'the uncommitted changes (git diff)' },
  { kind: 'terminal', path: 'terminal', label: 'Terminal', detail: 'the last command run in a terminal and its output' },
];

export class ContextPicker {
  private readonly index = new WorkspaceFileIndex();

  constructor(
    private readonly attachments: ContextAttachments,
    private readonly host: WorkspaceHost,
    private readonly terminals: Pick<TerminalHistory, 'latest'>,
  ) {}

  /** What `@<query>` offers: the special items that match, then folders and files. */
  async suggestions(query: string): Promise<readonly ContextSuggestion[]> {
    const special = fuzzyFilter(SPECIAL, query, (item) => item.label, SPECIAL.length).map((item) =>
      // Still offered, so the user learns how to get it; the detail says so before the pick does.
      item.kind === 'gitChanges' && !vscode.workspace.isTrusted ? { ...item, detail: 'not read in Restricted Mode: trust the folder first' } : item,
    );
    // A URL typed after @: offered first, as a page to fetch when the message is sent.
    const url = /^https?:\/\/\S+$/i.test(query) && URL.canParse(query) ? [{ kind: 'url' as const, path: query, label: query, detail: 'fetch this web page when the message is sent' }] : [];
    if (url.length > 0) return url;
    const paths = await this.index.paths();
    const matches = fuzzyFilter(paths, query, (item) => (item.kind === 'folder' ? `${item.path}/` : item.path), MAX_SUGGESTIONS - special.length);
    return [
      ...special,
      ...matches.map((item): ContextSuggestion => ({ kind: item.kind, path: item.path, label: item.kind === 'folder' ? `${item.path}/` : item.path })),
    ];
  }

  /** Attaches what the user picked; false (with a message) when there is nothing to attach. */
  async attachPick(kind: ContextSuggestion['kind'], path: string): Promise<boolean> {
    switch (kind) {
      case 'selection':
        return this.attachSelection(vscode.window.activeTextEditor);
      case 'problems':
        this.attachments.attach(problemsAttachment(workspaceProblems));
        return true;
      case 'openEditors':
        this.attachments.attach(openEditorsAttachment(this.host, openEditorFiles));
        return true;
      case 'gitChanges':
        if (!vscode.workspace.isTrusted) {
          void refuseGitInRestrictedMode();
          return false;
        }
        this.attachments.attach(gitChangesAttachment(this.host, gitRepositoryDiffs));
        return true;
      case 'terminal':
        this.attachments.attach(terminalAttachment(this.terminals.latest()));
        return true;
      case 'file':
      case 'folder':
        this.attachments.attach(await pathAttachment(this.host, path));
        return true;
      case 'url':
        this.attachments.attach(urlAttachment(path));
        return true;
    }
  }

  /**
   * `tandem.addContext`: from a context menu, the file or folders it was
   * opened on (the editor's menu: its selection when there is one); from the
   * palette or a key, the active editor's selection, else its file.
   */
  async addContext(target?: unknown, targets?: unknown): Promise<boolean> {
    // The explorer passes its whole selection as an array: those files and folders, never an editor's selection.
    const fromExplorer = Array.isArray(targets);
    const uris = (fromExplorer ? targets : [target]).filter((each): each is vscode.Uri => each instanceof vscode.Uri);
    const editor = vscode.window.activeTextEditor;
    if (uris.length === 0 || (!fromExplorer && editor !== undefined && uris[0]!.toString() === editor.document.uri.toString())) {
      if (editor === undefined) {
        void vscode.window.showInformationMessage('Tandem: open a file (or choose one in the explorer) to add it to the context.');
        return false;
      }
      if (!editor.selection.isEmpty) return this.attachSelection(editor);
      return this.attachUri(editor.document.uri);
    }
    for (const uri of uris) await this.attachUri(uri);
    return true;
  }

  /**
   * Files and folders dropped on the prompt box (from the explorer, with
   * Shift held, as VS Code asks for a drop into a webview): chosen by the
   * user, as from the explorer's menu. The page hands over URIs as text; in
   * a browser (code-server) the workspace's are `vscode-remote:` ones whose
   * path is the file's on this side.
   */
  async attachDropped(uris: readonly string[]): Promise<void> {
    for (const text of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(text, true);
      } catch {
        continue;
      }
      await this.attachUri(uri.scheme === 'vscode-remote' ? vscode.Uri.file(uri.path) : uri);
    }
  }

  private async attachUri(uri: vscode.Uri): Promise<boolean> {
    // An unsaved editor is refused as a path outside the workspace is: a chip above the prompt box, not a toast.
    if (uri.scheme === 'untitled') {
      this.attachments.attach(unsavedEditorAttachment(uri.toString(), path.posix.basename(uri.path) || uri.path));
      return true;
    }
    if (uri.scheme !== 'file') {
      void vscode.window.showWarningMessage(`Tandem: only files in the workspace can be attached (${uri.scheme}: is not a file).`);
      return false;
    }
    // The tools' scope check decides; a refused path becomes an error chip that says why.
    this.attachments.attach(await pathAttachment(this.host, uri.fsPath));
    return true;
  }

  private attachSelection(editor: vscode.TextEditor | undefined): boolean {
    if (editor === undefined || editor.selection.isEmpty) {
      void vscode.window.showInformationMessage('Tandem: select some text in an editor first.');
      return false;
    }
    const { selection, document } = editor;
    // A selection that ends at the start of a line does not take that line.
    const lastLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
    this.attachments.attach(
      selectionAttachment({
        file: toolPathOf(document.uri),
        firstLine: selection.start.line + 1,
        lastLine,
        languageId: document.languageId,
        text: document.getText(selection),
      }),
    );
    return true;
  }
}

/** The part of VS Code's Git extension API (extensions/git/src/api/git.d.ts, version 1) read here. */
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  /** `untrackedChanges` holds the new files when `git.untrackedChanges` is `separate`; `workingTreeChanges` otherwise. */
  readonly state: { readonly workingTreeChanges: readonly GitChange[]; readonly untrackedChanges?: readonly GitChange[] };
  diff(cached?: boolean): Promise<string>;
}
interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}
/** `Status.UNTRACKED` of the Git extension's API. */
const UNTRACKED = 7;

/** How long to wait for the Git extension to find the workspace's repositories. */
const GIT_READY_MS = 10_000;

/** Said when Git changes are picked in Restricted Mode, with the way to trust the folder. */
async function refuseGitInRestrictedMode(): Promise<void> {
  const manage = 'Manage Workspace Trust';
  const choice = await vscode.window.showWarningMessage(
    "Tandem: Git changes are not read in Restricted Mode: a repository's own Git configuration can run commands. Trust the folder to attach them.",
    manage,
  );
  if (choice === manage) await vscode.commands.executeCommand('workbench.trust.manage');
}

/** The diffs of the repositories VS Code's Git extension has open (it runs git; the user asked for them by attaching). */
async function gitRepositoryDiffs(): Promise<RepositoryDiff[]> {
  // A repository's own Git config can run commands (diff drivers, fsmonitor): in Restricted Mode Git is not asked.
  if (!vscode.workspace.isTrusted) throw new Error('the folder is not trusted, and Git does not run in Restricted Mode');
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) throw new Error("VS Code's Git extension is not installed");
  const git = extension.isActive ? extension.exports : await extension.activate();
  if (!git.enabled) throw new Error('Git is turned off in VS Code (git.enabled)');
  const api = git.getAPI(1);
  if (api.state !== 'initialized') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, GIT_READY_MS);
      const listener = api.onDidChangeState((state) => state === 'initialized' && done());
      function done(): void {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  }
  return Promise.all(
    api.repositories.map(async (repository) => ({
      root: repository.rootUri.fsPath,
      staged: await repository.diff(true),
      unstaged: await repository.diff(false),
      untracked: [...repository.state.workingTreeChanges, ...(repository.state.untrackedChanges ?? [])]
        .filter((change) => change.status === UNTRACKED)
        .map((change) => change.uri.fsPath),
    })),
  );
}

function workspaceProblems(): readonly Problem[] {
  const severities = ['error', 'warning', 'info', 'hint'] as const;
  return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) =>
    uri.scheme !== 'file' || vscode.workspace.getWorkspaceFolder(uri) === undefined
      ? []
      : diagnostics.map((diagnostic) => ({
          file: toolPathOf(uri),
          line: diagnostic.range.start.line + 1,
          column: diagnostic.range.start.character + 1,
          severity: severities[diagnostic.severity] ?? 'info',
          message: diagnostic.message,
          source: diagnostic.source,
        })),
  );
}

/** The files in editor tabs (text and diff editors' modified side), in tab order, each once. */
function openEditorFiles(): readonly string[] {
  const files = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      const uri = input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
      if (uri?.scheme === 'file') files.add(uri.fsPath);
    }
  }
  return [...files];
}
