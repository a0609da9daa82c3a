/**
 * A one-consumer async queue: the bridge pushes streamed chunks as they arrive, the
 * generate() iterator pulls them. Ends with a value-less `end()` or a `fail(error)`.
 */
export class ChunkQueue<T> {
  private readonly items: T[] = [];
  private done = false;
  private error: unknown = undefined;
  private failed = false;
  private waiter: (() => void) | undefined;

  push(item: T): void {
    if (this.done) return;
    this.items.push(item);
    this.wake();
  }

  end(): void {
    this.done = true;
    this.wake();
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failed = true;
    this.error = error;
    this.wake();
  }

  /** Next item, or undefined once ended; throws the failure after the items before it. */
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.items.length > 0) return this.items.shift();
      if (this.done) {
        if (this.failed) throw this.error;
        return undefined;
      }
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter();
  }
}
