// run_command through a VS Code terminal with shell integration, so the user
// sees the command run where they would run it: one "Tandem" terminal per
// workspace folder, the command through `shellIntegration.executeCommand`,
// the output from the execution's stream (escape sequences stripped), the
// exit code from `onDidEndTerminalShellExecution`. Where shell integration
// does not activate within a short wait (an unsupported shell, the feature
// switched off), or the terminal is busy with another call, the child-process
// runner runs the command with the same rules.
import * as vscode from 'vscode';
import type { CommandOutcome, CommandRequest, CommandRunner } from '../tools/commandRunner';
import { HeadTailBuffer } from '../tools/outputCap';
import { TerminalTextCleaner } from '../tools/terminalText';
import { toolNameOf } from './workspaceFolderNames';
import { descendantPids, endDescendants, hangUpNow } from '../common/processTree';
import { TERMINAL_NAME } from './tandemTerminal';

/** How long a new terminal gets to activate shell integration (bash: under a second idle, 3-5 s measured on a loaded machine). */
const ACTIVATION_WAIT_MS = 8000;
/** After the end event, how long the output stream gets to deliver its last data. */
const STREAM_DRAIN_MS = 1000;
/** After Ctrl+C, how long before the shell's children are ended by signal. */
const INTERRUPT_GRACE_MS = 1500;
/** After the interrupt, how long to wait for the end event before giving up on the terminal. */
const END_WAIT_MS = 5000;

interface TandemTerminal {
  readonly terminal: vscode.Terminal;
  busy: boolean;
  /** Shell integration did not come within the wait: later calls do not wait again. */
  waited: boolean;
  /** Where the shell started; its folder until a command ran (before that, the shell may not have reported one). */
  readonly startCwd: string;
  ranCommand: boolean;
}

/** A Tandem terminal's shell, for ending what it runs when the window goes. */
interface ShellRecord {
  pid: number | undefined;
  /** When VS Code said the terminal closed. */
  closedAt?: number;
}

/**
 * An extension host that is shutting down closes its terminals (the events
 * fire) before extensions are disposed; a shell closed this recently is one
 * of those, not one the user closed long ago whose id may have been reused.
 */
const CLOSED_WITH_THE_HOST_MS = 5000;

/** How long a new child of the shell must outlive the command to count as left in the background. */
const BACKGROUND_CHECK_MS = 300;

