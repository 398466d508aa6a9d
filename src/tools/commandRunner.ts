// Runs a shell command as a child process: the fallback where VS Code's
// terminal shell integration is not available, and the runner in plain Node.
// The command gets its own process group so Stop and the timeout end the
// whole tree, not just the shell.
import { spawn, type SpawnOptionsWithStdioTuple, type StdioNull, type StdioPipe } from 'node:child_process';
import { HeadTailBuffer } from './outputCap';
import { TerminalTextCleaner } from './terminalText';

export interface CommandRequest {
  readonly command: string;
  /** Absolute folder to run in. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputChars: number;
  readonly signal: AbortSignal;
}

export interface CommandOutcome {
  /** Undefined when the process was killed (timeout, Stop) or the exit code is unknown. */
  readonly exitCode: number | undefined;
  /** The signal that ended the command on its own (not the timeout or Stop), e.g. SIGKILL from the OOM killer. */
  readonly signal?: NodeJS.Signals | undefined;
  readonly output: string;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Cancelled before the command was started: nothing ran. */
  readonly notStarted?: boolean | undefined;
  readonly durationMs: number;
  /** How it ran, for the log and the tests: `terminal` or `process`. */
  readonly via: 'terminal' | 'process';
}

export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
  /** Ends what the runner's commands left running (the window is closing). */
  dispose?(): void;
}

const KILL_GRACE_MS = 1500;
/**
 * How long after the shell exits its output may still arrive. A process it
 * started in the background (`npm run dev &`) keeps the pipes open for as long
 * as it runs: the result does not wait for it, and it is left running.
 */
export const BACKGROUND_GRACE_MS = 1000;

export class ChildProcessRunner implements CommandRunner {
  /** Process groups whose shell exited with something still running in them: ended on dispose. */
  private readonly leftRunning = new Set<number>();

  run(request: CommandRequest): Promise<CommandOutcome> {
    if (request.signal.aborted) {
      return Promise.resolve({ exitCode: undefined, output: '', timedOut: false, cancelled: true, notStarted: true, durationMs: 0, via: 'process' });
    }
    const started = Date.now();
    const output = new HeadTailBuffer(request.maxOutputChars);
    const windows = process.platform === 'win32';
    return new Promise((resolve) => {
      const options: SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe> = {
        cwd: request.cwd,
        detached: !windows,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TERM: 'dumb', NO_COLOR: '1' },
      };
      // Elsewhere than Windows the user's shell runs with stderr on the stdout pipe: one stream, in the
      // order the command wrote it, as a terminal shows it (two pipes are read in whatever order they fill).
      const child = windows
        ? spawn(request.command, { ...options, shell: true })
        : spawn('/bin/sh', ['-c', 'exec "$0" -c "$1" 2>&1', process.env['SHELL'] || '/bin/sh', request.command], options);
      let timedOut = false;
      let cancelled = false;
      let settled = false;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const killTree = () => {
        if (child.pid === undefined) return;
        if (windows) {
          spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
          return;
        }
        // The group, even when the shell has exited: what it left running is in it.
        const group = (signal: NodeJS.Signals) => {
          try {
            process.kill(-child.pid!, signal);
          } catch {
            // already gone
          }
        };
        group('SIGTERM');
        setTimeout(() => group('SIGKILL'), KILL_GRACE_MS).unref();
        // A process that left the group (setsid) may hold the pipes after the group is gone: the call still ends.
        setTimeout(() => finish(undefined, null), KILL_GRACE_MS + BACKGROUND_GRACE_MS).unref();
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killTree();
      }, request.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        killTree();
      };
      request.signal.addEventListener('abort', onAbort, { once: true });
      if (request.signal.aborted) onAbort();
      // Tools that force colour ignore NO_COLOR; progress bars redraw with \r: the model reads plain lines.
      const take = (stream: NodeJS.ReadableStream) => {
        const cleaner = new TerminalTextCleaner();
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          if (!settled) output.append(cleaner.push(chunk));
        });
        stream.on('end', () => {
          if (!settled) output.append(cleaner.flush());
        });
      };
      take(child.stdout);
      take(child.stderr);
      const finish = (exitCode: number | undefined, signal: NodeJS.Signals | null, note?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(graceTimer);
        request.signal.removeEventListener('abort', onAbort);
        if (note) output.append(`\n${note}`);
        resolve({
          exitCode: timedOut || cancelled ? undefined : exitCode,
          signal: timedOut || cancelled || signal === null ? undefined : signal,
          output: output.toString(),
          timedOut,
          cancelled,
          durationMs: Date.now() - started,
          via: 'process',
        });
      };
      child.on('error', (error) => finish(undefined, null, error.message));
      child.on('exit', (code, signal) => {
        if (timedOut || cancelled) return; // 'close' follows once the group is ended
        graceTimer = setTimeout(() => {
          if (!windows && child.pid !== undefined) this.leftRunning.add(child.pid);
          finish(code ?? undefined, signal, '[A process the command started is still running in the background; it is ended when VS Code closes. What it prints from now on is not shown.]');
        }, BACKGROUND_GRACE_MS);
      });
      // 'close' waits for the pipes: it comes at once unless something the command started still holds them.
      child.on('close', (code, signal) => {
        if (child.pid !== undefined) this.leftRunning.delete(child.pid);
        finish(code ?? undefined, signal);
      });
    });
  }

  /** SIGTERM to each group left running (a process that left its group with setsid is not reached). */
  dispose(): void {
    for (const group of this.leftRunning) {
      try {
        process.kill(-group, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    this.leftRunning.clear();
  }
}
