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

  /** Logs a warning and shows it in a window message, once per distinct text. */
  warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.channel.warn(message);
    // A warning about a setting offers to open it there (the toast alone may be cut short).
    const setting = /\btandem\.[\w.]*\w/.exec(message)?.[0];
    const open = 'Open Setting';
    void vscode.window.showWarningMessage(`Tandem: ${message}`, ...(setting ? [open] : [])).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    });
  }

  dispose(): void {
    this.channel.dispose();
  }
}
