// The last command each terminal ran and what it printed, for the `@`
// picker's "Terminal" item ("explain this error"). VS Code gives no way to
// read a terminal's past output: it is read through shell integration as each
// command runs, its raw head and tail kept (constant work per chunk: a log
// streaming all day costs next to nothing), cleaned of escape sequences only
// when attached, and forgotten with the terminal. Tandem's own terminal is
// left out: what run_command ran is already in the conversation.
import * as vscode from 'vscode';
import { CONTEXT_ITEM_MAX_CHARS } from '../tools/contextContent';
import { RawHeadTail } from '../tools/terminalText';
import type { TerminalCommand } from './contextItems';
import { TERMINAL_NAME } from './terminalCommandRunner';

interface Recording {
  readonly execution: vscode.TerminalShellExecution;
  readonly terminal: string;
  readonly commandLine: string;
  readonly cwd: string | undefined;
  readonly output: RawHeadTail;
  exitCode: number | undefined;
  running: boolean;
  readonly startedAt: number;
}

function isTandemTerminal(terminal: vscode.Terminal): boolean {
  return terminal.name === TERMINAL_NAME || terminal.name.startsWith(`${TERMINAL_NAME}: `);
}

export class TerminalHistory implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, Recording>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidStartTerminalShellExecution((event) => this.record(event)),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        const recording = this.last.get(event.terminal);
        if (recording?.execution !== event.execution) return;
        recording.exitCode = event.exitCode;
        recording.running = false;
      }),
      vscode.window.onDidCloseTerminal((terminal) => this.last.delete(terminal)),
    ];
  }

  /**
   * The active terminal's last command, else the latest of any terminal:
   * chosen now (when it is attached), read each time `read` is called (when
   * the message is sent), so a command still running gives what it printed
   * by then, and a later command never replaces the one the chip names.
   */
  latest(): { readonly commandLine: string; read(): TerminalCommand } | undefined {
    const active = vscode.window.activeTerminal;
    const recording = (active && this.last.get(active)) ?? [...this.last.values()].sort((a, b) => b.startedAt - a.startedAt)[0];
    if (!recording) return undefined;
    return {
      commandLine: recording.commandLine,
      read: () => {
        const { terminal, commandLine, cwd, exitCode, running } = recording;
        return { terminal, commandLine, cwd, exitCode, running, output: recording.output.cleaned(CONTEXT_ITEM_MAX_CHARS) };
      },
    };
  }

  private record(event: vscode.TerminalShellExecutionStartEvent): void {
    if (isTandemTerminal(event.terminal)) return;
    const recording: Recording = {
      execution: event.execution,
      terminal: event.terminal.name,
      commandLine: event.execution.commandLine.value,
      cwd: event.execution.cwd?.fsPath,
      output: new RawHeadTail(),
      exitCode: undefined,
      running: true,
      startedAt: Date.now(),
    };
    this.last.set(event.terminal, recording);
    // The stream must be read from the start event on, or its data is gone.
    void (async () => {
      try {
        for await (const data of event.execution.read()) {
          if (this.last.get(event.terminal) !== recording) return; // a newer command took its place
          recording.output.append(data);
        }
      } catch {
        // The stream ends with the command; a failure keeps what was read.
      }
    })();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.last.clear();
  }
}
