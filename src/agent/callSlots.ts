// How many read-only calls of one reply work at once: thirty searches at once
// would be thirty ripgreps (or thirty requests to one MCP server). A call
// waiting on a person (its approval card, an MCP server's question) gives its
// slot back while it waits, so every card of a reply shows at once and an
// AG-UI client gets them in one interrupt; it takes a slot again to go on.

export class CallSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Runs `work` in a slot, waiting for one first (in the order asked). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** From inside `run`: lends the slot out while `wait` waits, and takes one back before going on. */
  async aside<T>(wait: () => Promise<T>): Promise<T> {
    this.release();
    try {
      return await wait();
    } finally {
      await this.acquire();
    }
  }

  private acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
