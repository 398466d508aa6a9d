// A real AG-UI endpoint on loopback for the tests: the runner with the
// workspace tools on a temp folder, the scripted model, a token, and
// @ag-ui/client's HttpAgent as the client (it runs AG-UI's verifier on every
// stream it reads; `verify` runs it again on what a test collected).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach } from 'node:test';
import { HttpAgent, verifyEvents } from '@ag-ui/client';
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { AgentSettings } from '../../../src/agent/agentSettings';
import type { AutoApprovePolicy } from '../../../src/agent/policyApprovalGate';
import { AgUiRunner, type AgUiRunnerOptions } from '../../../src/agui/agUiRunner';
import { createAgUiServer, listenOnLoopback, type AgUiServer } from '../../../src/agui/agUiServer';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { Tool } from '../../../src/tools/tool';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedTurn } from '../../fixtures/scriptedModelServer';
import { settingsFor } from '../agent/agentTestSupport';
import { makeKit, type Kit } from '../tools/workspaceTestKit';

export const TOKEN = 'test-token-0123456789abcdef';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

export interface Endpoint {
  readonly url: string;
  readonly model: ScriptedModelServer;
  readonly kit: Kit;
  readonly runner: AgUiRunner;
  readonly server: AgUiServer;
  /** An HttpAgent with the token, on a thread of its own unless one is given. */
  agent(options?: { threadId?: string; messages?: Message[]; state?: Record<string, unknown> }): HttpAgent;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface EndpointOptions {
  readonly turns?: ScriptedTurn[];
  readonly policy?: AutoApprovePolicy;
  readonly settings?: Partial<AgentSettings>;
  /** Changes the settings once the model server's address is known (say, a model's window). */
  readonly adjust?: (settings: AgentSettings) => AgentSettings;
  readonly allowedOrigins?: string[];
  readonly maxBodyBytes?: number;
  readonly keepAliveMs?: number;
  readonly runner?: Partial<AgUiRunnerOptions>;
  /** Tools besides the workspace tools (MCP). */
  readonly extraTools?: () => readonly Tool[];
  /** A setup that takes this long (say, reading keys). */
  readonly prepareDelayMs?: number;
  /** What the setup says to the client (say, MCP servers starting). */
  readonly prepareNotices?: readonly (readonly [code: string, message: string, level: 'info' | 'warning'])[];
}

export async function startEndpoint(options: EndpointOptions = {}): Promise<Endpoint> {
  const model = await startScriptedModelServer({ turns: options.turns ?? [] });
  cleanup.push(() => model.close());
  const kit = makeKit();
  cleanup.push(() => kit.dispose());
  writeFileSync(path.join(kit.root, 'notes.md'), '# Notes\n\nThe release is on Tuesday; the owner is Ada.\n');
  const base = settingsFor(model, options.settings);
  const settings = options.adjust ? options.adjust(base) : base;
  const runner = new AgUiRunner({
    serverToolNames: () => new Set(kit.tools.map((tool) => tool.name)),
    prepare: async (_input, notice) => {
      for (const [code, message, level] of options.prepareNotices ?? []) notice(code, message, level);
      if (options.prepareDelayMs) await new Promise((resolve) => setTimeout(resolve, options.prepareDelayMs));
      return {
        settings,
        functionCallModel: createChatModel(settings.functionCallModel),
        answerModel: createChatModel(settings.answerModel),
        tools: [...kit.tools, ...(options.extraTools?.() ?? [])],
        policy: options.policy ?? 'readOnly',
      };
    },
    ...options.runner,
  });
  const server = createAgUiServer({ token: TOKEN, allowedOrigins: options.allowedOrigins ?? [], runner, maxBodyBytes: options.maxBodyBytes, keepAliveMs: options.keepAliveMs });
  const { url } = await listenOnLoopback(server, 0);
  cleanup.push(async () => {
    runner.dispose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url,
    model,
    kit,
    runner,
    server,
    agent: (agentOptions = {}) =>
      new HttpAgent({
        url,
        headers: { authorization: `Bearer ${TOKEN}` },
        ...(agentOptions.threadId && { threadId: agentOptions.threadId }),
        initialMessages: agentOptions.messages ?? [],
        ...(agentOptions.state && { initialState: agentOptions.state }),
      }),
    post: (body, headers = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

export function runInput(overrides: Partial<RunAgentInput> = {}): RunAgentInput {
  return {
    threadId: 'thread-1',
    runId: 'run-1',
    state: {},
    messages: [{ id: 'u1', role: 'user', content: 'When is the release?' }],
    tools: [],
    context: [],
    forwardedProps: {},
    ...overrides,
  };
}

/** Runs AG-UI's own verifier over collected events; throws on the first violation. */
export async function verify(events: readonly BaseEvent[]): Promise<void> {
  await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
}

/** The events of an SSE body, checked with AG-UI's verifier. */
export async function sseEvents(response: Response): Promise<Record<string, any>[]> {
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, any>);
  await verify(events as BaseEvent[]);
  return events;
}

/** Runs the agent once and collects every event it saw. */
export async function collect(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}): Promise<{ events: BaseEvent[]; result: unknown; newMessages: Message[] }> {
  const events: BaseEvent[] = [];
  const { result, newMessages } = await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  await verify(events);
  return { events, result, newMessages };
}

export function finishedOf(events: readonly BaseEvent[]): Record<string, any> {
  const finished = events.at(-1) as Record<string, any> | undefined;
  assert.equal(finished?.type, 'RUN_FINISHED', JSON.stringify(events.map((event) => event.type)));
  return finished;
}

export function typesOf(events: readonly BaseEvent[]): string[] {
  return events.map((event) => event.type);
}
