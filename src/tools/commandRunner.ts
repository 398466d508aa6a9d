// Runs a shell command as a child process: the fallback where VS Code's
// terminal shell integration is not available, and the runner in plain Node.
// The command gets its own process group so Stop and the timeout end the
// whole tree, not just the shell.
import { spawn } from 'node:child_process';
import { HeadTailBuffer } from './outputCap';

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
  readonly output: string;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** How it ran, for the log and the tests: `terminal` or `process`. */
  readonly via: 'terminal' | 'process';
}

export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
}

const KILL_GRACE_MS = 1500;

export class ChildProcessRunner implements CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome> {
    const started = Date.now();
    const output = new HeadTailBuffer(request.maxOutputChars);
    const windows = process.platform === 'win32';
    return new Promise((resolve) => {
      const child = spawn(request.command, {
        cwd: request.cwd,
        shell: windows ? true : process.env['SHELL'] || '/bin/sh',
        detached: !windows,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TERM: 'dumb', NO_COLOR: '1' },
      });
      let timedOut = false;
      let cancelled = false;
      let settled = false;
      const killTree = () => {
        if (child.pid === undefined || child.exitCode !== null) return;
        if (windows) {
          spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
          return;
        }
        const group = (signal: NodeJS.Signals) => {
          try {
            process.kill(-child.pid!, signal);
          } catch {
            // already gone
          }
        };
        group('SIGTERM');
        setTimeout(() => group('SIGKILL'), KILL_GRACE_MS).unref();
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
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.append(chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.append(chunk));
      const finish = (exitCode: number | undefined, error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        if (error) output.append(`\n${error.message}`);
        resolve({ exitCode: timedOut || cancelled ? undefined : exitCode, output: output.toString(), timedOut, cancelled, durationMs: Date.now() - started, via: 'process' });
      };
      child.on('error', (error) => finish(undefined, error));
      // 'close' waits for the pipes; a background grandchild holding them open is ended with the group.
      child.on('close', (code) => finish(code ?? undefined));
    });
  }
}
