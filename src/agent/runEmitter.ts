// Builds the AG-UI events of one run and keeps track of what is open (text
// and reasoning messages, steps), so that every exit path — finish, error,
// Stop — can close them and the stream stays valid for any AG-UI client.
import { randomUUID } from 'node:crypto';
import { EventType } from '@ag-ui/core';
import type { AgentEvent, MessageKindPayload, ModelRole, NoticeCode } from '../protocol/agentEvents';
import { CustomEventName } from '../protocol/agentEvents';

export interface StreamedMessage {
  readonly messageId: string;
  append(delta: string): void;
  close(): void;
  readonly text: string;
}

export class RunEmitter {
  private readonly open = new Map<string, () => void>();
  private readonly steps: string[] = [];

  constructor(
    private readonly push: (event: AgentEvent) => void,
    private readonly now: () => number = Date.now,
  ) {}

  emit(event: { type: EventType; [key: string]: unknown }): void {
    this.push({ ...event, timestamp: this.now() } as AgentEvent);
  }

  custom(name: string, value: unknown, metadata?: Record<string, unknown>): void {
    this.emit({ type: EventType.CUSTOM, name, value, ...(metadata && { metadata }) });
  }

  notice(code: NoticeCode, level: 'info' | 'warning' | 'error', message: string): void {
    this.custom(CustomEventName.notice, { code, level, message });
  }

  stepStarted(stepName: string): void {
    this.steps.push(stepName);
    this.emit({ type: EventType.STEP_STARTED, stepName });
  }

  stepFinished(): void {
    const stepName = this.steps.pop();
    if (stepName !== undefined) this.emit({ type: EventType.STEP_FINISHED, stepName });
  }

  /** A streamed reasoning message (the thinking of a model). */
  reasoning(role: ModelRole, model: string): StreamedMessage {
    const messageId = randomUUID();
    const metadata = { role, model };
    let started = false;
    let closed = false;
    let text = '';
    const close = () => {
      this.open.delete(messageId);
      if (!started || closed) return;
      closed = true;
      this.emit({ type: EventType.REASONING_MESSAGE_END, messageId, metadata });
      this.emit({ type: EventType.REASONING_END, messageId, metadata });
    };
    return {
      messageId,
      get text() {
        return text;
      },
      append: (delta) => {
        if (!delta || closed) return;
        if (!started) {
          started = true;
          this.open.set(messageId, close);
          this.emit({ type: EventType.REASONING_START, messageId, metadata });
          this.emit({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning', metadata });
        }
        text += delta;
        this.emit({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta, metadata });
      },
      close,
    };
  }

  /** A streamed assistant text message; `kind` tells the panel what it is. */
  text(kind: MessageKindPayload['kind'], role: ModelRole, model: string): StreamedMessage {
    const messageId = randomUUID();
    const metadata = { role, model, kind };
    let started = false;
    let closed = false;
    let text = '';
    const start = () => {
      started = true;
      this.open.set(messageId, close);
      this.custom(CustomEventName.messageKind, { messageId, kind, role, model } satisfies MessageKindPayload, { role, model });
      this.emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', metadata });
    };
    const close = () => {
      this.open.delete(messageId);
      if (!started || closed) return;
      closed = true;
      this.emit({ type: EventType.TEXT_MESSAGE_END, messageId, metadata });
    };
    return {
      messageId,
      get text() {
        return text;
      },
      append: (delta) => {
        if (!delta || closed) return;
        if (!started) start();
        text += delta;
        this.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta, metadata });
      },
      close,
    };
  }

  /** Closes every open message and step: called on every way out of a run. */
  closeAll(): void {
    for (const close of [...this.open.values()]) close();
    while (this.steps.length > 0) this.stepFinished();
  }
}
