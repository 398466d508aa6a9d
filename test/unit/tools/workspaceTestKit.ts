// A temp workspace with the real tools over the plain-Node host, and an
// approval gate that answers as scripted and remembers what it was asked.

import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EditJournal } from '../../../src/tools/editJournal';
import { after, afterEach, before, it } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedModelServerOptions } from '../../fixtures/scriptedModelServer';
import { findOnPath, NodeWorkspaceHost, type NodeWorkspaceHostOptions } from '../../../src/tools/nodeWorkspaceHost';
import type { ApprovalGate, ApprovalRequest, Tool, ToolContext, ToolResult } from '../../../src/tools/tool';
import { createWorkspaceTools } from '../../../src/tools/workspaceTools';

export class ScriptedApproval implements ApprovalGate {
  readonly asked: ApprovalRequest[] = [];
  constructor(public answer: boolean) {}
  async request(request: ApprovalRequest): Promise<boolean> {
    this.asked.push(request);
    return this.answer;
  }
}

export interface Kit {
  readonly root: string;
  readonly host: NodeWorkspaceHost;
  /** What the tools logged (the host's log lines). */
  readonly logged: string[];
  readonly journal: EditJournal;
  readonly tools: readonly Tool[];
  readonly approval: ScriptedApproval;
  run(name: string, args: unknown, runId?: string): Promise<ToolResult>;
  dispose(): void;
}

export function makeTempDir(prefix = 'tandem-tools-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function makeKit(options: Partial<NodeWorkspaceHostOptions> & { folders?: NodeWorkspaceHostOptions['folders']; approve?: boolean } = {}): Kit {
  const root = makeTempDir();
  const logged: string[] = [];
  const host = new NodeWorkspaceHost({ ...options, folders: options.folders ?? [root], log: (line) => logged.push(line) });
  const journal = new EditJournal(host);
  const tools = createWorkspaceTools(host, journal);
  const approval = new ScriptedApproval(options.approve ?? true);
  return {
    root,
    host,
    logged,
    journal,
    tools,
    approval,
    run: (name, args, runId = 'run-1') => {
      const tool = tools.find((candidate) => candidate.name === name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      const context: ToolContext = { runId, callId: `call-${name}`, signal: new AbortController().signal, approval };
      return tool.run(args, context);
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Inside a describe: a temporary tree that `build` fills, searched by both
 * engines (the JavaScript one, and ripgrep when it is on PATH, which a test
 * of this machine asserts); closed and removed after the describe.
 */
export function withBothEngines<T>(prefix: string, build: (root: string) => T): { readonly engines: [string, Kit][]; built(): T } {
  const rgPath = findOnPath('rg');
  const engines: [string, Kit][] = [];
  let root = '';
  let result: T | undefined;
  before(() => {
    root = makeTempDir(prefix);
    result = build(root);
    engines.push(['javascript', makeKit({ folders: [root] })]);
    if (rgPath !== undefined) engines.push(['ripgrep', makeKit({ folders: [root], ripgrep: rgPath })]);
  });
  after(() => {
    for (const [, kit] of engines) kit.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  it('has ripgrep on this machine', () => {
    assert.ok(rgPath, 'rg not found on PATH; the ripgrep half of this suite would not run');
  });
  return { engines, built: () => result as T };
}

/** Writes a file under root, making its folders. */
export function putFile(root: string, name: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), content);
}

/** Temp folders holding the given files (path → text), all removed after the file's tests. */
export function fileWorkspaces(prefix: string): (files: Record<string, string>) => string {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = makeTempDir(prefix);
    roots.push(root);
    for (const [relative, text] of Object.entries(files)) putFile(root, relative, text);
    return root;
  };
}

/**
 * Per test: a temp workspace with the real tools (`kit`) and a scripted model
 * server (`serve`), both closed and removed after each test.
 */
export function perTestWorkspace(): { kit(options?: Parameters<typeof makeKit>[0]): Kit; serve(options: ScriptedModelServerOptions): Promise<ScriptedModelServer> } {
  let kit: Kit | undefined;
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    kit?.dispose();
    kit = undefined;
  });
  return {
    kit: (options) => (kit = makeKit(options)),
    serve: async (options) => (server = await startScriptedModelServer(options)),
  };
}