export class TerminalCommandRunner implements CommandRunner, vscode.Disposable {
  private readonly terminals = new Map<string, TandemTerminal>();
  private readonly shells = new Map<vscode.Terminal, ShellRecord>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly fallback: CommandRunner,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.subscription = vscode.window.onDidCloseTerminal((closed) => {
      for (const [key, entry] of this.terminals) if (entry.terminal === closed) this.terminals.delete(key);
      const shell = this.shells.get(closed);
      if (shell) {
        shell.closedAt = Date.now();
        // Past the window in which a closing host's own closes count, the record has no more use.
        setTimeout(() => this.shells.delete(closed), CLOSED_WITH_THE_HOST_MS).unref?.();
      }
    });
  }

  async run(request: CommandRequest): Promise<CommandOutcome> {
    if (request.signal.aborted) return cancelledBeforeStart();
    const shaped = workspaceShellSettings(request.cwd);
    if (shaped.length > 0) {
      // A repository's settings would run code in the terminal's shell (an env's PROMPT_COMMAND, a profile's
      // shell) beside the command the card showed: the child process takes none of them.
      this.log(`run_command: the workspace sets ${shaped.join(', ')}; running as a child process: ${request.command}`);
      return this.fallback.run(request);
    }
    const entry = this.terminalFor(request.cwd);
    if (entry.busy) {
      this.log(`run_command: the ${entry.terminal.name} terminal is busy; running as a child process: ${request.command}`);
      return this.fallback.run(request);
    }
    entry.busy = true;
    try {
      const integration = await this.shellIntegration(entry, request.signal);
      if (request.signal.aborted) return cancelledBeforeStart();
      if (!integration) {
        this.log(`run_command: no shell integration in the ${entry.terminal.name} terminal; running as a child process: ${request.command}`);
        return await this.fallback.run(request);
      }
      if (!(await this.enterFolder(entry, integration, request.cwd, request.signal))) {
        if (request.signal.aborted) return cancelledBeforeStart();
        this.log(`run_command: could not change the terminal to ${request.cwd}; running as a child process: ${request.command}`);
        return await this.fallback.run(request);
      }
      this.log(`run_command: via the ${entry.terminal.name} terminal (shell integration): ${request.command}`);
      // The terminal's process may have been relaunched since it was made: the shell is the one running now.
      const shell = this.shells.get(entry.terminal);
      if (shell) shell.pid = (await entry.terminal.processId) ?? shell.pid;
      const before = shell?.pid === undefined ? undefined : new Set(await descendantPids(shell.pid));
      return await this.withBackgroundNote(shell?.pid, before, await this.execute(entry, integration, request));
    } finally {
      entry.busy = false;
    }
  }

  /** The folder's Tandem terminal, created (not shown) on first use. */
  private terminalFor(cwd: string): TandemTerminal {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(cwd));
    const key = folder?.uri.toString() ?? vscode.Uri.file(cwd).toString();
    const existing = this.terminals.get(key);
    if (existing && existing.terminal.exitStatus === undefined) return existing;
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const terminal = vscode.window.createTerminal({
      name: folder && multiRoot ? `${TERMINAL_NAME}: ${toolNameOf(folder)}` : TERMINAL_NAME,
      cwd: folder?.uri ?? vscode.Uri.file(cwd),
      iconPath: new vscode.ThemeIcon('hubot'),
      // A pager would wait for a key nobody presses.
      env: { PAGER: 'cat', GIT_PAGER: 'cat' },
      isTransient: true,
    });
    const entry: TandemTerminal = { terminal, busy: false, waited: false, startCwd: (folder?.uri ?? vscode.Uri.file(cwd)).fsPath, ranCommand: false };
    const shell: ShellRecord = { pid: undefined };
    this.shells.set(terminal, shell);
    void terminal.processId.then((pid) => (shell.pid = pid));
    this.terminals.set(key, entry);
    return entry;
  }

  private async shellIntegration(entry: TandemTerminal, signal: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
    if (entry.terminal.shellIntegration) return entry.terminal.shellIntegration;
    if (entry.waited) return undefined;
    const started = Date.now();
    const integration = await new Promise<vscode.TerminalShellIntegration | undefined>((resolve) => {
      const done = (value: vscode.TerminalShellIntegration | undefined) => {
        clearTimeout(timer);
        listener.dispose();
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onAbort = () => done(undefined);
      const timer = setTimeout(() => done(entry.terminal.shellIntegration), ACTIVATION_WAIT_MS);
      const listener = vscode.window.onDidChangeTerminalShellIntegration((event) => {
        if (event.terminal === entry.terminal) done(event.shellIntegration);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    if (!signal.aborted) {
      entry.waited = true;
      this.log(`run_command: shell integration ${integration ? `active after ${Date.now() - started} ms` : `not active after ${ACTIVATION_WAIT_MS} ms`}`);
    }
    return integration;
  }

  /**
   * The shell still has a child once the command ended (`npm run dev &`): say so, as the child-process
   * way does. The terminal shows what it prints from then on, so later commands' output may carry it.
   */
  private async withBackgroundNote(shell: number | undefined, before: ReadonlySet<number> | undefined, outcome: CommandOutcome): Promise<CommandOutcome> {
    if (outcome.cancelled || outcome.timedOut || shell === undefined || before === undefined) return outcome;
    // New children of the shell, not ones it had before (an earlier job, a prompt's helper)...
    const started = (await descendantPids(shell)).filter((pid) => !before.has(pid));
    if (started.length === 0) return outcome;
    // ...that are still there a moment later (a prompt's own helpers come and go).
    await new Promise((resolve) => setTimeout(resolve, BACKGROUND_CHECK_MS));
    const still = new Set(await descendantPids(shell));
    if (!started.some((pid) => still.has(pid))) return outcome;
    const note =
      '[A process the command started is still running in the background in the Tandem terminal; it is ended when VS Code closes. ' +
      'What it prints from now on may show in the output of later commands there.]';
    const output = outcome.output.replace(/\s*$/u, '');
    return { ...outcome, output: output ? `${output}\n\n${note}` : note };
  }

  /** Makes the terminal's working folder `cwd` (a `cd` the user sees); false when that did not work. */
  private async enterFolder(entry: TandemTerminal, integration: vscode.TerminalShellIntegration, cwd: string, signal: AbortSignal): Promise<boolean> {
    // code-server reports the folder as a vscode-local: URI.
    const reported = integration.cwd && (integration.cwd.scheme === 'file' || integration.cwd.scheme === 'vscode-local') ? integration.cwd.fsPath : undefined;
    const current = reported ?? (entry.ranCommand ? undefined : entry.startCwd);
    if (current !== undefined && samePath(current, cwd)) return true;
    // Quoting differs between Windows shells; the child process runs there instead.
    if (process.platform === 'win32') return false;
    const outcome = await this.execute(entry, integration, { command: `cd ${posixQuote(cwd)}`, cwd, timeoutMs: 5000, maxOutputChars: 2000, signal });
    return outcome.exitCode === 0;
  }

  private execute(entry: TandemTerminal, integration: vscode.TerminalShellIntegration, request: CommandRequest): Promise<CommandOutcome> {
    const started = Date.now();
    const output = new HeadTailBuffer(request.maxOutputChars);
    const cleaner = new TerminalTextCleaner();
    const { terminal } = entry;
    terminal.show(true);
    entry.ranCommand = true;
    const execution = integration.executeCommand(request.command);
    // Read at once: the stream holds only what is written after the first read.
    const stream = execution.read();

    return new Promise<CommandOutcome>((resolve) => {
      let exitCode: number | undefined;
      let ended = false;
      let streamDone = false;
      let timedOut = false;
      let cancelled = false;
      let settled = false;
      let closed = false;
      const timers: ReturnType<typeof setTimeout>[] = [];
      const later = (ms: number, action: () => void) => timers.push(setTimeout(action, ms));

      const settle = () => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        endListener.dispose();
        closeListener.dispose();
        request.signal.removeEventListener('abort', onAbort);
        output.append(cleaner.flush());
        if (closed) output.append('\n(the terminal was closed)');
        resolve({
          exitCode: timedOut || cancelled ? undefined : exitCode,
          output: output.toString(),
          timedOut,
          cancelled,
          durationMs: Date.now() - started,
          via: 'terminal',
        });
      };
      const maybeSettle = () => {
        if (ended && streamDone) settle();
      };
      const interrupt = () => {
        // Ctrl+C reaches the command's process group, as a user's would.
        terminal.sendText('\u0003', false);
        later(INTERRUPT_GRACE_MS, () => {
          if (ended) return;
          void terminal.processId.then((shell) => (shell === undefined ? undefined : endDescendants(shell, INTERRUPT_GRACE_MS)));
        });
        later(END_WAIT_MS, () => {
          if (ended) return;
          // The command outlived Ctrl+C and the signals: this terminal cannot take another command.
          this.log(`run_command: the command did not end in the ${terminal.name} terminal; closing it`);
          terminal.dispose();
          settle();
        });
      };
      const onAbort = () => {
        if (ended || cancelled) return;
        cancelled = true;
        interrupt();
      };

      const endListener = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.execution !== execution) return;
        exitCode = event.exitCode;
        ended = true;
        // The last data may still be on its way through the stream.
        later(STREAM_DRAIN_MS, settle);
        maybeSettle();
      });
      const closeListener = vscode.window.onDidCloseTerminal((closedTerminal) => {
        if (closedTerminal !== terminal) return;
        closed = true;
        settle();
      });
      later(request.timeoutMs, () => {
        if (ended || cancelled) return;
        timedOut = true;
        interrupt();
      });
      request.signal.addEventListener('abort', onAbort, { once: true });

      void (async () => {
        try {
          for await (const data of stream) {
            if (settled) break;
            output.append(cleaner.push(data));
          }
        } catch {
          // The stream ends with the execution; a failure leaves what was read.
        }
        streamDone = true;
        maybeSettle();
      })();
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.fallback.dispose?.();
    // On a reload the terminals' disposal may never reach the terminal process host, which keeps the
    // shells for a reconnection that a transient terminal never makes: a command left running there
    // would go on unseen and unstoppable. Ended here, by signal, as closing the terminal would.
    const now = Date.now();
    for (const shell of this.shells.values()) {
      if (shell.pid !== undefined && (shell.closedAt === undefined || now - shell.closedAt < CLOSED_WITH_THE_HOST_MS)) hangUpNow(shell.pid);
    }
    this.shells.clear();
    for (const entry of this.terminals.values()) entry.terminal.dispose();
    this.terminals.clear();
  }
}

function cancelledBeforeStart(): CommandOutcome {
  return { exitCode: undefined, output: '', timedOut: false, cancelled: true, notStarted: true, durationMs: 0, via: 'terminal' };
}

function samePath(left: string, right: string): boolean {
  const normalize = (value: string) => value.replace(/[\\/]+$/, '');
  return process.platform === 'win32' || process.platform === 'darwin'
    ? normalize(left).toLowerCase() === normalize(right).toLowerCase()
    : normalize(left) === normalize(right);
}

/** A single-quoted word for POSIX shells (and fish, zsh). */
export function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The terminal settings a workspace (or one of its folders) sets that decide
 * what a new terminal's shell runs: its environment, its profiles, its
 * default profile. VS Code applies them in a trusted workspace; Tandem
 * treats a repository's settings as untrusted, so it does not run the user's
 * approved command beside them.
 */
export function workspaceShellSettings(cwd: string): string[] {
  const platform = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux';
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(cwd));
  const terminal = vscode.workspace.getConfiguration('terminal.integrated', folder?.uri);
  return [`env.${platform}`, `profiles.${platform}`, `defaultProfile.${platform}`, `shellArgs.${platform}`, `shell.${platform}`]
    .filter((key) => {
      const value = terminal.inspect(key);
      return value?.workspaceValue !== undefined || value?.workspaceFolderValue !== undefined;
    })
    .map((key) => `terminal.integrated.${key}`);
}
