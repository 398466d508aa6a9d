// Builds the AG-UI events of one run and keeps track of what is open (text
// and reasoning messages, steps), so that every exit path — finish, error,
// Stop — can close them and the stream stays valid for any AG-UI client.
import { randomUUID } from 'node:crypto';
import { EventType } from '@ag-ui/core';
import type { AgentEvent, MessageKindPayload, ModelRole, NoticeAction, NoticeCode } from '../protocol/agentEvents';
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

  /** Stamps and sends `event`; the object is the caller's fresh literal, so it is stamped in place, not copied. */
  emit(event: { type: EventType; [key: string]: unknown }): void {
    event['timestamp'] = this.now();
    this.push(event as AgentEvent);
  }

  custom(name: string, value: unknown, metadata?: Record<string, unknown>): void {
    this.emit({ type: EventType.CUSTOM, name, value, ...(metadata && { metadata }) });
  }

  notice(code: NoticeCode, level: 'info' | 'warning' | 'error', message: string, action?: NoticeAction): void {
    this.custom(CustomEventName.notice, { code, level, message, ...(action && { action }) });
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
    const metadata = { role, model };
    return this.stream({
      open: (messageId) => {
        this.emit({ type: EventType.REASONING_START, messageId, metadata });
        this.emit({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning', metadata });
      },
      content: (messageId, delta) => this.emit({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta, metadata }),
      close: (messageId) => {
        this.emit({ type: EventType.REASONING_MESSAGE_END, messageId, metadata });
        this.emit({ type: EventType.REASONING_END, messageId, metadata });
      },
    });
  }

  /** A streamed assistant text message; `kind` tells the panel what it is. */
  text(kind: MessageKindPayload['kind'], role: ModelRole, model: string): StreamedMessage {
    const metadata = { role, model, kind };
    return this.stream({
      open: (messageId) => {
        this.custom(CustomEventName.messageKind, { messageId, kind, role, model } satisfies MessageKindPayload, { role, model });
        this.emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', metadata });
      },
      content: (messageId, delta) => this.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta, metadata }),
      close: (messageId) => this.emit({ type: EventType.TEXT_MESSAGE_END, messageId, metadata }),
    });
  }

  /**
   * A message that opens on its first non-empty delta (an empty message emits
   * nothing), closes once, and ignores text after it closed.
   */
  private stream(events: { open(messageId: string): void; content(messageId: string, delta: string): void; close(messageId: string): void }): StreamedMessage {
    const messageId = randomUUID();
    let state: 'new' | 'open' | 'closed' = 'new';
    let text = '';
    const close = () => {
      this.open.delete(messageId);
      if (state === 'open') events.close(messageId);
      state = 'closed';
    };
    return {
      messageId,
      get text() {
        return text;
      },
      append: (delta) => {
        if (!delta || state === 'closed') return;
        if (state === 'new') {
          state = 'open';
          this.open.set(messageId, close);
          events.open(messageId);
        }
        text += delta;
        events.content(messageId, delta);
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
