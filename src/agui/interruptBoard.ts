// The waits of one suspendable run: every approval or frontend tool call that
// needs an answer from the client registers here, and the board tells its
// owner when the run is blocked — something waits and nothing else is working
// — which is the moment the AG-UI run ends with an interrupt outcome.
import { randomUUID } from 'node:crypto';
import type { Interrupt, ResumeEntry } from '@ag-ui/core';
import type { AgentClock } from '../agent/agentClock';
import { CancelledError } from '../common/errors';

export interface WaitSpec {
  /** A frontend tool's call may also be answered by a tool message; an approval only by a resume entry. */
  readonly kind: 'frontendTool' | 'approval';
  readonly reason: string;
  readonly message: string;
  /** The tool call the wait is about (a frontend tool's call, or the call an approval concerns). */
  readonly toolCallId?: string | undefined;
  readonly responseSchema?: Record<string, unknown> | undefined;
  readonly metadata?: Record<string, unknown> | undefined;
}

interface Pending {
  readonly id: string;
  readonly spec: WaitSpec;
  readonly expiresAt: string;
  settle(entry: ResumeEntry): void;
}

export class InterruptBoard {
  private readonly pending = new Map<string, Pending>();
  private active = 0;
  private checkScheduled = false;

  constructor(
    private readonly onBlocked: () => void,
    private readonly ttlMs: number,
    /** Stopped while anything waits on the client: the time limit counts agent time only. */
    private readonly clock: AgentClock,
    private readonly now: () => number = Date.now,
  ) {}

  /** Waits for the client's answer; rejects with CancelledError when `signal` aborts. */
  wait(spec: WaitSpec, signal: AbortSignal, insideWork = false): Promise<ResumeEntry> {
    if (signal.aborted) return Promise.reject(new CancelledError());
    const id = `int-${randomUUID()}`;
    if (insideWork) this.active--;
    const resumeClock = this.clock.pause();
    return new Promise<ResumeEntry>((resolve, reject) => {
      const finish = () => {
        resumeClock();
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        if (insideWork) this.active++;
      };
      const onAbort = () => {
        finish();
        reject(new CancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        id,
        spec,
        expiresAt: new Date(this.now() + this.ttlMs).toISOString(),
        settle: (entry) => {
          finish();
          resolve(entry);
        },
      });
      this.scheduleCheck();
    });
  }

  /** Counts `run` as work in progress: the run is not blocked while it goes on. */
  async work<T>(run: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await run();
    } finally {
      this.active--;
      this.scheduleCheck();
    }
  }

  get size(): number {
    return this.pending.size;
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** The interrupts now pending, as AG-UI sends them. */
  interrupts(): Interrupt[] {
    return [...this.pending.values()].map((entry) => {
      return {
        id: entry.id,
        reason: entry.spec.reason,
        message: entry.spec.message,
        ...(entry.spec.toolCallId !== undefined && { toolCallId: entry.spec.toolCallId }),
        ...(entry.spec.responseSchema && { responseSchema: entry.spec.responseSchema }),
        expiresAt: entry.expiresAt,
        ...(entry.spec.metadata && { metadata: entry.spec.metadata }),
      };
    });
  }

  /** The pending frontend-tool wait for this tool call, if any (a client may answer it with a tool message). */
  frontendWaitFor(toolCallId: string): string | undefined {
    for (const entry of this.pending.values()) if (entry.spec.kind === 'frontendTool' && entry.spec.toolCallId === toolCallId) return entry.id;
    return undefined;
  }

  /** Answers one wait; false when it is not pending. */
  answer(entry: ResumeEntry): boolean {
    const pending = this.pending.get(entry.interruptId);
    if (!pending) return false;
    pending.settle(entry);
    return true;
  }

  isExpired(id: string): boolean {
    const pending = this.pending.get(id);
    return pending !== undefined && Date.parse(pending.expiresAt) <= this.now();
  }

  /** Checks after the current macrotask, so calls started together register their waits first. */
  private scheduleCheck(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setImmediate(() => {
      this.checkScheduled = false;
      if (this.pending.size > 0 && this.active === 0) this.onBlocked();
    });
  }
}
