// The VS Code side of approvals. The run's `tandem.approval` event puts a card
// in the panel (Approve, Reject, Always allow, Open diff); an edit also opens
// VS Code's diff editor (current file left, proposed text right) with Approve
// / Reject in its title bar. Whichever answers first decides; closing the
// diff rejects. Every answer names its request exactly (the card and the
// commands by id, the diff's buttons by its proposed document, whose URI
// holds the id); nothing is ever decided by guessing.
//
// One center per extension host: it lives on globalThis so a second bundle of
// this module (the extension-host test suite) shares the pending requests with
// whichever copy registered the commands.

import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CancelledError } from '../common/errors';
import type { ApprovalAnswer, ApprovalDecision, ApprovalPrompt } from '../agent/runApprovalGate';
import type { ApprovalRequest } from '../tools/tool';
import { MAX_REJECTION_NOTE_CHARS, replyOf } from '../protocol/agentEvents';
import { toolPathOf } from './workspaceFolderNames';

export const PROPOSED_SCHEME = 'tandem-proposed';
export const EDIT_PENDING_CONTEXT = 'tandem.editPending';
const CENTER_KEY = Symbol.for('tandem.approvalCenter');

interface Pending {
  readonly id: string;
  readonly request: ApprovalRequest;
  /** What "Always allow" would remember; undefined when it is not offered. */
  readonly alwaysAllowKey: string | undefined;
  readonly proposedUri: vscode.Uri | undefined;
  readonly decide: (answer: ApprovalDecision) => void;
}

export class ApprovalCenter implements vscode.TextDocumentContentProvider {
  private readonly pending: Pending[] = [];
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly providerRegistration: vscode.Disposable;
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
   * Decides one pending request, matched exactly: by its id, or by the
   * proposed document of its diff (what an editor-title button passes).
   * Without a target, the request whose diff is the active tab. Never a
   * guess: returns false when nothing matched exactly.
   */
  decide(approved: boolean, target?: unknown, note?: string): boolean {
    const chosen = this.find(target);
    if (chosen === undefined) return false;
    chosen.decide(approved ? 'approved' : note ? { answer: 'rejected', note: note.slice(0, MAX_REJECTION_NOTE_CHARS) } : 'rejected');
    return true;
  }

  /** The id of the pending request `target` names (as for decide), resolved now. */
  pendingFor(target?: unknown): string | undefined {
    return this.find(target)?.id;
  }

  /** The panel card's answer, by exact id. "Always allow" counts only where it was offered; a note goes with a rejection only. */
  answer(id: string, answer: ApprovalAnswer, note?: string): boolean {
    const chosen = this.pending.find((item) => item.id === id);
    if (chosen === undefined) return false;
    if (answer === 'alwaysAllowed' && chosen.alwaysAllowKey === undefined) return false;
    chosen.decide(answer === 'rejected' && note ? { answer, note } : answer);
    return true;
  }

  /** Shows (again) the diff of a pending edit; false when there is none with this id. */
  async openDiff(id: string): Promise<boolean> {
    const chosen = this.pending.find((item) => item.id === id);
    if (chosen === undefined || chosen.request.kind !== 'edit' || chosen.proposedUri === undefined) return false;
    await this.showDiff(id, chosen.request, chosen.proposedUri);
    return true;
  }

  private find(target: unknown): Pending | undefined {
    if (typeof target === 'string') return this.pending.find((item) => item.id === target);
    if (target instanceof vscode.Uri) return this.pending.find((item) => item.proposedUri?.toString() === target.toString());
    if (target !== undefined) return undefined;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
    return this.pending.find((item) => item.proposedUri?.toString() === input.modified.toString());
  }

  /** A bare request (no run around it, as the extension-host tests call tools): approved or not. */
  async askRequest(request: ApprovalRequest, signal: AbortSignal): Promise<boolean> {
    return replyOf(await this.ask({ id: randomUUID(), request, alwaysAllowKey: undefined }, signal)).answer !== 'rejected';
  }

