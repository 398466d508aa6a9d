// The Tandem output channel (a LogOutputChannel: levels, timestamps, and the
// user picks the level). API keys never reach it: callers log names, not values.
import * as vscode from 'vscode';
import type { SettingsWarning } from '../agent/agentSettings';
import { aboutSetting, warningToast } from './warningToast';
import { openSettingWhereSet, type WorkspaceValueInForce } from './settingsEditor';

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  /** Verbose trace of thoughts, tool inputs and outputs (`tandem.agent.verbose`). */
  trace(message: string): void;
  show(): void;
}

export class OutputLog implements Log, vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Tandem', { log: true });
  private readonly warned = new Set<string>();
  /** Set once the host has started (it knows the workspace's consent); until then a workspace value counts as in force. */
  workspaceValueInForce: WorkspaceValueInForce | undefined;

  info(message: string): void {
    this.channel.info(message);
  }
  warn(message: string): void {
    this.channel.warn(message);
  }
  error(message: string): void {
    this.channel.error(message);
  }
  debug(message: string): void {
    this.channel.debug(message);
  }
  /**
   * Verbose output is logged at info level: the user asked for it with a
   * setting, and the default channel level would hide trace lines.
   */
  trace(message: string): void {
    this.channel.info(message);
  }
  show(): void {
    this.channel.show(true);
  }

  /** Warnings logged in this turn of the event loop, shown together once it ends. */
  private pending: SettingsWarning[] = [];

  /**
   * Logs a warning and shows it in a window message, once per distinct text.
   * Those that come together (one reading of the settings finds three
   * mistakes) share one message rather than stacking a toast each. A warning
   * that names the setting it is about offers to open that one.
   */
  warnOnce(warning: string | SettingsWarning): void {
    const about = aboutSetting(warning);
    if (this.warned.has(about.message)) return;
    this.warned.add(about.message);
    this.channel.warn(about.message);
    this.pending.push(about);
    if (this.pending.length === 1) queueMicrotask(() => this.showPending());
  }

  private showPending(): void {
    const { text, settings, open, showAll } = warningToast(this.pending);
    this.pending = [];
    // The toast may be cut short: its setting, or the log, has the rest.
    const show = 'Show All';
    const actions = [...(open ? [open] : []), ...(showAll ? [show] : [])];
    void vscode.window.showWarningMessage(text, ...actions).then((choice) => {
      if (choice === show) this.show();
      // The Settings editor finds one setting by its key, several by the prefix they share.
      if (open && choice === open) void openSettingWhereSet(settings.length === 1 ? settings[0]! : 'tandem.', this.workspaceValueInForce);
    });
  }

  dispose(): void {
    this.channel.dispose();
  }
}
