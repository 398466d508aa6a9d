// Turns each AG-UI run (a validated RunAgentInput) into events: a new loop on
// the thread, or the thread's interrupted loop resumed with the answers. Owns
// the threads (history, its condensed beginning, cache, waiting loops) and
// nothing HTTP.
import { EventType, PROTOCOL_VERSION, type RunAgentInput } from '@ag-ui/core';
import type { AgentSettings } from '../agent/agentSettings';
import type { AutoApprovePolicy } from '../agent/policyApprovalGate';
import type { ChatModel } from '../models/chatModel';
import { CustomEventName, type AgentEvent } from '../protocol/agentEvents';
import type { Tool } from '../tools/tool';
import type { WorkspaceRules } from '../tools/workspaceRules';
import { AgUiExecution, type RunSink } from './agUiExecution';
import { MessagesSnapshot } from './messagesSnapshot';
import { ThreadStore, toolMessagesOf, type ThreadState } from './threadStore';
import { applySummary, summaryAfter } from './threadSummary';
import { unlessAborted } from '../common/unlessAborted';

/** What a new loop needs, built per run from the current settings. */
export interface PreparedRun {
  readonly settings: AgentSettings;
  readonly functionCallModel: ChatModel;
  readonly answerModel: ChatModel;
  readonly tools: readonly Tool[];
  /** Which calls run without an interrupt (headless `--approve`, or `tandem.tools.autoApprove`). */
  readonly policy: AutoApprovePolicy;
  readonly log?: ((line: string) => void) | undefined;
  /** The repository's rules (AGENTS.md and the rest), read for this run. */
  readonly rules?: WorkspaceRules | undefined;
}

/** A notice while the run is prepared (say, MCP servers starting): sent as a `tandem.notice` CUSTOM event. */
export type PrepareNotice = (code: string, message: string, level: 'info' | 'warning') => void;

export interface AgUiRunnerOptions {
  prepare(input: RunAgentInput, notice: PrepareNotice): Promise<PreparedRun>;
  /** Names frontend tools may not take. */
  serverToolNames(): ReadonlySet<string>;
  readonly maxThreads?: number;
  readonly maxMessagesPerThread?: number;
  /** How long an interrupted loop waits for its resume; default 15 minutes. */
  readonly interruptTtlMs?: number;
  readonly log?: ((line: string) => void) | undefined;
}

export type SendEvent = (event: AgentEvent) => void;

function stamp(event: { type: EventType; [key: string]: unknown }): AgentEvent {
  return { ...event, timestamp: Date.now() } as AgentEvent;
}

export class AgUiRunner {
  private readonly threads: ThreadStore;
  private readonly ttlMs: number;

  constructor(private readonly options: AgUiRunnerOptions) {
    this.threads = new ThreadStore(
      { maxThreads: options.maxThreads ?? 1000, maxMessagesPerThread: options.maxMessagesPerThread ?? 200 },
      (thread) => thread.execution?.abort(),
    );
    this.ttlMs = options.interruptTtlMs ?? 15 * 60_000;
  }

  serverToolNames(): ReadonlySet<string> {
    return this.options.serverToolNames();
  }

