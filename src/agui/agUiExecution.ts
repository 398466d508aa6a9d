// One agent run that may span several AG-UI runs. The loop keeps going in
// memory; when it is blocked on the client (a frontend tool call or an
// approval), the current AG-UI run ends with RUN_FINISHED and an interrupt
// outcome, and the run whose `resume` answers the interrupts picks the same
// loop up where it stopped (state kept, nothing replayed).
import { randomUUID } from 'node:crypto';
import { EventType, type Interrupt, type ResumeEntry, type TokenUsage, type Tool as AgUiTool } from '@ag-ui/core';
import { AgentClock } from '../agent/agentClock';
import type { AutoApprovePolicy } from '../agent/policyApprovalGate';
import { runAgent, type AgentDependencies, type RunResult } from '../agent/runAgent';
import { SessionCache } from '../agent/sessionCache';
import type { ChatMessage } from '../models/chatModel';
import { CustomEventName, isLiveOnly, type AgentEvent, type CondensedPayload, type RunUsage } from '../protocol/agentEvents';
import type { Tool, ToolResult } from '../tools/tool';
import type { WorkspaceRules } from '../tools/workspaceRules';
import { createFrontendTools } from './frontendTools';
import { createInterruptApprover } from './interruptApprover';
import { InterruptBoard } from './interruptBoard';
import { mergeByModel, runUsageSince, tokenUsageSince } from './usageAccounting';

/** Where the events of the AG-UI run in progress go. */
export interface RunSink {
  readonly runId: string;
  send(event: AgentEvent): void;
  /** The loop is blocked on the client: end this AG-UI run with these interrupts. */
  suspend(interrupts: Interrupt[], usage: TokenUsage[]): void;
  /** The loop's own RUN_FINISHED or RUN_ERROR was sent: this AG-UI run is over. */
  finished(): void;
}

export interface ExecutionSetup {
  readonly threadId: string;
  readonly runId: string;
  readonly conversation: readonly ChatMessage[];
  readonly agent: Omit<AgentDependencies, 'tools' | 'approval' | 'cache'>;
  readonly serverTools: readonly Tool[];
  readonly frontendTools: readonly AgUiTool[];
  readonly policy: AutoApprovePolicy;
  readonly rules?: WorkspaceRules | undefined;
  /** The thread's cache of read-only results (frontend tools are never cached). */
  readonly cache: SessionCache;
  readonly interruptTtlMs: number;
  /** The ids of the user messages the run began with: a resume that brings another is refused, not dropped. */
  readonly userMessageIds: ReadonlySet<string>;
}

export interface ResumeFault {
  readonly code: 'UNKNOWN_INTERRUPT' | 'RESUME_INCOMPLETE' | 'INTERRUPT_EXPIRED' | 'INTERRUPT_PENDING' | 'MESSAGE_WHILE_INTERRUPTED';
  readonly message: string;
}

/** Ends a partial answer kept in the thread when its run was cancelled (the client left, or asked to stop). */
export const STOPPED_ANSWER_NOTE = '[Tandem: this answer was cut off here; its run was cancelled before it finished.]';

/** Frontend tools answer differently every time: their results stay out of the thread's cache. */
class CacheSkipping extends SessionCache {
  constructor(
    private readonly inner: SessionCache,
    private readonly skip: ReadonlySet<string>,
  ) {
    super();
  }
  override get(toolName: string, args: unknown): ToolResult | undefined {
    return this.skip.has(toolName) ? undefined : this.inner.get(toolName, args);
  }
  override set(toolName: string, args: unknown, result: ToolResult): void {
    if (!this.skip.has(toolName)) this.inner.set(toolName, args, result);
  }
  override invalidate(): void {
    this.inner.invalidate();
  }
  override get size(): number {
    return this.inner.size;
  }
}

export class AgUiExecution {
  private state: 'running' | 'suspended' | 'done' = 'running';
  private sink: RunSink | undefined;
  private readonly buffer: AgentEvent[] = [];
  private readonly openSteps: string[] = [];
  /** Calls whose tool is running now (an approval inside one is already counted as work). */
  private readonly runningCalls = new Set<string>();
  /** The loop's last `tandem.usage` snapshot, and the one the runs before this one ended with. */
  private latestRunUsage: RunUsage | undefined;
  private reportedRunUsage: RunUsage | undefined;
  private suspendedIds = new Set<string>();
  private readonly controller = new AbortController();
  private readonly board: InterruptBoard;
  private answerMessageId: string | undefined;
  private expiry: NodeJS.Timeout | undefined;
  /** The final answer and the id of its message, once the loop finished. */
  answer: { messageId: string; text: string } | undefined;
  /** The run's condensations of earlier turns, in order. */
  readonly condensations: CondensedPayload[] = [];
  readonly ended: Promise<void>;

