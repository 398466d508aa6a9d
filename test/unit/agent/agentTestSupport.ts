// Shared pieces for the loop tests: settings, real in-memory tools, a run
// collector that checks every stream with AG-UI's own verifier, and lookups.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { verifyEvents } from '@ag-ui/client';
import { EventType } from '@ag-ui/core';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { AgentSettings } from '../../../src/agent/agentSettings';
import { createPolicyApprovalGate } from '../../../src/agent/policyApprovalGate';
import { runAgent, type AgentDependencies, type RunResult } from '../../../src/agent/runAgent';
import { SessionCache } from '../../../src/agent/sessionCache';
import type { Steering } from '../../../src/agent/steering';
import type { ChatMessage } from '../../../src/models/chatModel';
import { createChatModel } from '../../../src/models/openAiChatModel';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import type { Tool, ToolResult } from '../../../src/tools/tool';
import type { RuleFile } from '../../../src/tools/rulesFiles';
import type { NestedRulesFinder } from '../../../src/tools/nestedRules';
import { afterEach } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedTurn } from '../../fixtures/scriptedModelServer';

export function settingsFor(server: ScriptedModelServer, overrides: Partial<AgentSettings> = {}): AgentSettings {
  const functionCallModel = { baseUrl: server.baseUrl, model: 'fc-model', temperature: 0, maxTokens: 512 };
  const answerModel = { baseUrl: server.baseUrl, model: 'answer-model', temperature: 0.3, maxTokens: 512 };
  return {
    functionCallModel,
    answerModel,
    singleModel: false,
    mode: 'agent',
    maxIterations: 5,
    maxExecutionSeconds: 60,
    maxTokensPerRun: 0,
    maxCostPerRun: 0,
    responseMode: 'integrated',
    nonToolReply: 'answer',
    minResultLength: 20,
    verbose: false,
    autoApprove: 'readOnly',
    alwaysAllow: [],
    sensitivePaths: [],
    rulesFiles: [],
    mcpServers: {},
    pricing: { 'fc-model': { input: 1, output: 2 }, 'answer-model': { input: 10, output: 20 } },
    ...overrides,
  };
}

/** A real tool over an in-memory table; counts its runs. */
export class TableTool implements Tool {
  readonly description: string;
  readonly parameters = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] };
  readonly source = { kind: 'workspace' } as const;
  runs = 0;
  constructor(
    readonly name: string,
    private readonly table: Record<string, string>,
    readonly readOnly = true,
  ) {
    this.description = `Looks a key up in the ${name} table.`;
  }
  async run(args: unknown): Promise<ToolResult> {
    this.runs++;
    const key = (args as { key?: unknown }).key;
    if (typeof key !== 'string') return { text: 'Error: key must be a string.', isError: true };
    const value = this.table[key];
    return value === undefined ? { text: `No entry for ${key}.`, isError: false } : { text: value };
  }
}

/** A tool that throws, to prove a tool fault never ends the run. */
export const throwingTool: Tool = {
  name: 'explode',
  description: 'Always throws.',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  source: { kind: 'workspace' },
  run: async () => {
    throw new Error('disk on fire');
  },
};

export interface CollectedRun {
  readonly events: AgentEvent[];
  readonly result: RunResult | undefined;
  readonly error: AgentEvent | undefined;
}

export interface RunOptions {
  readonly tools?: readonly Tool[];
  readonly messages?: readonly ChatMessage[];
  readonly cache?: SessionCache;
  readonly signal?: AbortSignal;
  readonly approve?: (request: unknown) => boolean | Promise<boolean>;
  readonly evaluator?: AgentDependencies['evaluator'];
  readonly mode?: 'agent' | 'chat';
  readonly onEvent?: (event: AgentEvent) => void;
  readonly singleModel?: boolean;
  readonly rules?: readonly RuleFile[];
  readonly nestedRules?: NestedRulesFinder;
  /** Retry timing of both models (default: fastRetry, which caps a Retry-After at 50 ms). */
  readonly retry?: typeof fastRetry;
  /** Messages sent into the run while it goes. */
  readonly steering?: Steering;
  /** The run's verbose log (tool inputs and outputs). */
  readonly log?: (line: string) => void;
}

export const fastRetry = { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 50, random: () => 0 };

export async function runScripted(settings: AgentSettings, options: RunOptions = {}): Promise<CollectedRun> {
  const retry = options.retry ?? fastRetry;
  const functionCallModel = createChatModel(settings.functionCallModel, { retry });
  const answerModel = options.singleModel ? functionCallModel : createChatModel(settings.answerModel, { retry });
  const deps: AgentDependencies = {
    functionCallModel,
    answerModel,
    tools: options.tools ?? [],
    approval: createPolicyApprovalGate(settings.autoApprove, async (request) => options.approve?.(request) ?? false),
    settings,
    cache: options.cache ?? new SessionCache(),
    evaluator: options.evaluator,
    log: options.log,
  };
  const events: AgentEvent[] = [];
  const messages = options.messages ?? [{ role: 'user', content: 'What is in the table?' }];
  for await (const event of runAgent({ threadId: 't1', runId: randomUUID(), messages, mode: options.mode, rules: options.rules, nestedRules: options.nestedRules, steering: options.steering }, deps, options.signal ?? new AbortController().signal)) {
    events.push(event);
    options.onEvent?.(event);
  }
  await assertVerified(events);
  const finished = events.find((event) => event.type === EventType.RUN_FINISHED);
  return {
    events,
    result: finished?.result as RunResult | undefined,
    error: events.find((event) => event.type === EventType.RUN_ERROR),
  };
}

/** Every stream must pass @ag-ui/client's event verifier. */
export async function assertVerified(events: readonly AgentEvent[]): Promise<void> {
  const verified = await lastValueFrom(verifyEvents()(from(events as never[])).pipe(toArray()));
  assert.equal(verified.length, events.length, 'the verifier passed every event through');
}

export function customValues<T>(events: readonly AgentEvent[], name: string): T[] {
  return events.filter((event) => event.type === EventType.CUSTOM && event.name === name).map((event) => event.value as T);
}

/** The concatenated text of the messages whose kind (tandem.messageKind) matches. */
export function messageText(events: readonly AgentEvent[], kind: 'answer' | 'interim' | 'toolResult'): string[] {
  const kinds = new Map(customValues<{ messageId: string; kind: string }>(events, 'tandem.messageKind').map((value) => [value.messageId, value.kind]));
  const texts = new Map<string, string>();
  for (const event of events) {
    if (event.type !== EventType.TEXT_MESSAGE_CONTENT) continue;
    const id = event.messageId as string;
    if (kinds.get(id) === kind) texts.set(id, (texts.get(id) ?? '') + (event.delta as string));
  }
  return [...texts.values()];
}

export function reasoningText(events: readonly AgentEvent[]): string {
  return events
    .filter((event) => event.type === EventType.REASONING_MESSAGE_CONTENT)
    .map((event) => event.delta as string)
    .join('');
}

export function notices(events: readonly AgentEvent[]): { code: string; level: string; message: string }[] {
  return customValues(events, 'tandem.notice');
}

export function toolStatuses(events: readonly AgentEvent[]): { toolName: string; status: string }[] {
  return customValues(events, 'tandem.toolStatus');
}

/** For a test file: starts a scripted model server per test and closes it after the test. */
export function scriptedServers(): (turns: ScriptedTurn[]) => Promise<ScriptedModelServer> {
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (turns) => (server = await startScriptedModelServer({ turns }));
}