  /** Streams one AG-UI run; resolves once its RUN_FINISHED or RUN_ERROR was sent (or the client left). */
  async run(input: RunAgentInput, send: SendEvent, signal: AbortSignal): Promise<void> {
    const { threadId, runId } = input;
    send(stamp({ type: EventType.RUN_STARTED, threadId, runId, protocolVersion: PROTOCOL_VERSION }));
    const fail = (code: string, message: string) => send(stamp({ type: EventType.RUN_ERROR, message, code }));
    if (input.state !== undefined) send(stamp({ type: EventType.STATE_SNAPSHOT, snapshot: input.state }));

    const thread = this.threads.get(threadId);
    if (thread.streaming) return fail('THREAD_BUSY', `Thread ${threadId} has a run in progress; wait for it to finish.`);
    const waiting = thread.execution;
    if (waiting?.suspended) {
      const checked = waiting.checkResume(input.resume ?? [], toolMessagesOf(input), userMessageIdsOf(input));
      if (!Array.isArray(checked)) return fail(checked.code, checked.message);
      return this.stream(thread, waiting, input, send, signal, (sink) => waiting.resume(sink, checked));
    }
    if ((input.resume ?? []).length > 0) return fail('UNKNOWN_INTERRUPT', `Nothing waits on thread ${threadId}; its interrupts were answered, expired or never existed.`);
    waiting?.abort(); // a loop still winding down after its client left
    // Nothing to answer: the model would be asked about nothing (and some APIs refuse a request without a user turn).
    if (this.threads.conversationFor(thread, input).length === 0) {
      return fail('NO_MESSAGES', `Thread ${threadId} has no messages: send the user's message in "messages".`);
    }

    // Busy from here: a second run on this thread must not slip in while this one prepares.
    thread.streaming = true;
    let prepared: PreparedRun | undefined;
    try {
      // A client that leaves while the run is prepared (MCP servers starting) frees the thread at once.
      const notice: PrepareNotice = (code, message, level) => {
        if (!signal.aborted) send(stamp({ type: EventType.CUSTOM, name: CustomEventName.notice, value: { code, level, message } }));
      };
      prepared = await unlessAborted(this.options.prepare(input, notice), signal);
    } catch (error) {
      thread.streaming = false;
      return fail('CONFIGURATION_ERROR', error instanceof Error ? error.message : String(error));
    }
    if (prepared === undefined || signal.aborted) {
      thread.streaming = false;
      return;
    }
    const conversation = this.threads.conversationFor(thread, input);
    const messages = conversation.map((entry) => entry.message);
    const runConversation = applySummary(thread.summary, messages, this.threads.contextNote(input)?.message);
    const execution = new AgUiExecution({
      threadId,
      runId,
      conversation: runConversation.messages,
      agent: { functionCallModel: prepared.functionCallModel, answerModel: prepared.answerModel, settings: prepared.settings, log: prepared.log },
      serverTools: prepared.tools,
      frontendTools: input.tools,
      policy: prepared.policy,
      rules: prepared.rules,
      cache: thread.cache,
      interruptTtlMs: this.ttlMs,
      userMessageIds: new Set(userMessageIdsOf(input)),
    });
    thread.execution = execution;
    void execution.ended.then(() => {
      if (thread.execution !== execution) return;
      thread.execution = undefined;
      thread.summary = summaryAfter(thread.summary, runConversation, messages, execution.condensations);
      const answer = execution.answer;
      this.threads.remember(thread, answer ? [...conversation, { id: answer.messageId, message: { role: 'assistant', content: answer.text } }] : conversation);
    });
    return this.stream(thread, execution, input, send, signal, (sink) => execution.attach(sink));
  }

  private stream(thread: ThreadState, execution: AgUiExecution, input: RunAgentInput, send: SendEvent, signal: AbortSignal, start: (sink: RunSink) => void): Promise<void> {
    thread.streaming = true;
    const client = new MessagesSnapshot(input.messages);
    const forward: SendEvent = (event) => {
      client.observe(event);
      send(event);
    };
    return new Promise<void>((resolve) => {
      let over = false;
      const end = () => {
        if (over) return;
        over = true;
        thread.streaming = false;
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      // The client left: the loop stops (its model request and tool calls with it).
      const onAbort = () => {
        execution.abort();
        end();
      };
      const sink: RunSink = {
        runId: input.runId,
        send: forward,
        suspend: (interrupts, usage) => {
          // What a client needs to pick the thread up, before the interrupt (AG-UI's rule at the boundary).
          send(stamp({ type: EventType.MESSAGES_SNAPSHOT, messages: client.snapshot() }));
          if (input.state !== undefined) send(stamp({ type: EventType.STATE_SNAPSHOT, snapshot: input.state }));
          send(stamp({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId, outcome: { type: 'interrupt', interrupts }, usage }));
          end();
        },
        finished: end,
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      start(sink);
    });
  }

  /** Stops every loop (the endpoint is shutting down). */
  dispose(): void {
    // Threads hold no other resources; their loops end on abort.
    this.threads.forEachExecution((execution) => execution.abort());
  }
}

function userMessageIdsOf(input: RunAgentInput): string[] {
  return input.messages.flatMap((message) => (message.role === 'user' ? [message.id] : []));
}