  constructor(private readonly setup: ExecutionSetup) {
    const clock = new AgentClock();
    this.board = new InterruptBoard(() => this.onBlocked(), setup.interruptTtlMs, clock);
    const frontend = createFrontendTools(setup.frontendTools, this.board);
    const tools = [...setup.serverTools.map((tool) => this.wrap(tool)), ...frontend];
    const events = runAgent(
      { threadId: setup.threadId, runId: setup.runId, messages: setup.conversation, ...setup.rules },
      {
        ...setup.agent,
        // The endpoint's policy (headless `--approve`) decides what asks; the run applies it.
        settings: { ...setup.agent.settings, autoApprove: setup.policy },
        clock,
        tools,
        approval: createInterruptApprover(this.board, this.runningCalls),
        cache: new CacheSkipping(setup.cache, new Set(frontend.map((tool) => tool.name))),
      },
      this.controller.signal,
    );
    this.ended = this.consume(events);
  }

  get suspended(): boolean {
    return this.state === 'suspended';
  }

  get done(): boolean {
    return this.state === 'done';
  }

  /** Sends this execution's events to a new AG-UI run (the first one). */
  attach(sink: RunSink): void {
    this.sink = sink;
    this.flush();
  }

  /**
   * Checks a resume against the interrupts the last run ended with; a fault
   * leaves everything as it was. `toolMessages` (toolCallId -> content) answer
   * frontend tool calls for clients that send results as tool messages.
   */
  checkResume(entries: readonly ResumeEntry[], toolMessages: ReadonlyMap<string, string>, userMessageIds: readonly string[] = []): ResumeFault | ResumeEntry[] {
    // The resumed loop goes on with the question it had: a new one would be lost without a word.
    const added = userMessageIds.filter((id) => !this.setup.userMessageIds.has(id));
    if (added.length > 0 && (entries.length > 0 || toolMessages.size > 0)) {
      return {
        code: 'MESSAGE_WHILE_INTERRUPTED',
        message: `The thread waits on ${this.suspendedIds.size} interrupt(s) and this input brings a new user message (${added.join(', ')}), which a resumed run would not read. Answer or cancel the interrupts in a run without it, then send the message.`,
      };
    }
    const answers = new Map(entries.map((entry) => [entry.interruptId, entry]));
    for (const id of answers.keys()) {
      if (!this.suspendedIds.has(id)) return { code: 'UNKNOWN_INTERRUPT', message: `Interrupt ${id} is not pending on this thread.` };
    }
    for (const [toolCallId, content] of toolMessages) {
      const id = this.board.frontendWaitFor(toolCallId);
      if (id !== undefined && !answers.has(id)) answers.set(id, { interruptId: id, status: 'resolved', payload: content });
    }
    const missing = [...this.suspendedIds].filter((id) => this.board.has(id) && !answers.has(id));
    if (missing.length > 0) {
      const code = entries.length === 0 ? 'INTERRUPT_PENDING' : 'RESUME_INCOMPLETE';
      return { code, message: `The thread waits on ${missing.length} interrupt(s) the input does not answer: ${missing.join(', ')}. Send a resume entry for each.` };
    }
    for (const entry of answers.values()) {
      if (entry.status === 'resolved' && this.board.isExpired(entry.interruptId)) {
        return { code: 'INTERRUPT_EXPIRED', message: `Interrupt ${entry.interruptId} has expired; cancel it to continue the thread.` };
      }
    }
    return [...answers.values()];
  }

  /** Continues the loop in a new AG-UI run with answers `checkResume` accepted. */
  resume(sink: RunSink, answers: readonly ResumeEntry[]): void {
    clearTimeout(this.expiry);
    this.state = this.state === 'done' ? 'done' : 'running';
    this.suspendedIds = new Set();
    this.sink = sink;
    // The steps the interrupted run had to close are open again in this one.
    for (const stepName of this.openSteps) sink.send(this.stamp({ type: EventType.STEP_STARTED, stepName }));
    this.flush();
    for (const entry of answers) this.board.answer(entry);
  }

  /** Stops the loop (client gone, thread evicted, interrupts expired). */
  abort(): void {
    this.sink = undefined;
    this.controller.abort();
  }

  /** The tool, its runs counted as work: the loop is not blocked while one goes on. */
  private wrap(tool: Tool): Tool {
    const { board, runningCalls } = this;
    return {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      readOnly: tool.readOnly,
      approvesItself: tool.approvesItself,
      cacheable: tool.cacheable,
      // How it is asked about (a workspace MCP server's own always-allow key) must survive the wrapping.
      approval: tool.approval,
      source: tool.source,
      run: (args, context) =>
        board.work(async () => {
          runningCalls.add(context.callId);
          try {
            return await tool.run(args, context);
          } finally {
            runningCalls.delete(context.callId);
          }
        }),
    };
  }

