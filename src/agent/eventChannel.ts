// An unbounded async queue: producers push from anywhere (model deltas, tool
// progress callbacks, concurrent tool calls); the run's consumer drains it in
// order. Events are small and a run is short, so no back-pressure.
//
// Written as a plain async iterator rather than an `async function*`: every
// streamed token passes through here, and a generator (plus the one that
// wrapped it) cost several promise hops per event. Here an event that is
// already queued is one resolved promise; one that is awaited, one resolve.

export class EventChannel<T> implements AsyncGenerator<T, void, void> {
  private items: (T | undefined)[] = [];
  /** Index of the next item to hand out: no `shift`, which copies on long queues. */
  private head = 0;
  private readonly waiting: ((result: IteratorResult<T, void>) => void)[] = [];
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    const waiter = this.waiting.shift();
    if (waiter) waiter({ value: item, done: false });
    else this.items.push(item);
  }

  /** No more items; the consumer gets what is queued, then the end. */
  close(): void {
    this.closed = true;
    if (this.head < this.items.length) return;
    for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T, void>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T;
      this.items[this.head++] = undefined;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The consumer stopped reading: what is queued is dropped, later pushes are ignored. */
  return(): Promise<IteratorResult<T, void>> {
    this.closed = true;
    this.items = [];
    this.head = 0;
    for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T, void>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