  /** Asks about one request and resolves with the first answer (card, diff buttons, closing the diff). */
  async ask(prompt: Pick<ApprovalPrompt, 'id' | 'request' | 'alwaysAllowKey'>, signal: AbortSignal): Promise<ApprovalDecision> {
    signal.throwIfAborted();
    const { id, request } = prompt;
    if (this.pending.some((item) => item.id === id)) throw new Error(`approval ${id} is already pending`);
    const proposedUri = request.kind === 'edit' ? this.proposedUriFor(id, request) : undefined;
    const disposables: vscode.Disposable[] = [];
    let settle: (outcome: ApprovalDecision | Error) => void = () => undefined;
    const decision = new Promise<ApprovalDecision>((resolve, reject) => {
      let settled = false;
      settle = (outcome) => {
        if (settled) return;
        settled = true;
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
    });
    // Everything that can decide is in place before the diff opens, so a quick close is not missed.
    this.pending.push({ id, request, alwaysAllowKey: prompt.alwaysAllowKey, proposedUri, decide: (answer) => settle(answer) });
    const onAbort = (): void => settle(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    disposables.push({ dispose: () => signal.removeEventListener('abort', onAbort) });
    // Whether the diff's tab has been seen open: from then on, its absence is a rejection.
    let seen = false;
    if (proposedUri !== undefined) {
      // Closing the diff without deciding is a rejection.
      disposables.push(
        vscode.window.tabGroups.onDidChangeTabs((event) => {
          if (event.closed.some((tab) => isDiffOf(tab, proposedUri))) settle('rejected');
          else if ([...event.opened, ...event.changed].some((tab) => isDiffOf(tab, proposedUri))) seen = true;
        }),
      );
    }
    let shown: Promise<void> | undefined;
    try {
      await this.updateContext();
      if (request.kind === 'edit' && proposedUri !== undefined) {
        // The watch starts before the diff is asked for and does not wait for
        // it: a tab closed while the diff is still opening can leave both the
        // close event and the `vscode.diff` command without an answer (the
        // likely cause of a CI hang). A diff seen and then gone, or not there
        // 2 s after it was shown, is a rejection.
        const diffIsOpen = () => vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => isDiffOf(tab, proposedUri)));
        let shownAt: number | undefined;
        const watch = setInterval(() => {
          if (diffIsOpen()) seen = true;
          else if (seen || (shownAt !== undefined && Date.now() - shownAt > 2000)) settle('rejected');
        }, 100);
        disposables.push({ dispose: () => clearInterval(watch) });
        shown = this.showDiff(id, request, proposedUri);
        shown.then(
          () => {
            shownAt = Date.now();
          },
          (error: unknown) => settle(error instanceof Error ? error : new Error(String(error))),
        );
      }
      return await decision;
    } finally {
      for (const disposable of disposables) disposable.dispose();
      const index = this.pending.findIndex((item) => item.id === id);
      if (index >= 0) this.pending.splice(index, 1);
      void this.updateContext();
      if (proposedUri !== undefined) {
        // A decision can come before the diff has finished opening (from the
        // card): wait for it (briefly, since it may never answer), so the close
        // finds its tab; if it opens later still, close it then.
        if (shown !== undefined && !(await settlesWithin(shown, 3000))) void shown.then(() => this.closeDiff(id, proposedUri), () => undefined);
        await this.closeDiff(id, proposedUri);
      }
    }
  }

  dispose(): void {
    for (const item of [...this.pending]) item.decide('rejected');
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
    // Where the file is, as the tools name it (its folder first in a multi-root workspace): two files may share a name.
    const folder = path.posix.dirname(toolPathOf(vscode.Uri.file(request.path)));
    const where = folder === '.' ? '' : ` (${folder})`;
    await vscode.commands.executeCommand('vscode.diff', currentUri, proposedUri, `Tandem wants to ${verb} ${name}${where} — Approve or Reject`, {
      preview: false,
      // The panel keeps focus: its card is where most answers come from.
      preserveFocus: true,
    });
  }

  private async closeDiff(id: string, proposedUri: vscode.Uri): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => isDiffOf(tab, proposedUri));
    try {
      // preserveFocus: closing would otherwise move the keyboard to the next editor tab, out of the panel where the answer was given.
      if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    } catch {
      // Already closed by the user.
    }
    for (const key of [...this.contents.keys()]) if (key.startsWith(`${PROPOSED_SCHEME}:/${id}/`)) this.contents.delete(key);
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', EDIT_PENDING_CONTEXT, this.pending.length > 0);
  }
}

/** Whether the promise settles (either way) within the time. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function isDiffOf(tab: vscode.Tab, proposedUri: vscode.Uri): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposedUri.toString();
}
