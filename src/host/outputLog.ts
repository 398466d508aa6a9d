// The Tandem output channel (a LogOutputChannel: levels, timestamps, and the
// user picks the level). API keys never reach it: callers log names, not values.
import * as vscode from 'vscode';

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
  private pending: string[] = [];

  /**
   * Logs a warning and shows it in a window message, once per distinct text.
   * Those that come together (one reading of the settings finds three
   * mistakes) share one message rather than stacking a toast each.
   */
  warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.channel.warn(message);
    this.pending.push(message);
    if (this.pending.length === 1) queueMicrotask(() => this.showPending());
  }

  private showPending(): void {
    const messages = this.pending;
    this.pending = [];
    if (messages.length === 1) {
      // A warning about a setting offers to open it there (the toast alone may be cut short).
      const message = messages[0] ?? '';
      const setting = /\btandem\.[\w.]*\w/.exec(message)?.[0];
      const open = 'Open Setting';
      void vscode.window.showWarningMessage(`Tandem: ${message}`, ...(setting ? [open] : [])).then((choice) => {
        if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
      });
      return;
    }
    const settings = [...new Set(messages.flatMap((message) => /\btandem\.[\w.]*\w/.exec(message)?.[0] ?? []))];
    const open = 'Open Settings';
    const show = 'Show All';
    const summary = `Tandem: ${messages.length} warnings${settings.length ? ` (${settings.join(', ')})` : ''}. ${messages[0]} …`;
    void vscode.window.showWarningMessage(summary, ...(settings.length ? [open] : []), show).then((choice) => {
      if (choice === show) this.show();
      if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', settings.length === 1 ? settings[0] : 'tandem.');
    });
  }

  dispose(): void {
    this.channel.dispose();
  }
}
