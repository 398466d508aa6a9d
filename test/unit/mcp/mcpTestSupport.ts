// Shared helpers for the MCP tests: paths to the real servers, a loopback
// HTTP server process, a ToolContext, and a wait-until.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import type { McpServerDefinition } from '../../../src/mcp/mcpConfig';
import type { ApprovalGate, ToolContext, ToolProgress } from '../../../src/tools/tool';

const root = path.resolve(__dirname, '../../..');
export const EVERYTHING_SERVER = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const FAULT_SERVER = path.join(root, 'test/fixtures/mcp/faultServer.mjs');
export const SILENT_SERVER = path.join(root, 'test/fixtures/mcp/silentServer.mjs');

export function stdioServer(name: string, args: string[], extra: Partial<McpServerDefinition> = {}): McpServerDefinition {
  return {
    name,
    source: 'test',
    workspaceFolder: undefined,
    inputs: [],
    timeoutMs: undefined,
    type: 'stdio',
    command: process.execPath,
    args,
    env: {},
    envFile: undefined,
    cwd: undefined,
    ...extra,
  } as McpServerDefinition;
}

export function remoteServer(name: string, type: 'http' | 'sse', url: string): McpServerDefinition {
  return { name, source: 'test', workspaceFolder: undefined, inputs: [], timeoutMs: 10_000, type, url, headers: {} };
}

const allowAll: ApprovalGate = { request: async () => true };

export function toolContext(signal: AbortSignal = new AbortController().signal, progress: ToolProgress[] = []): ToolContext {
  return { runId: 'run-1', callId: 'call-1', signal, approval: allowAll, onProgress: (update) => progress.push(update) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Starts the everything server in `sse` or `streamableHttp` mode on a loopback port (a free one unless given). */
export async function startHttpEverything(mode: 'sse' | 'streamableHttp', fixedPort?: number): Promise<{ port: number; process: ChildProcess; stop(): Promise<void> }> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`everything ${mode} did not start: ${output}`)), 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (new RegExp(`(port|listening on port) ${port}`, 'i').test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`everything ${mode} exited with ${code}: ${output}`));
    });
  });
  return {
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

export async function waitFor(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
