// What the Tandem view says when it is out of sight, with VS Code's own means:
// while a run works, the view's progress (its activity bar icon turns); while approvals or questions wait for the user, a badge
// with their number instead; and, when a run ends while the view is hidden, a
// badge saying how it ended, until the view is seen.
import * as vscode from 'vscode';
import { CustomEventName, type AgentEvent } from '../protocol/agentEvents';
import type { RunEnding } from './followUpQueue';

const ENDINGS: Record<RunEnding, string> = {
  answered: 'Tandem answered',
  stopped: 'Tandem stopped',
  failed: 'Tandem ran into an error',
};

export class ViewAttention implements vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private viewListener: vscode.Disposable | undefined;
  /** Ids of the approval and question cards waiting for the user. */
  private readonly waiting = new Set<string>();
  /** How the last run ended, while nobody has seen the view since. */
  private unseenEnding: string | undefined;
  /** Ends the view's progress. */
  private endProgress: (() => void) | undefined;
  private running = false;

  constructor(private readonly viewId: string) {}

  /** The view VS Code resolved (again, after it was disposed). */
  attach(view: vscode.WebviewView): void {
    this.viewListener?.dispose();
    this.view = view;
    this.viewListener = view.onDidChangeVisibility(() => {
      if (view.visible) this.unseenEnding = undefined;
      this.show();
    });
    this.show();
  }

  detach(view: vscode.WebviewView): void {
    if (this.view !== view) return;
    this.viewListener?.dispose();
    this.viewListener = undefined;
    this.view = undefined;
  }

  /** A run (or condensing) started or ended: the view's progress. */
  busy(running: boolean): void {
    this.running = running;
    if (running) this.unseenEnding = undefined;
    this.show();
  }

  /** A run ended (after `busy(false)`): said on the badge when the view is out of sight. */
  runEnded(ending: RunEnding): void {
    // Cards the run's end closed no longer wait for anyone.
    this.waiting.clear();
    if (this.view?.visible !== true) this.unseenEnding = ENDINGS[ending];
    this.show();
  }

  /** Follows the run's approval and question cards. */
  onEvent(event: AgentEvent): void {
    if (event.type !== 'CUSTOM' || (event['name'] !== CustomEventName.approval && event['name'] !== CustomEventName.elicitation)) return;
    const value = event['value'] as { id?: unknown; status?: unknown } | undefined;
    if (typeof value?.id !== 'string') return;
    const before = this.waiting.size;
    if (value.status === 'pending') this.waiting.add(value.id);
    else this.waiting.delete(value.id);
    if (this.waiting.size !== before) this.show();
  }

  private show(): void {
    // Working, not waiting (VS Code shows a view's progress before its badge, and a card waiting is no work),
    // out of sight: in sight the panel shows it, and a progress bar animating over it would only cost frames.
    const working = this.running && this.waiting.size === 0 && this.view?.visible !== true;
    if (working && !this.endProgress) {
      const done = new Promise<void>((resolve) => (this.endProgress = resolve));
      void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => done);
    }
    if (!working && this.endProgress) {
      this.endProgress();
      this.endProgress = undefined;
    }
    if (!this.view) return;
    const waiting = this.waiting.size;
    this.view.badge =
      waiting > 0
        ? { value: waiting, tooltip: waiting === 1 ? 'Tandem is waiting for your answer' : `Tandem is waiting for ${waiting} answers` }
        : this.unseenEnding !== undefined
          ? { value: 1, tooltip: this.unseenEnding }
          : // A count of 0 shows no badge; undefined left the last one up (code-server 1.100).
            { value: 0, tooltip: '' };
  }

  dispose(): void {
    this.endProgress?.();
    this.endProgress = undefined;
    this.viewListener?.dispose();
  }
}
