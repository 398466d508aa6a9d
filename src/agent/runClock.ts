// Agent time for one run. `maxExecutionSeconds` counts the time the agent
// works, not the time a person takes to decide: pause() while waiting on a
// person, resume() after. Pauses nest (parallel approvals), so the clock runs
// again only when the last waiter resumes. When the limit is reached, every
// listener given to onLimit() runs once.

export class RunClock {
  private spentMs = 0;
  private runningSince: number | undefined;
  private pauses = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reached = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly limitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls `listener` when the limit is reached (at once if it already was); returns the unsubscribe. */
  onLimit(listener: () => void): () => void {
    if (this.reached) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.runningSince !== undefined || this.reached) return;
    this.runningSince = this.now();
    this.arm();
  }

  pause(): void {
    this.pauses++;
    if (this.pauses > 1 || this.runningSince === undefined) return;
    this.spentMs += this.now() - this.runningSince;
    this.runningSince = undefined;
    this.disarm();
  }

  resume(): void {
    if (this.pauses === 0) return;
    this.pauses--;
    if (this.pauses === 0 && !this.reached) this.start();
  }

  /** Agent time so far, in milliseconds. */
  elapsedMs(): number {
    return this.spentMs + (this.runningSince === undefined ? 0 : this.now() - this.runningSince);
  }

  get limitReached(): boolean {
    return this.reached;
  }

  /** Runs `work` with the clock paused (a person is deciding). */
  async paused<T>(work: () => Promise<T>): Promise<T> {
    this.pause();
    try {
      return await work();
    } finally {
      this.resume();
    }
  }

  dispose(): void {
    this.disarm();
    if (this.runningSince !== undefined) this.spentMs += this.now() - this.runningSince;
    this.runningSince = undefined;
  }

  private arm(): void {
    this.disarm();
    const remaining = Math.max(0, this.limitMs - this.spentMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.reached) return;
      this.reached = true;
      this.dispose();
      for (const listener of [...this.listeners]) listener();
      this.listeners.clear();
    }, remaining);
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
