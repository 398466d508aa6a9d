// MCP inside a real extension host (mocha BDD): a `.vscode/mcp.json` written
// as VS Code documents it starts real servers, edits reconnect only what
// changed, a broken file is named and does not stop the servers, the setting
// adds servers, and dispose ends every process. Storage (secrets, workspace
// state) is in memory; files, watchers, settings and processes are real.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createMcpHostService, type McpHostContext, type McpHostService, type McpServerTrust } from '../../src/host/mcpHostService';
import type { Log } from '../../src/host/outputLog';
import type { ToolContext } from '../../src/tools/tool';

const root = vscode.extensions.getExtension('tandem-dev.tandem')?.extensionPath ?? path.resolve(__dirname, '../../../../..');
const everything = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const faultServer = path.join(root, 'test/fixtures/mcp/faultServer.mjs');

class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : defaultValue) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

function memorySecrets(): vscode.SecretStorage {
  const values = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key) => values.get(key),
    store: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
    keys: async () => [...values.keys()],
    onDidChange: changed.event,
  } as vscode.SecretStorage;
}

function captureLog(lines: string[]): Log {
  const push = (line: string): void => void lines.push(line);
  return { info: push, warn: push, error: push, debug: push, trace: push, show: () => undefined };
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; ${describeState()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let describeState = (): string => '';

/** Answers consent prompts as a user would: allows every server but those named "denied…"; records what was asked. */
function recordingTrust(asked: string[]): McpServerTrust {
  const decisions = new Map<string, 'allow' | 'deny'>();
  const key = (definition: { name: string; source: string }) => `${definition.source}|${definition.name}|${JSON.stringify(definition)}`;
  return {
    decision: (definition) => decisions.get(key(definition)),
    ask: async (definition) => {
      asked.push(definition.name);
      const answer = definition.name.startsWith('denied') ? 'deny' : 'allow';
      decisions.set(key(definition), answer);
      return answer === 'allow';
    },
    reset: async () => decisions.clear(),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function stdio(args: string[]): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args };
}

describe('MCP servers from .vscode/mcp.json in the extension host', function () {
  this.timeout(60_000);
  const subscriptions: { dispose(): unknown }[] = [];
  const lines: string[] = [];
  let service: McpHostService;
  let configPath: string;

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration workspace has a folder');
    configPath = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(configPath), { recursive: true });
    fs.writeFileSync(
      configPath,
      `{\n  // written as VS Code documents it\n  "servers": {\n    "everything": ${JSON.stringify(stdio([everything, 'stdio']))},\n    "broken": { "type": "stdio" },\n  },\n}\n`,
    );
    const context: McpHostContext = { subscriptions, secrets: memorySecrets(), workspaceState: new MemoryMemento() };
    service = createMcpHostService(context, captureLog(lines), { trust: recordingTrust(asked), workspaceSettingServers: () => workspaceSettingValue });
    describeState = () => `statuses: ${JSON.stringify(service.hub.statuses())}; log: ${lines.slice(-15).join(' | ')}`;
  });

  const asked: string[] = [];
  /** What the host passes when the user allowed the workspace's tandem.mcp.servers value. */
  let workspaceSettingValue: unknown;

  it('starts nothing before the first agent run, then asks for each workspace server', async () => {
    await service.reload();
    assert.deepEqual(service.hub.statuses(), []);
    assert.deepEqual(asked, []);
    await service.startForRun();
    assert.deepEqual(asked, ['everything']);
  });

  after(async () => {
    service?.dispose();
    await vscode.workspace.getConfiguration('tandem').update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(path.dirname(configPath), { recursive: true, force: true });
  });

  const status = (name: string) => service.hub.statuses().find((candidate) => candidate.name === name);

  it('starts the servers of the file and names the broken entry', async () => {
    await waitFor('everything connected', () => status('everything')?.state === 'connected');
    assert.equal(status('everything')?.source, configPath);
    assert.equal(status('broken')?.state, 'error');
    assert.match(status('broken')?.error ?? '', /mcp\.json: server "broken": "command"/);
    const echo = service.hub.tools().find((tool) => tool.name === 'everything__echo');
    const context: ToolContext = { runId: 'r', callId: 'c', signal: new AbortController().signal, approval: { request: async () => true } };
    assert.equal((await echo?.run({ message: 'from the extension host' }, context))?.text, 'Echo: from the extension host');
  });

  it('reconnects only what changed when the file changes', async () => {
    const pid = service.hub.processId({ name: 'everything' });
    assert.ok(pid !== undefined);
    fs.writeFileSync(configPath, JSON.stringify({ servers: { everything: stdio([everything, 'stdio']), fault: stdio([faultServer]) } }, null, 2));
    await waitFor('the reload', () => status('broken') === undefined);
    await service.startForRun(); // the next agent run asks for the new server
    await waitFor('fault connected', () => status('fault')?.state === 'connected');
    assert.equal(status('broken'), undefined);
    assert.equal(service.hub.processId({ name: 'everything' }), pid);
  });

  it('a run right after a server crashed waits for its restart and offers its tools again', async () => {
    const pid = service.hub.processId({ name: 'everything' });
    assert.ok(pid !== undefined);
    process.kill(pid, 'SIGKILL');
    await waitFor('the crash noticed', () => status('everything')?.state !== 'connected');
    const failed: string[] = [];
    await service.startForRun({ waiting: () => undefined, failed: (servers) => failed.push(...servers.map((server) => server.name)) });
    assert.equal(status('everything')?.state, 'connected');
    assert.notEqual(service.hub.processId({ name: 'everything' }), pid);
    assert.ok(service.hub.tools().some((tool) => tool.name === 'everything__echo'), 'its tools are offered to the run');
    assert.deepEqual(failed, []);
  });

  it('names a broken file and its fault, and keeps the running servers', async () => {
    const pid = service.hub.processId({ name: 'everything' });
    fs.writeFileSync(configPath, '{ "servers": { "everything": ');
    await waitFor('the config error', () => service.configErrors().some((fault) => fault.startsWith(`${configPath}: not valid JSON`)));
    assert.equal(status('everything')?.state, 'connected');
    assert.equal(service.hub.processId({ name: 'everything' }), pid);
  });

  it('refuses an mcp.json over 1 MB before reading it, with the reason, and keeps the running servers', async () => {
    const pid = service.hub.processId({ name: 'everything' });
    // Valid JSON, so only the size can refuse it.
    fs.writeFileSync(configPath, JSON.stringify({ servers: { everything: stdio([everything, 'stdio']) }, padding: 'x'.repeat(2 * 1024 * 1024) }));
    const said = `${configPath}: cannot be read: it is 2 MB; Tandem reads an mcp.json up to 1 MB`;
    await waitFor('the size refusal', () => service.configErrors().includes(said));
    assert.ok(service.configErrors().includes(`${configPath}: keeping its previous servers until the file is fixed.`), service.configErrors().join(' | '));
    assert.equal(status('everything')?.state, 'connected');
    assert.equal(service.hub.processId({ name: 'everything' }), pid);
  });

  it('asks again for a changed definition and never starts one the user denied', async () => {
    const before = asked.length;
    fs.writeFileSync(
      configPath,
      JSON.stringify({ servers: { everything: stdio([everything, 'stdio']), fault: { ...stdio([faultServer]), env: { CHANGED: '1' } }, deniedServer: stdio([faultServer]) } }, null, 2),
    );
    await service.reload();
    assert.equal(status('deniedServer'), undefined, 'an unasked server waits for the next run');
    await service.startForRun();
    assert.deepEqual(asked.slice(before), ['fault', 'deniedServer']);
    await waitFor('the changed server', () => status('fault')?.state === 'connected');
    assert.equal(status('deniedServer'), undefined);
  });

  it("adds servers from the user's tandem.mcp.servers setting without asking", async () => {
    const before = asked.length;
    await vscode.workspace.getConfiguration('tandem').update('mcp.servers', { fromSettings: stdio([faultServer]) }, vscode.ConfigurationTarget.Global);
    await waitFor('the settings server', () => status('fromSettings')?.state === 'connected');
    assert.equal(status('fromSettings')?.source, 'settings');
    assert.equal(asked.length, before);
  });

  it("asks for servers of a workspace's tandem.mcp.servers value the user allowed, like mcp.json servers", async () => {
    const before = asked.length;
    workspaceSettingValue = { fromWorkspaceSetting: stdio([faultServer]) };
    await service.startForRun();
    assert.deepEqual(asked.slice(before), ['fromWorkspaceSetting']);
    await waitFor('the workspace setting server', () => status('fromWorkspaceSetting')?.state === 'connected');
    assert.equal(status('fromWorkspaceSetting')?.source, 'workspace settings');
  });

  it('ends every server process on dispose', async () => {
    const pids = service.hub.statuses().map((candidate) => service.hub.processId(candidate)).filter((pid): pid is number => pid !== undefined);
    assert.ok(pids.length >= 2);
    service.dispose();
    await waitFor('all processes ended', () => pids.every((pid) => !isAlive(pid)));
  });
});
