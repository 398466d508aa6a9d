// Starting and stopping code-server for the real-VS-Code tests: a free
// loopback port, a process group we own, and the link of an extension folder
// into the extensions dir under the name VS Code expects.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export const repositoryRoot = path.resolve(__dirname, '..', '..');
export const codeServerBinary = path.join(repositoryRoot, '.cache', 'code-server', 'node_modules', '.bin', 'code-server');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Links `extensionDir` into `extensionsDir` as `<publisher>.<name>-<version>`, the layout VS Code scans. */
export function linkExtension(extensionDir: string, extensionsDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const linkName = `${manifest.publisher}.${manifest.name}-${manifest.version}`;
  fs.symlinkSync(path.resolve(extensionDir), path.join(extensionsDir, linkName), 'dir');
  return `${manifest.publisher}.${manifest.name}`;
}

export interface CodeServerProcess {
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startCodeServer(options: {
  userDataDir: string;
  extensionsDir: string;
  workspace: string;
  env: Record<string, string>;
  signal?: AbortSignal;
  /** Keep Workspace Trust (default: off, with --disable-workspace-trust). */
  workspaceTrust?: boolean;
  /** Extra code-server arguments, before the folder. */
  extraArgs?: readonly string[];
}): Promise<CodeServerProcess> {
  if (!fs.existsSync(codeServerBinary)) {
    throw new Error(`code-server is not installed at ${codeServerBinary}; run: bash scripts/setup-vscode.sh`);
  }
  const port = await freePort();
  const args = [
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir', options.userDataDir,
    '--extensions-dir', options.extensionsDir,
    '--config', path.join(options.userDataDir, 'code-server.yaml'),
    // e.g. TANDEM_CODE_SERVER_LOG=trace when debugging the workbench itself.
    ...(process.env['TANDEM_CODE_SERVER_LOG'] ? ['--log', process.env['TANDEM_CODE_SERVER_LOG']] : []),
    ...(options.extraArgs ?? []),
    options.workspace,
  ];
  let output = '';
  // A process group of its own, so stop() ends code-server and every child
  // it spawned (extension host, pty host, file watcher) and nothing else.
  const child: ChildProcess = spawn(codeServerBinary, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...hermeticEnvironment(), ...options.env },
  });
  const append = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If the test process ends without close() (a crash, a timeout), take the group down with it.
  const killOnExit = (): void => {
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    signalGroup(child.pid, 'SIGTERM');
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000).unref());
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      signalGroup(child.pid, 'SIGKILL');
      await exited;
    }
    // Children that outlived their parent are still in the group.
    signalGroup(child.pid, 'SIGKILL');
  };

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(url, () => child.exitCode !== null, options.signal);
  } catch (error) {
    await stop();
    throw new Error(`code-server did not start: ${(error as Error).message}\n${output}`);
  }
  return { url, output: () => output, stop };
}

/** This process's environment minus Tandem's own variables, so a developer's key or model settings never leak into a test. */
function hermeticEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AGENT_|OPENAI_)/.test(name)));
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitForHealthy(url: string, hasExited: () => boolean, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (hasExited()) throw new Error('the process exited');
    try {
      const response = await fetch(`${url}/healthz`, signal ? { signal } : {});
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('no answer on /healthz within 30 s');
}

/** Every log file under the user-data dir whose path mentions the extension host. */
export function extensionHostLogs(userDataDir: string): string {
  const logsDir = path.join(userDataDir, 'logs');
  const parts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of safeReadDir(dir)) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.log') && /exthost|Tandem/i.test(full)) {
        parts.push(`--- ${path.relative(logsDir, full)}\n${fs.readFileSync(full, 'utf8')}`);
      }
    }
  };
  walk(logsDir);
  return parts.join('\n');
}

function safeReadDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
