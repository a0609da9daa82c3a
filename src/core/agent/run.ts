/**
 * A turn in flight: its events (as an async iterable, once, or through `on` listeners), the
 * external calls waiting for the host, cancellation, and the final response.
 */
import mitt, { type Emitter } from 'mitt';
import { AgentError } from '../errors';
import { Canceller, linkSignal, type SignalLike } from '../abort';
import type { ToolCall } from '../tools';
import { AsyncQueue } from './async-queue';
import type { AgentEvent, AgentEventOf, AgentEventType, AgentResponse } from './events';
import { ExternalCalls, type ExternalToolHandler } from './tool-runner';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

type EventMap = { [K in AgentEventType]: AgentEventOf<K> } & { error: AgentError };

export class AgentRun {
  readonly id: string;
  private readonly queue = new AsyncQueue<AgentEvent>();
  private readonly emitter: Emitter<EventMap> = mitt<EventMap>();
  private readonly canceller = new Canceller();
  readonly external = new ExternalCalls();
  private _status: RunStatus = 'queued';
  private readonly done: Promise<AgentResponse>;
  private settle!: { resolve: (r: AgentResponse) => void; reject: (e: AgentError) => void };
  private unlinkCaller: () => void;

  constructor(id: string, callerSignal?: SignalLike, externalTools?: ExternalToolHandler) {
    this.id = id;
    this.done = new Promise<AgentResponse>((resolve, reject) => { this.settle = { resolve, reject }; });
    this.done.catch(() => undefined); // failures reach whoever awaits response(); never unhandled
    this.unlinkCaller = linkSignal(callerSignal, this.canceller);
    if (externalTools) this.external.handler = externalTools;
  }

  /** The turn's events, in order; collect them once. A failure is thrown from the iteration. */
  get events(): AsyncIterable<AgentEvent> {
    return this.queue;
  }

  /** Listens to one kind of event ('error' for the failure); returns the unsubscribe function. */
  on<K extends keyof EventMap>(type: K, handler: (event: EventMap[K]) => void): () => void {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  }

  /** Waits for the final response; a handler answers external tool calls. */
  response(externalTools?: ExternalToolHandler): Promise<AgentResponse> {
    if (externalTools) {
      this.external.handler = externalTools;
      // Calls already waiting get answered too.
      for (const call of this.external.calls) {
        Promise.resolve()
          .then(() => externalTools(call, this.signal))
          .then((v) => this.external.submit(call.id, v), (e) => this.external.submit(call.id, { kind: 'error', message: e instanceof Error ? e.message : String(e) }));
      }
    }
    return this.done;
  }

  /** Answers an external tool call; false if the id is unknown, answered, timed out or cancelled. */
  submit(callId: string, output: unknown): boolean {
    return this.external.submit(callId, output);
  }

  get pendingToolCalls(): ToolCall[] {
    return this.external.calls;
  }

  /** Cancels the turn; nothing of it stays in the history. No effect once it has completed. */
  cancel(reason?: string): void {
    if (this.isFinished) return;
    this.canceller.abort(new AgentError('cancelled', reason ?? 'The turn was cancelled.'));
  }

  get status(): RunStatus {
    return this._status;
  }

  get isFinished(): boolean {
    return this._status === 'completed' || this._status === 'failed' || this._status === 'cancelled';
  }

  get signal(): SignalLike {
    return this.canceller.signal;
  }

  // ---- used by the agent ----

  /** @internal */ markRunning(): void {
    this._status = 'running';
  }

  /** @internal */ emit(event: AgentEvent): void {
    this.queue.push(event);
    this.emitter.emit(event.type, event as never);
  }

  /** @internal */ complete(response: AgentResponse): void {
    this._status = 'completed';
    this.emit({ type: 'completed', response });
    this.queue.close();
    this.cleanup();
    this.settle.resolve(response);
  }

  /** @internal */ fail(error: AgentError): void {
    this._status = error.code === 'cancelled' ? 'cancelled' : 'failed';
    this.queue.fail(error);
    this.emitter.emit('error', error);
    this.cleanup();
    this.settle.reject(error);
  }

  private cleanup(): void {
    this.unlinkCaller();
    this.external.clear();
    this.emitter.all.clear();
  }
}
