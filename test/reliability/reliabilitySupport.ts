// The invariants the reliability suite checks after every fault, and a
// conversation kept the way the host keeps it (compacted events, history
// fed back into the next run):
//  - the run ends, within its limit, with an answer, a notice or a clear
//    error (a message and a suggestion) — never a hang;
//  - its stream passes AG-UI's verifier;
//  - the conversation is intact: every question is still there, in order,
//    every run closed, and the next run in it works;
//  - no file changed without approval (a snapshot of every file).
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { EventType } from '@ag-ui/core';
import type { AgentSettings } from '../../src/agent/agentSettings';
import { createPolicyApprovalGate } from '../../src/agent/policyApprovalGate';
import type { Approver } from '../../src/agent/runApprovalGate';
import { runAgent, type RunResult } from '../../src/agent/runAgent';
import { SessionCache } from '../../src/agent/sessionCache';
import { appendCompacted } from '../../src/host/conversationStore';
import { createChatModel, type ChatModelOptions } from '../../src/models/openAiChatModel';
import type { AgentEvent } from '../../src/protocol/agentEvents';
import { historyMessages } from '../../src/protocol/conversationHistory';
import { HostEventName } from '../../src/protocol/hostEventNames';
import type { ApprovalGate, Tool } from '../../src/tools/tool';
import { assertVerified, fastRetry, notices } from '../unit/agent/agentTestSupport';

export interface RunOptions {
  readonly settings: AgentSettings;
  readonly tools?: readonly Tool[];
  /** Default: the `readOnly` policy and a person who says no to everything else. */
  readonly approval?: Approver | ApprovalGate;
  readonly modelOptions?: ChatModelOptions;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: AgentEvent) => void;
  /** The run must end within this (default 20 s), or the test fails as a hang. */
  readonly limitMs?: number;
}

export interface Outcome {
  readonly events: AgentEvent[];
  readonly kind: 'answer' | 'notice' | 'error';
  readonly answer: string;
  readonly result: RunResult | undefined;
  readonly error: AgentEvent | undefined;
}

/** One conversation, kept as the host keeps it: compacted events, history from them. */
export class Conversation {
  readonly events: AgentEvent[] = [];
  readonly questions: string[] = [];

  /** Asks `question` in this conversation and checks that the run ends well. */
  async ask(question: string, options: RunOptions): Promise<Outcome> {
    this.questions.push(question);
    appendCompacted(this.events, { type: EventType.CUSTOM, name: HostEventName.userMessage, value: { text: question }, timestamp: Date.now() } as AgentEvent);
    const modelOptions = { retry: fastRetry, ...options.modelOptions };
    const functionCallModel = createChatModel(options.settings.functionCallModel, modelOptions);
    const answerModel = createChatModel(options.settings.answerModel, modelOptions);
    const controller = new AbortController();
    options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const events: AgentEvent[] = [];
    const consume = async () => {
      const stream = runAgent(
        { threadId: 'reliability', runId: randomUUID(), messages: historyMessages(this.events), mode: 'agent' },
        {
          functionCallModel,
          answerModel,
          tools: options.tools ?? [],
          approval: options.approval ?? createPolicyApprovalGate('readOnly', async () => false),
          settings: options.settings,
          cache: new SessionCache(),
        },
        controller.signal,
      );
      for await (const event of stream) {
        events.push(event);
        appendCompacted(this.events, event);
        options.onEvent?.(event);
      }
    };
    const limitMs = options.limitMs ?? 20_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the run did not end within ${limitMs} ms (a hang); last events: ${events.slice(-5).map((event) => event.type).join(', ')}`)), limitMs);
    });
    try {
      await Promise.race([consume(), hang]);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    return judge(events);
  }

  /** Every question still there, in order; every run started has ended; the stream as a whole is valid. */
  async assertIntact(): Promise<void> {
    const asked = historyMessages(this.events)
      .filter((message) => message.role === 'user')
      .map((message) => typedQuestion(message.content));
    assert.deepEqual(asked, this.questions, 'every question of the conversation is still in it, in order');
    const started = this.events.filter((event) => event.type === EventType.RUN_STARTED).length;
    const ended = this.events.filter((event) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR).length;
    assert.equal(ended, started, 'every run in the conversation has ended');
  }
}

/** A user message as the user typed it: the models get it after Tandem's record of the run before, when there is one. */
export function typedQuestion(content: string): string {
  return content.replace(/^\[Tandem's record, not typed by the user\][\s\S]*?\n\n/, '');
}

/** Checks one run's stream: valid, exactly one ending, and an answer, a notice or a clear error. */
export async function judge(events: AgentEvent[]): Promise<Outcome> {
  await assertVerified(events);
  const last = events.at(-1);
  assert.ok(last && (last.type === EventType.RUN_FINISHED || last.type === EventType.RUN_ERROR), `the run ended with ${last?.type}`);
  const endings = events.filter((event) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR);
  assert.equal(endings.length, 1, 'exactly one ending');
  if (last.type === EventType.RUN_ERROR) {
    const message = String(last['message'] ?? '');
    const suggestion = String((last['metadata'] as { suggestion?: unknown } | undefined)?.suggestion ?? '');
    assert.ok(message.length > 10, `a clear error message (got "${message}")`);
    assert.ok(suggestion.length > 10, `a suggestion with the error (got "${suggestion}")`);
    return { events, kind: 'error', answer: '', result: undefined, error: last };
  }
  const result = last['result'] as RunResult | undefined;
  const answer = result?.answer ?? '';
  if (answer.trim()) return { events, kind: 'answer', answer, result, error: undefined };
  assert.ok(notices(events).length > 0, 'a run without an answer says why in a notice');
  return { events, kind: 'notice', answer, result, error: undefined };
}

/** Every file under the folders with a hash of its bytes: compare before and after to prove nothing changed. */
export function snapshot(...folders: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string, root: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isSymbolicLink()) {
        files[path.relative(root, full)] = 'symlink';
      } else if (entry.isDirectory()) {
        walk(full, root);
      } else if (statSync(full).isFile()) {
        files[path.relative(root, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
      }
    }
  };
  for (const folder of folders) walk(folder, path.dirname(folder));
  return files;
}
