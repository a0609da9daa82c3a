/**
 * A single-consumer async queue: producers push synchronously, one consumer iterates with
 * for-await. Events pushed before anyone iterates are kept, so a caller may start reading late.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private closed = false;
  private failure: { error: unknown } | null = null;
  private iterated = false;
  private detached = false;

  push(item: T): void {
    if (this.closed || this.detached) return;
    if (this.waiting) {
      const waiter = this.waiting;
      this.waiting = null;
      waiter.resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.settleWaiting();
  }

  fail(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.failure = { error };
    this.settleWaiting();
  }

  private settleWaiting(): void {
    if (!this.waiting) return;
    const waiter = this.waiting;
    this.waiting = null;
    if (this.failure) waiter.reject(this.failure.error);
    else waiter.resolve({ value: undefined as unknown as T, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.iterated) throw new Error('These events can be collected once; use run.on(...) for more listeners.');
    this.iterated = true;
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift() as T, done: false });
        if (this.closed) {
          if (this.failure) {
            const failure = this.failure;
            this.failure = null; // throw once, then report done
            return Promise.reject(failure.error);
          }
          return Promise.resolve({ value: undefined as unknown as T, done: true });
        }
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          this.waiting = { resolve, reject };
        });
      },
      // Stopping early (break) only detaches the reader; it does not cancel the producer.
      return: () => {
        this.detached = true;
        this.items = [];
        return Promise.resolve({ value: undefined as unknown as T, done: true });
      },
    };
  }
}
