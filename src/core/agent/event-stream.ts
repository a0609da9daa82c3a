/**
 * The shape every long-running call here shares (an agent turn, an NPC turn): events in
 * order (an async iterable collected once, or `on` listeners), a cancel, and one result.
 */
import mitt, { type Emitter } from 'mitt';
import { AgentError } from '../../contract/errors';
import { Canceller, linkSignal, type SignalLike } from '../../contract/abort';
import { AsyncQueue } from './async-queue';

export type StreamStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export class EventStream<E extends { type: string }, R> {
  private readonly queue = new AsyncQueue<E>();
  private readonly emitter: Emitter<Record<string, unknown>> = mitt();
  private readonly canceller = new Canceller();
  private readonly result: Promise<R>;
  private settle!: { resolve: (r: R) => void; reject: (e: AgentError) => void };
  private readonly unlinkCaller: () => void;
  /** Every event so far, so a stream derived late (`follow`) still starts from the first one. */
  private readonly log: E[] = [];
  private readonly followers = new Set<(event: E | null, error?: AgentError) => void>();
  protected _status: StreamStatus = 'queued';
  private failure: AgentError | undefined;

  constructor(callerSignal?: SignalLike) {
    this.result = new Promise<R>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.result.catch(() => undefined); // failures reach whoever awaits the result; never unhandled
    this.unlinkCaller = linkSignal(callerSignal, this.canceller);
  }

  /** The events in order; collect them once. A failure is thrown from the iteration. */
  get events(): AsyncIterable<E> {
    return this.queue;
  }

  /** Listens to one kind of event ('error' for the failure); returns the unsubscribe function. */
  on<K extends E['type'] | 'error'>(
    type: K,
    handler: (event: K extends 'error' ? AgentError : Extract<E, { type: K }>) => void,
  ): () => void {
    // A game's listener that throws is a bug in the game: it is logged, and neither the turn nor
    // the other listeners (nor the turns queued behind it) pay for it.
    const guarded = (event: unknown) => {
      try {
        (handler as (e: unknown) => void)(event);
      } catch (err) {
        console.error(`[oam-cocos] a '${String(type)}' listener threw:`, err);
      }
    };
    this.emitter.on(type, guarded);
    return () => this.emitter.off(type, guarded);
  }

  /** Cancels; nothing of it is kept. No effect once finished. */
  cancel(reason?: string): void {
    if (this.isFinished) return;
    this.canceller.abort(new AgentError('cancelled', reason ?? 'The turn was cancelled.'));
  }

  get status(): StreamStatus {
    return this._status;
  }

  get isFinished(): boolean {
    return this._status === 'completed' || this._status === 'failed' || this._status === 'cancelled';
  }

  get signal(): SignalLike {
    return this.canceller.signal;
  }

  protected get settled(): Promise<R> {
    return this.result;
  }

  /** @internal */ markRunning(): void {
    if (this._status === 'queued') this._status = 'running';
  }

  /** @internal */ emit(event: E): void {
    this.log.push(event);
    this.queue.push(event);
    for (const follower of this.followers) follower(event);
    this.emitter.emit(event.type, event);
  }

  /**
   * A stream of its own over these events, from the first one on whenever it is asked for: each
   * event `pick` maps to a value is yielded; it ends when the stream completes and throws its
   * failure (the cancel included). Any number of them can be read, beside `events` and `on`.
   */
  protected follow<T>(pick: (event: E) => T | undefined): AsyncIterable<T> {
    const queue = new AsyncQueue<T>();
    const feed = (event: E) => {
      const value = pick(event);
      if (value !== undefined) queue.push(value);
    };
    for (const event of this.log) feed(event);
    const failure = this.failure;
    if (failure) queue.fail(failure);
    else if (this.isFinished) queue.close();
    else {
      const follower = (event: E | null, error?: AgentError) => {
        if (event) return feed(event);
        this.followers.delete(follower);
        if (error) queue.fail(error);
        else queue.close();
      };
      this.followers.add(follower);
    }
    return queue;
  }

  /** @internal */ complete(result: R, last: E): void {
    this._status = 'completed';
    this.emit(last);
    this.queue.close();
    for (const follower of this.followers) follower(null);
    this.cleanup();
    this.settle.resolve(result);
  }

  /** @internal */ fail(error: AgentError): void {
    if (this.isFinished) return;
    this._status = error.code === 'cancelled' ? 'cancelled' : 'failed';
    this.failure = error;
    this.queue.fail(error);
    for (const follower of this.followers) follower(null, error);
    this.emitter.emit('error', error);
    this.cleanup();
    this.settle.reject(error);
  }

  protected cleanup(): void {
    this.unlinkCaller();
    this.emitter.all.clear();
  }

  /** The AgentError a cancelled stream fails with. */
  cancelReason(): AgentError {
    const reason = this.canceller.signal.reason;
    return reason instanceof AgentError ? reason : AgentError.cancelled();
  }
}
