// Follow-ups typed while a run goes. They wait here (the panel shows them
// above the prompt box, each with Edit and Remove) and go one at a time, in
// order, as each run ends with an answer. A run that was stopped or failed
// holds them: what to send after that is the user's call (Send next, Edit,
// Remove). Their context chips go with them and are read when each is sent,
// not when it was queued: the run before may have changed those files.
// Steer marks one to go into the running run instead, before its next step
// (steering.ts); what the run does not take in time stays queued, unmarked.
// No vscode import.
import { randomUUID } from 'node:crypto';
import type { ContextAttachment } from './contextAttachments';

export interface FollowUp {
  readonly id: string;
  readonly text: string;
  /** The chips that were above the prompt box when it was queued. */
  readonly items: readonly ContextAttachment[];
}

/** How a run ended, as far as the queue cares. */
export type RunEnding = 'answered' | 'stopped' | 'failed';

/** The most follow-ups kept: past it, the oldest queued stay and the new one is refused. */
export const MAX_FOLLOW_UPS = 20;

export class FollowUpQueue {
  private queued: FollowUp[] = [];
  private heldBecause: string | undefined;
  /** Ids of the follow-ups the user sent into the running run, not taken in yet. */
  private steering = new Set<string>();

  constructor(private readonly changed: () => void = () => undefined) {}

  get items(): readonly FollowUp[] {
    return this.queued;
  }

  /** Whether `id` waits to be taken into the running run. */
  isSteering(id: string): boolean {
    return this.steering.has(id);
  }

  /** Whether any follow-up waits to be taken into the running run. */
  get hasSteering(): boolean {
    return this.steering.size > 0;
  }

  /** Steer: `id` goes into the running run at its next step. False when it is no longer queued. */
  steer(id: string): boolean {
    if (!this.queued.some((each) => each.id === id)) return false;
    if (this.steering.has(id)) return true;
    this.steering.add(id);
    this.changed();
    return true;
  }

  /** The run takes in what was steered: those follow-ups leave the queue, in their order. */
  takeSteering(): FollowUp[] {
    const taken = this.queued.filter((each) => this.steering.has(each.id));
    if (taken.length === 0) return [];
    this.queued = this.queued.filter((each) => !this.steering.has(each.id));
    this.steering.clear();
    if (this.queued.length === 0) this.heldBecause = undefined;
    this.changed();
    return taken;
  }

  /** The run can take nothing more in (it answers, or ended): what was steered stays queued as any follow-up. */
  endSteering(): void {
    if (this.steering.size === 0) return;
    this.steering.clear();
    this.changed();
  }

  /** Why the queue waits for the user instead of sending the next one (undefined: it goes on its own). */
  get held(): string | undefined {
    return this.heldBecause;
  }

  /** Undefined when the queue is full. */
  add(text: string, items: readonly ContextAttachment[] = []): FollowUp | undefined {
    if (this.queued.length >= MAX_FOLLOW_UPS) return undefined;
    const followUp = { id: randomUUID(), text, items };
    this.queued = [...this.queued, followUp];
    this.changed();
    return followUp;
  }

  remove(id: string): FollowUp | undefined {
    const found = this.queued.find((each) => each.id === id);
    if (!found) return undefined;
    this.queued = this.queued.filter((each) => each !== found);
    this.steering.delete(id);
    if (this.queued.length === 0) this.heldBecause = undefined;
    this.changed();
    return found;
  }

  /** Puts a follow-up taken too early back at the head of the queue (a run started before it could). */
  putBack(followUp: FollowUp): void {
    this.queued = [followUp, ...this.queued.filter((each) => each.id !== followUp.id)];
    this.changed();
  }

  /** Holds the queue until the user sends the next one (`reason` says why, in the panel). */
  hold(reason: string): void {
    if (this.queued.length === 0) return;
    this.heldBecause = reason;
    this.changed();
  }

  /** A run ended: the follow-up to send now, if any. A stopped or failed run holds the queue instead. */
  afterRun(ending: RunEnding): FollowUp | undefined {
    this.endSteering();
    if (this.queued.length === 0 || this.heldBecause !== undefined) return undefined;
    if (ending === 'stopped') {
      this.hold('The run was stopped, so the next message waits for you.');
      return undefined;
    }
    if (ending === 'failed') {
      this.hold('The run ended with an error, so the next message waits for you.');
      return undefined;
    }
    return this.take();
  }

  /** Send next: lifts the hold and gives the first follow-up. */
  resume(): FollowUp | undefined {
    this.heldBecause = undefined;
    return this.take();
  }

  /** Lifts the hold without sending: the next run's end sends the first follow-up (Send next while a run goes). */
  release(): void {
    if (this.heldBecause === undefined) return;
    this.heldBecause = undefined;
    this.changed();
  }

  private take(): FollowUp | undefined {
    const [first, ...rest] = this.queued;
    if (!first) {
      this.heldBecause = undefined;
      return undefined;
    }
    this.queued = rest;
    this.steering.delete(first.id);
    this.changed();
    return first;
  }
}
