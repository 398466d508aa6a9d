// The last command each terminal ran and what it printed, for the `@`
// picker's "Terminal" item ("explain this error"). VS Code gives no way to
// read a terminal's past output: it is read through shell integration as each
// command runs, its raw head and tail kept (constant work per chunk: a log
// streaming all day costs next to nothing), cleaned of escape sequences only
// when attached, and forgotten with the terminal. Tandem's own terminal is
// left out: what run_command ran is already in the conversation.
import type * as vscode from 'vscode';
import { CONTEXT_ITEM_MAX_CHARS } from '../tools/contextContent';
import { RawHeadTail } from '../tools/terminalText';
import type { TerminalCommand } from './contextItems';
import { isTandemTerminalName } from './tandemTerminal';

interface Recording {
  readonly execution: vscode.TerminalShellExecution;
  readonly terminal: string;
  readonly commandLine: string;
  readonly cwd: string | undefined;
  readonly output: RawHeadTail;
  exitCode: number | undefined;
  running: boolean;
  /** Which command started last: Date.now() ties within a millisecond and goes back when the clock is set back. */
  readonly startOrder: number;
}

/** What it listens to: `vscode.window` in the extension, fakes with the same events in unit tests. */
export type TerminalEvents = Pick<typeof vscode.window, 'activeTerminal' | 'onDidStartTerminalShellExecution' | 'onDidEndTerminalShellExecution' | 'onDidCloseTerminal'>;

export class TerminalHistory implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, Recording>();
  private starts = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly window: TerminalEvents) {
    this.subscriptions = [
      window.onDidStartTerminalShellExecution((event) => this.record(event)),
      window.onDidEndTerminalShellExecution((event) => {
        const recording = this.last.get(event.terminal);
        if (recording?.execution !== event.execution) return;
        recording.exitCode = event.exitCode;
        recording.running = false;
      }),
      window.onDidCloseTerminal((terminal) => this.last.delete(terminal)),
    ];
  }

  /**
   * The active terminal's last command, else the latest of any terminal:
   * chosen now (when it is attached), read each time `read` is called (when
   * the message is sent), so a command still running gives what it printed
   * by then, and a later command never replaces the one the chip names.
   */
  latest(): { readonly commandLine: string; read(): TerminalCommand } | undefined {
    const active = this.window.activeTerminal;
    const recording = (active && this.last.get(active)) ?? [...this.last.values()].sort((a, b) => b.startOrder - a.startOrder)[0];
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
    if (isTandemTerminalName(event.terminal.name)) return;
    const recording: Recording = {
      execution: event.execution,
      terminal: event.terminal.name,
      commandLine: event.execution.commandLine.value,
      cwd: event.execution.cwd?.fsPath,
      output: new RawHeadTail(),
      exitCode: undefined,
      running: true,
      startOrder: ++this.starts,
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
