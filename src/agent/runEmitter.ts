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
  private readonly open = new Set<Message>();
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
    return new ReasoningMessage(this, this.open, { role, model });
  }

  /** A streamed assistant text message; `kind` tells the panel what it is. */
  text(kind: MessageKindPayload['kind'], role: ModelRole, model: string): StreamedMessage {
    return new TextMessage(this, this.open, { role, model, kind });
  }

  /** Closes every open message and step: called on every way out of a run. */
  closeAll(): void {
    for (const message of [...this.open]) message.close();
    while (this.steps.length > 0) this.stepFinished();
  }
}

/**
 * A message that opens on its first non-empty delta (an empty message emits
 * nothing), closes once, and ignores text after it closed. A class, not
 * closures: a run makes a few per step, and each closure is one more object.
 */
abstract class Message implements StreamedMessage {
  readonly messageId = randomUUID();
  private state: 'new' | 'open' | 'closed' = 'new';
  private textSoFar = '';

  constructor(
    protected readonly emitter: RunEmitter,
    private readonly openMessages: Set<Message>,
  ) {}

  get text(): string {
    return this.textSoFar;
  }

  append(delta: string): void {
    if (!delta || this.state === 'closed') return;
    if (this.state === 'new') {
      this.state = 'open';
      this.openMessages.add(this);
      this.opened();
    }
    this.textSoFar += delta;
    this.content(delta);
  }

  close(): void {
    this.openMessages.delete(this);
    if (this.state === 'open') this.closed();
    this.state = 'closed';
  }

  protected abstract opened(): void;
  protected abstract content(delta: string): void;
  protected abstract closed(): void;
}

class ReasoningMessage extends Message {
  constructor(
    emitter: RunEmitter,
    openMessages: Set<Message>,
    private readonly metadata: { readonly role: ModelRole; readonly model: string },
  ) {
    super(emitter, openMessages);
  }

  protected opened(): void {
    const { messageId, metadata } = this;
    this.emitter.emit({ type: EventType.REASONING_START, messageId, metadata });
    this.emitter.emit({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning', metadata });
  }

  protected content(delta: string): void {
    this.emitter.emit({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: this.messageId, delta, metadata: this.metadata });
  }

  protected closed(): void {
    const { messageId, metadata } = this;
    this.emitter.emit({ type: EventType.REASONING_MESSAGE_END, messageId, metadata });
    this.emitter.emit({ type: EventType.REASONING_END, messageId, metadata });
  }
}

class TextMessage extends Message {
  constructor(
    emitter: RunEmitter,
    openMessages: Set<Message>,
    private readonly metadata: { readonly role: ModelRole; readonly model: string; readonly kind: MessageKindPayload['kind'] },
  ) {
    super(emitter, openMessages);
  }

  protected opened(): void {
    const { messageId, metadata } = this;
    const { kind, role, model } = metadata;
    this.emitter.custom(CustomEventName.messageKind, { messageId, kind, role, model } satisfies MessageKindPayload, { role, model });
    this.emitter.emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', metadata });
  }

  protected content(delta: string): void {
    this.emitter.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.messageId, delta, metadata: this.metadata });
  }

  protected closed(): void {
    this.emitter.emit({ type: EventType.TEXT_MESSAGE_END, messageId: this.messageId, metadata: this.metadata });
  }
}
