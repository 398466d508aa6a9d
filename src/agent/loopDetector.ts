// Detects the model repeating itself: the same tool with the same arguments
// and nothing written in between. The second time the model is warned; the
// third time the loop stops. A completed write calls reset(): after it a
// repeated read may well return something new.
import { callSignature } from './canonicalJson';

export type Repetition = 'first' | 'warn' | 'stop';

export class LoopDetector {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly warnAt = 2,
    private readonly stopAt = 3,
  ) {}

  reset(): void {
    this.counts.clear();
  }

  /** Records the call and says what to do about it. */
  record(toolName: string, args: unknown): Repetition {
    return this.recordSignature(callSignature(toolName, args));
  }

  /** The same, for a call already reduced to its callSignature. */
  recordSignature(signature: string): Repetition {
    const count = (this.counts.get(signature) ?? 0) + 1;
    this.counts.set(signature, count);
    if (count >= this.stopAt) return 'stop';
    if (count >= this.warnAt) return 'warn';
    return 'first';
  }
}
