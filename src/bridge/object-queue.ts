/**
 * Per-object order (reference §3.1, guarantee 3): a session's or an NPC's queued requests run
 * one after another, in arrival order; `cancel` stops the running one and drops the waiting
 * ones, each of which then answers −32009.
 */
import { AgentError } from '../contract/errors';
import { Canceller, type SignalLike } from '../contract/abort';

interface Operation {
  canceller: Canceller;
  start: () => void;
  fail: (error: unknown) => void;
  settled: boolean;
}

export class ObjectQueue {
  private running: Operation | undefined;
  private readonly waiting: Operation[] = [];

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Running and waiting operations. */
  get pendingOperations(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  /** Queues `work`; it starts once the operations before it have settled. */
  add<T>(work: (signal: SignalLike) => Promise<T> | T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const operation: Operation = {
        canceller: new Canceller(),
        settled: false,
        fail: (error) => {
          if (operation.settled) return;
          operation.settled = true;
          reject(error);
        },
        start: () => {
          this.running = operation;
          Promise.resolve()
            .then(() => {
              if (operation.canceller.signal.aborted) throw cancelledError();
              return work(operation.canceller.signal);
            })
            .then(
              (value) => {
                if (!operation.settled) {
                  operation.settled = true;
                  resolve(value);
                }
              },
              (error) => operation.fail(error),
            )
            .then(() => this.next(operation));
        },
      };
      if (this.running) this.waiting.push(operation);
      else operation.start();
    });
  }

  /**
   * Cancels the running operation (it settles as its work ends: a turn already committed still
   * answers with its result) and drops the waiting ones. Returns how many were cancelled.
   */
  cancelAll(reason?: string): number {
    const dropped = this.waiting.splice(0, this.waiting.length);
    for (const operation of dropped) operation.fail(cancelledError(reason));
    let count = dropped.length;
    const running = this.running;
    if (running && !running.canceller.signal.aborted && !running.settled) {
      running.canceller.abort(cancelledError(reason));
      count++;
    }
    return count;
  }

  private next(finished: Operation): void {
    if (this.running !== finished) return;
    this.running = undefined;
    const upcoming = this.waiting.shift();
    if (upcoming) upcoming.start();
  }
}

function cancelledError(reason?: string): AgentError {
  return new AgentError('cancelled', reason ?? 'The request was cancelled.');
}