  private async consume(events: AsyncIterable<AgentEvent>): Promise<void> {
    try {
      for await (const event of events) this.deliver(event);
    } catch (error) {
      // runAgent ends every stream itself; this guards against a bug there.
      if (this.state !== 'done') {
        this.deliver(this.stamp({ type: EventType.RUN_ERROR, message: error instanceof Error ? error.message : String(error), code: 'INTERNAL_ERROR' }));
      }
    } finally {
      this.state = 'done';
      clearTimeout(this.expiry);
    }
  }

  private deliver(event: AgentEvent): void {
    switch (event.type) {
      case EventType.RUN_STARTED:
        return; // each AG-UI run sends its own
      case EventType.STEP_STARTED:
        this.openSteps.push(String(event['stepName']));
        break;
      case EventType.STEP_FINISHED: {
        const index = this.openSteps.lastIndexOf(String(event['stepName']));
        if (index >= 0) this.openSteps.splice(index, 1);
        break;
      }
      case EventType.TEXT_MESSAGE_START:
        if ((event['metadata'] as { kind?: unknown } | undefined)?.kind === 'answer') this.answerMessageId = String(event['messageId']);
        break;
      case EventType.CUSTOM:
        if (event['name'] === CustomEventName.usage) {
          const snapshot = event['value'] as RunUsage;
          this.latestRunUsage = snapshot;
          // One loop spans the runs an interrupt splits it into: each run's events count its own calls only.
          event = { ...event, value: runUsageSince(snapshot, this.reportedRunUsage) } as AgentEvent;
        }
        else if (event['name'] === CustomEventName.condensed) this.condensations.push(event['value'] as CondensedPayload);
        break;
      case EventType.RUN_FINISHED:
      case EventType.RUN_ERROR: {
        // The loop's last snapshot comes just before its end; without one (a setup that failed) the event's own is all there is.
        const usage = this.latestRunUsage ? tokenUsageSince(this.latestRunUsage, this.reportedRunUsage) : mergeByModel((event['usage'] as TokenUsage[] | undefined) ?? []);
        event = { ...event, usage };
        if (event.type === EventType.RUN_FINISHED) {
          const result = event['result'] as RunResult | undefined;
          // A stopped run's partial answer stays in the thread, marked: the next run must not take it for a whole one.
          const text = result?.answer && result.stopReason === 'cancelled' ? `${result.answer}\n\n${STOPPED_ANSWER_NOTE}` : result?.answer;
          if (text) this.answer = { messageId: this.answerMessageId ?? randomUUID(), text };
        }
        this.state = 'done';
        break;
      }
    }
    if (this.sink) this.send(this.sink, event);
    // Held for the run that resumes the loop, except what is only for watching live (an image's megabytes).
    else if (!isLiveOnly(event)) this.buffer.push(event);
  }

  private send(sink: RunSink, event: AgentEvent): void {
    const terminal = event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
    sink.send(event.type === EventType.RUN_FINISHED ? { ...event, threadId: this.setup.threadId, runId: sink.runId } : event);
    if (terminal) {
      this.sink = undefined;
      sink.finished();
    }
  }

  private flush(): void {
    while (this.sink && this.buffer.length > 0) this.send(this.sink, this.buffer.shift() as AgentEvent);
  }

  private onBlocked(): void {
    const sink = this.sink;
    if (this.state !== 'running' || !sink) return;
    const interrupts = this.board.interrupts();
    this.state = 'suspended';
    this.suspendedIds = new Set(interrupts.map((interrupt) => interrupt.id));
    this.sink = undefined;
    // AG-UI ends a run with no step open; the next run opens them again.
    for (const stepName of [...this.openSteps].reverse()) sink.send(this.stamp({ type: EventType.STEP_FINISHED, stepName }));
    const usage = this.latestRunUsage ? tokenUsageSince(this.latestRunUsage, this.reportedRunUsage) : [];
    this.reportedRunUsage = this.latestRunUsage;
    sink.suspend(interrupts, usage);
    // Nobody answered in time: the loop ends (its waits are cancelled).
    this.expiry = setTimeout(() => this.abort(), this.setup.interruptTtlMs);
    this.expiry.unref?.();
  }

  private stamp(event: { type: EventType; [key: string]: unknown }): AgentEvent {
    return { ...event, timestamp: Date.now() } as AgentEvent;
  }
}
