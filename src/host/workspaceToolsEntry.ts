// The one entry the extension wires: the workspace tools over VS Code, the
// approval gate per run (diff editor + `tandem.tools.autoApprove`), the edit
// journal behind "Revert this run's edits", and the three commands.
// Nothing heavy happens here until the first run asks for tools.

import * as vscode from 'vscode';
import { createPolicyApprovalGate, type ApprovalPolicy, type AutoApprovePolicy } from '../agent/policyApprovalGate';
import { EditJournal, type RevertConflict, type RevertOutcome } from '../tools/editJournal';
import type { JournalRunSnapshot } from '../tools/editJournalSnapshot';
import type { ApprovalGate, Tool } from '../tools/tool';
import { createWorkspaceTools } from '../tools/workspaceTools';
import { ChildProcessRunner } from '../tools/commandRunner';
import { createRunCommandTool } from '../tools/runCommandTool';
import { createFetchUrlTool } from '../tools/fetchUrlTool';
import { createFindUsagesTool } from '../tools/findUsagesTool';
import type { Approver } from '../agent/runApprovalGate';
import { toolPathOf } from './workspaceFolderNames';
import { addToAlwaysAllow } from './alwaysAllowSetting';
import { ApprovalCenter } from './approvalCenter';
import { TerminalCommandRunner } from './terminalCommandRunner';
import { VscodeCodeNavigation } from './vscodeCodeNavigation';
import { VscodeDiagnostics } from './vscodeDiagnostics';
import { VscodeWorkspaceHost } from './workspaceVscodeHost';

export const APPROVE_EDIT_COMMAND = 'tandem.approveEdit';
export const REJECT_EDIT_COMMAND = 'tandem.rejectEdit';
export const REJECT_EDIT_WITH_NOTE_COMMAND = 'tandem.rejectEditWithNote';
export const REVERT_RUN_EDITS_COMMAND = 'tandem.revertRunEdits';
/** The buttons of the question asked per file changed after the run. */
export const RESTORE_ANYWAY = 'Restore anyway';
export const KEEP_CHANGES = 'Skip';

export interface WorkspaceToolsForVscode extends vscode.Disposable {
  /** The workspace tools, run_command and get_diagnostics (built on first call). */
  tools(): readonly Tool[];
  /** The gate for one run; `policy` defaults to the `tandem.tools.autoApprove` setting. */
  approvalGateFor(runId: string, policy?: AutoApprovePolicy | ApprovalPolicy): ApprovalGate;
  /** How a run asks the user: the panel's approval card and the diff editor. */
  approverFor(runId: string): Approver;
  /** Absolute paths of the files a run changed (empty when none or reverted). */
  editedFiles(runId: string): readonly string[];
  /** The run's journal in its stored form (kept with the conversation); undefined when it changed nothing. */
  runEditsSnapshot(runId: string): JournalRunSnapshot | undefined;
  /**
   * Restores every file the run touched, from `stored` when this window no
   * longer holds the run (a reload); asks per file changed since the run.
   * Undefined when there is no record of the run.
   */
  revertRun(runId: string, stored?: JournalRunSnapshot): Promise<RevertOutcome | undefined>;
  readonly journal: EditJournal;
  readonly host: VscodeWorkspaceHost;
}

export interface DisposableOwner {
  readonly subscriptions: { dispose(): unknown }[];
}

