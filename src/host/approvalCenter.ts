// Asks the user about one tool call or edit at a time: an edit opens VS
// Code's diff editor (current file left, proposed text right) with Approve /
// Reject buttons in its title bar and in a notification; closing the diff
// rejects. The commands `tandem.approveEdit` / `tandem.rejectEdit` decide too,
// which is how tests click them.
//
// One center per extension host: it lives on globalThis so a second bundle of
// this module (the extension-host test suite) shares the pending requests with
// whichever copy registered the commands.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { CancelledError } from '../common/errors';
import type { ApprovalRequest } from '../tools/tool';

export const PROPOSED_SCHEME = 'tandem-proposed';
export const EDIT_PENDING_CONTEXT = 'tandem.editPending';
const CENTER_KEY = Symbol.for('tandem.approvalCenter');

interface Pending {
  readonly id: string;
  readonly request: ApprovalRequest;
  readonly proposedUri: vscode.Uri | undefined;
  readonly decide: (approved: boolean) => void;
}

export class ApprovalCenter implements vscode.TextDocumentContentProvider {
  private readonly pending: Pending[] = [];
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly providerRegistration: vscode.Disposable;
  private nextId = 1;
  readonly onDidChange = this.changed.event;

  constructor() {
    this.providerRegistration = vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this);
  }

  private users = 0;

  /** The extension host's center, created on first use; `release` when done with it. */
  static acquire(): { readonly center: ApprovalCenter; release(): void } {
    const holder = globalThis as unknown as Record<symbol, ApprovalCenter | undefined>;
    const center = (holder[CENTER_KEY] ??= new ApprovalCenter());
    center.users += 1;
    let released = false;
    return {
      center,
      release: () => {
        if (released) return;
        released = true;
        center.users -= 1;
        if (center.users === 0) center.dispose();
      },
    };
  }

  /** The center if one exists (command handlers use it; no request can be pending otherwise). */
  static current(): ApprovalCenter | undefined {
    return (globalThis as unknown as Record<symbol, ApprovalCenter | undefined>)[CENTER_KEY];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Requests waiting for a decision, oldest first. */
  pendingRequests(): readonly { readonly id: string; readonly request: ApprovalRequest }[] {
    return this.pending.map(({ id, request }) => ({ id, request }));
  }

  /**
   * Decides a pending request: by id, by the proposed document's URI (what an
   * editor-title button passes), or the oldest one. Returns false when none matched.
   */
  decide(approved: boolean, target?: unknown): boolean {
    const match =
      typeof target === 'string'
        ? this.pending.find((item) => item.id === target)
        : target instanceof vscode.Uri
          ? this.pending.find((item) => item.proposedUri?.toString() === target.toString() || pathOf(item.request) === target.fsPath)
          : this.pending[0];
    const chosen = match ?? (target === undefined ? undefined : this.pending[0]);
    if (chosen === undefined) return false;
    chosen.decide(approved);
    return true;
  }

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<boolean> {
    signal.throwIfAborted();
    const id = String(this.nextId++);
    const proposedUri = request.kind === 'edit' ? this.proposedUriFor(id, request) : undefined;
    const disposables: vscode.Disposable[] = [];
    let settle: (outcome: boolean | Error) => void = () => undefined;
    const decision = new Promise<boolean>((resolve, reject) => {
      let settled = false;
      settle = (outcome) => {
        if (settled) return;
        settled = true;
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
    });
    // Everything that can decide is in place before the diff opens, so a quick close is not missed.
    this.pending.push({ id, request, proposedUri, decide: (approved) => settle(approved) });
    const onAbort = (): void => settle(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    disposables.push({ dispose: () => signal.removeEventListener('abort', onAbort) });
    if (proposedUri !== undefined) {
      // Closing the diff without deciding is a rejection.
      disposables.push(
        vscode.window.tabGroups.onDidChangeTabs((event) => {
          if (event.closed.some((tab) => isDiffOf(tab, proposedUri))) settle(false);
        }),
      );
    }
    try {
      await this.updateContext();
      if (request.kind === 'edit' && proposedUri !== undefined) {
        await this.showDiff(id, request, proposedUri);
        // The close event can be missed when the tab closes while the diff is
        // still opening; once shown, a diff whose tab is gone is a rejection.
        const diffIsOpen = () => vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => isDiffOf(tab, proposedUri)));
        const shownAt = Date.now();
        let seen = diffIsOpen();
        const watch = setInterval(() => {
          const open = diffIsOpen();
          if (open) seen = true;
          else if (seen || Date.now() - shownAt > 2000) settle(false);
        }, 100);
        disposables.push({ dispose: () => clearInterval(watch) });
      }
      void this.notify(request).then((choice) => {
        if (choice !== undefined) settle(choice);
      });
      return await decision;
    } finally {
      for (const disposable of disposables) disposable.dispose();
      const index = this.pending.findIndex((item) => item.id === id);
      if (index >= 0) this.pending.splice(index, 1);
      void this.updateContext();
      if (proposedUri !== undefined) await this.closeDiff(id, proposedUri);
    }
  }

  dispose(): void {
    for (const item of [...this.pending]) item.decide(false);
    this.providerRegistration.dispose();
    this.changed.dispose();
    const holder = globalThis as unknown as Record<symbol, ApprovalCenter | undefined>;
    if (holder[CENTER_KEY] === this) holder[CENTER_KEY] = undefined;
  }

  private proposedUriFor(id: string, request: Extract<ApprovalRequest, { kind: 'edit' }>): vscode.Uri {
    // The file name ends the path so the diff picks the right language.
    return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${id}/proposed/${path.basename(request.path)}` });
  }

  private async showDiff(id: string, request: Extract<ApprovalRequest, { kind: 'edit' }>, proposedUri: vscode.Uri): Promise<void> {
    const name = path.basename(request.path);
    this.contents.set(proposedUri.toString(), request.after ?? '');
    let currentUri: vscode.Uri;
    if (request.before === undefined) {
      currentUri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${id}/empty/${name}` });
      this.contents.set(currentUri.toString(), '');
    } else {
      // The real file, so unsaved editor text shows as it is.
      currentUri = vscode.Uri.file(request.path);
    }
    const verb = request.after === undefined ? 'delete' : request.before === undefined ? 'create' : 'edit';
    await vscode.commands.executeCommand('vscode.diff', currentUri, proposedUri, `Tandem wants to ${verb} ${name} — Approve or Reject`, {
      preview: false,
    });
  }

  private async closeDiff(id: string, proposedUri: vscode.Uri): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => isDiffOf(tab, proposedUri));
    try {
      if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    } catch {
      // Already closed by the user.
    }
    for (const key of [...this.contents.keys()]) if (key.startsWith(`${PROPOSED_SCHEME}:/${id}/`)) this.contents.delete(key);
  }

  private async notify(request: ApprovalRequest): Promise<boolean | undefined> {
    const message =
      request.kind === 'edit'
        ? `Tandem wants to ${request.after === undefined ? 'delete' : request.before === undefined ? 'create' : 'change'} ${vscode.workspace.asRelativePath(request.path)}.`
        : `Tandem wants to run ${request.toolName}.`;
    const approve = request.kind === 'edit' ? 'Approve' : 'Allow';
    const reject = request.kind === 'edit' ? 'Reject' : 'Deny';
    const detail = request.kind === 'toolCall' ? JSON.stringify(request.arguments).slice(0, 500) : undefined;
    const choice = await vscode.window.showInformationMessage(detail === undefined ? message : `${message} ${detail}`, approve, reject);
    return choice === approve ? true : choice === reject ? false : undefined;
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', EDIT_PENDING_CONTEXT, this.pending.length > 0);
  }
}

function isDiffOf(tab: vscode.Tab, proposedUri: vscode.Uri): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposedUri.toString();
}

function pathOf(request: ApprovalRequest): string | undefined {
  return request.kind === 'edit' ? request.path : undefined;
}
