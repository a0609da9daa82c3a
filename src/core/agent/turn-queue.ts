/**
 * Runs an agent's turns one at a time, in order (an NPC's turns are its agent's). Bad input,
 * queued cancels and already-aborted signals are treated alike: each fails at once (a microtask
 * later, so listeners attached right after the call still hear it), never behind the turns
 * ahead, which may take long.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import type { StreamStatus } from './event-stream';

/** What the queue needs of a turn's stream (an AgentRun, a DialogueStream). */
export interface QueuedStream {
  readonly signal: SignalLike;
  readonly status: StreamStatus;
  markRunning(): void;
  fail(error: AgentError): void;
  cancelReason(): AgentError;
}

export class TurnQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** The streams added and not yet through the queue's bookkeeping. */
  private readonly live = new Set<QueuedStream>();

  /**
   * Turns queued or running, read from their streams: a turn that has delivered its result
   * (completed, failed, cancelled) no longer counts, also inside its last event's listeners and
   * right after `await`, before the queue's own clean-up runs.
   */
  get size(): number {
    let count = 0;
    for (const stream of this.live) if (stream.status === 'queued' || stream.status === 'running') count++;
    return count;
  }

  /**
   * Queues `work` for `stream`. `failure` (bad input found before queueing) fails it at once;
   * so does a cancel while it waits. Whatever `work` throws fails the stream.
   */
  add(stream: QueuedStream, failure: AgentError | undefined, work: () => Promise<void>): void {
    if (failure) {
      Promise.resolve().then(() => stream.fail(failure));
      return;
    }
    this.live.add(stream);
    this.tail = this.tail
      .then(async () => {
        if (stream.signal.aborted) throw stream.cancelReason();
        stream.markRunning();
        await work();
      })
      .catch((error) => stream.fail(AgentError.from(error)))
      .finally(() => {
        this.live.delete(stream);
      });
    const cancelQueued = () => {
      if (stream.status === 'queued') stream.fail(stream.cancelReason());
    };
    if (stream.signal.aborted) Promise.resolve().then(cancelQueued);
    else stream.signal.addEventListener('abort', cancelQueued);
  }

  /** Runs `fn` after everything queued so far (history edits wait for running turns). Not named
   * `then`: that would make the queue a thenable that `await` would try to resolve. */
  after<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once everything queued, including what is queued meanwhile, has finished. */
  async idle(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = this.tail;
      await tail.catch(() => undefined);
    } while (tail !== this.tail);
  }
}