export function createWorkspaceToolsForVscode(owner: DisposableOwner, log: (line: string) => void = () => undefined): WorkspaceToolsForVscode {
  const host = new VscodeWorkspaceHost(log);
  const journal = new EditJournal(host);
  let tools: readonly Tool[] | undefined;
  let terminals: TerminalCommandRunner | undefined;
  let approvals: ReturnType<typeof ApprovalCenter.acquire> | undefined;
  const disposables: vscode.Disposable[] = [];

  const revert = async (runId: string): Promise<RevertOutcome> => {
    const outcome = await journal.revertRun(runId, { confirm: (conflict) => confirmRestore(conflict) });
    log(`reverted run ${runId}: ${outcome.restored.length} restored, ${outcome.skipped.length} kept, ${outcome.failed.length} failed`);
    for (const file of outcome.skipped) log(`revert kept ${file}: changed after the run`);
    for (const failure of outcome.failed) log(`revert failed for ${failure.path}: ${failure.reason}`);
    return outcome;
  };

  registerCommandOnce(disposables, APPROVE_EDIT_COMMAND, (target?: unknown) => ApprovalCenter.current()?.decide(true, target) ?? false);
  registerCommandOnce(disposables, REJECT_EDIT_COMMAND, (target?: unknown) => ApprovalCenter.current()?.decide(false, target) ?? false);
  registerCommandOnce(disposables, REJECT_EDIT_WITH_NOTE_COMMAND, async (target?: unknown, given?: unknown) => {
    const center = ApprovalCenter.current();
    // The target is resolved now: once the input box has focus, the active tab is no longer the diff.
    const pending = center?.pendingFor(target);
    if (center === undefined || pending === undefined) return false;
    const note = typeof given === 'string' ? given : await vscode.window.showInputBox({
      title: 'Reject the edit',
      prompt: 'Tell the model why (optional): it reads this with the rejection. Escape keeps the edit pending.',
      placeHolder: 'e.g. keep the old name; only change the tests',
    });
    if (note === undefined) return false;
    return center.decide(false, pending, note.trim());
  });
  registerCommandOnce(disposables, REVERT_RUN_EDITS_COMMAND, async (runId?: unknown) => {
    const id = typeof runId === 'string' ? runId : journal.latestRunWithEdits();
    if (id === undefined) {
      void vscode.window.showInformationMessage('Tandem: there are no edits to revert.');
      return { restored: [], removedFolders: [], skipped: [], failed: [] } satisfies RevertOutcome;
    }
    const outcome = await revert(id);
    const kept = outcome.skipped.length > 0 ? `; kept ${outcome.skipped.length} changed after the run` : '';
    const message = `Tandem: restored ${outcome.restored.length} file${outcome.restored.length === 1 ? '' : 's'}${kept}${outcome.failed.length > 0 ? `; ${outcome.failed.length} could not be restored (see the log)` : ''}.`;
    void (outcome.failed.length > 0 ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message));
    return outcome;
  });

  const entry: WorkspaceToolsForVscode = {
    host,
    journal,
    tools: () =>
      (tools ??= [
        // Edits report the file's problems once VS Code's language services settle; get_diagnostics lists them.
        ...createWorkspaceTools(host, journal, new VscodeDiagnostics(log)),
        // The Tandem terminal where shell integration works, else a child process; never in Restricted Mode (checked at each call).
        createRunCommandTool({
          host,
          runner: (terminals = new TerminalCommandRunner(new ChildProcessRunner(), log)),
          isTrusted: () => vscode.workspace.isTrusted,
          changedInRun: (runId) => journal.touchedFiles(runId),
        }),
        // Asks for each site unless allowed; never in Restricted Mode (checked at each call).
        createFetchUrlTool({ isTrusted: () => vscode.workspace.isTrusted }),
        // Go to Definition and Find All References, from whatever language extensions serve them.
        createFindUsagesTool({ host, navigation: new VscodeCodeNavigation(log) }),
      ]),
    approvalGateFor: (runId, policy) => {
      approvals ??= ApprovalCenter.acquire();
      const center = approvals.center;
      return createPolicyApprovalGate(policy ?? readAutoApprovePolicy(log), (request, signal) => {
        log(`run ${runId}: asking about ${request.kind === 'edit' ? `${request.toolName} ${request.path}` : request.toolName}`);
        return center.askRequest(request, signal);
      });
    },
    approverFor: (runId) => {
      approvals ??= ApprovalCenter.acquire();
      const center = approvals.center;
      return {
        ask: (prompt, signal) => {
          log(`run ${runId}: asking about ${prompt.tool}${prompt.sensitive ? ' (sensitive path)' : ''}: ${prompt.summary}`);
          return center.ask(prompt, signal);
        },
        rememberAlwaysAllow: async (key) => {
          await addToAlwaysAllow(key);
          log(`always allow ${key}: added to the user's tandem.tools.alwaysAllow`);
        },
      };
    },
    editedFiles: (runId) => journal.touchedFiles(runId),
    runEditsSnapshot: (runId) => journal.snapshot(runId),
    revertRun: async (runId, stored) => {
      if (stored !== undefined) journal.adopt(runId, stored);
      return journal.hasEdits(runId) ? revert(runId) : undefined;
    },
    dispose: () => {
      for (const disposable of disposables.splice(0)) disposable.dispose();
      terminals?.dispose();
      approvals?.release();
      approvals = undefined;
    },
  };
  owner.subscriptions.push(entry);
  return entry;
}

/** Asks about one file that changed after the run (modal): restore it anyway, or keep it. */
async function confirmRestore(conflict: RevertConflict): Promise<boolean> {
  const name = toolPathOf(vscode.Uri.file(conflict.path));
  const effect = conflict.deletes ? 'Restoring deletes it (the run created it).' : 'Restoring replaces its content with what it held before the run.';
  // Skip comes first, so it is the button Enter presses: the choice that loses
  // nothing. (A dialog's close button is never its default, so VS Code adds a
  // Cancel beside it, which keeps the file too.)
  const choice = await vscode.window.showWarningMessage(
    `Tandem: ${name} no longer holds what the run wrote.`,
    { modal: true, detail: `${conflict.reason} ${effect} Skip (or Cancel) keeps it as it is now.` },
    { title: KEEP_CHANGES },
    { title: RESTORE_ANYWAY },
  );
  return choice?.title === RESTORE_ANYWAY;
}

export function readAutoApprovePolicy(log: (line: string) => void = () => undefined): AutoApprovePolicy {
  // The fallback when no run policy is given: the user's own value only (a workspace's needs consent, see settingsReader).
  const value = vscode.workspace.getConfiguration('tandem').inspect<unknown>('tools.autoApprove')?.globalValue;
  if (value === 'readOnly' || value === 'all' || value === 'none') return value;
  if (value !== undefined) log(`tandem.tools.autoApprove has an unknown value ${JSON.stringify(value)}; using readOnly`);
  return 'readOnly';
}

/**
 * Registers a command unless this extension host already has it: a second
 * copy of this module (the extension-host tests bundle one) then shares the
 * first copy's handlers, which reach the same ApprovalCenter.
 */
function registerCommandOnce(disposables: vscode.Disposable[], id: string, handler: (...args: never[]) => unknown): void {
  try {
    disposables.push(vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown));
  } catch {
    // Already registered by another copy; its handler does the same.
  }
}
