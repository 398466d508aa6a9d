// Agent time: the run's time limits count it, and a wait on a person (an
// approval, a frontend tool an AG-UI client answers) pauses it, so a limit
// never runs out while someone decides. Whoever waits calls pause() and the
// returned resume() when the answer came (or the wait was given up).

interface Deadline {
  pause(now: number): void;
  resume(now: number): void;
  dispose(): void;
}

export class AgentClock {
  private pauses = 0;
  private readonly deadlines = new Set<Deadline>();
  private pausedTotal = 0;
  private pausedSince: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  get paused(): boolean {
    return this.pauses > 0;
  }

  /** Stops the clock until the returned function is called (once; nested pauses count). */
  pause(): () => void {
    if (this.pauses++ === 0) {
      this.pausedSince = this.now();
      for (const deadline of this.deadlines) deadline.pause(this.pausedSince);
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.pauses === 0) {
        const now = this.now();
        this.pausedTotal += now - (this.pausedSince ?? now);
        this.pausedSince = undefined;
        for (const deadline of this.deadlines) deadline.resume(now);
      }
    };
  }

  /** How long the clock has stood still so far: the time spent waiting on a person. */
  pausedMs(): number {
    return this.pausedTotal + (this.pausedSince === undefined ? 0 : this.now() - this.pausedSince);
  }

  /** Calls `onExpire` once `limitMs` of agent time have passed; dispose() cancels it. */
  deadline(limitMs: number, onExpire: () => void): { dispose(): void; remainingMs(): number } {
    let remaining = limitMs;
    let since = this.now();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      timer = setTimeout(() => {
        this.deadlines.delete(deadline);
        onExpire();
      }, Math.max(0, remaining));
    };
    const deadline: Deadline = {
      pause: (now) => {
        clearTimeout(timer);
        remaining -= now - since;
      },
      resume: (now) => {
        since = now;
        arm();
      },
      dispose: () => {
        clearTimeout(timer);
        this.deadlines.delete(deadline);
      },
    };
    const remainingMs = (): number => Math.max(0, this.paused ? remaining : remaining - (this.now() - since));
    this.deadlines.add(deadline);
    if (!this.paused) arm();
    return { dispose: deadline.dispose, remainingMs };
  }
}
