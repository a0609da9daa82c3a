/**
 * The small slice of the Fetch API the OpenAI-compatible client needs, and the lifetime of one
 * HTTP exchange: the caller's SignalLike, the native abort of the fetch, and a timeout on
 * every wait. src/ is type-checked without DOM types, and Cocos's native runtime has neither
 * fetch nor AbortController, so both are reached through globalThis and only when present.
 */
import { abortError, type SignalLike } from '../contract/abort';
import { AgentError } from '../contract/errors';

export interface FetchReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

export interface FetchResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body?: { getReader(): FetchReaderLike } | null;
  text(): Promise<string>;
}

export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** A native AbortSignal when the runtime has AbortController, else absent. */
  signal?: unknown;
}

/**
 * A fetch-shaped function. Declared through a method so the platform's own `fetch` (whose
 * init type is richer than ours) is accepted as it is.
 */
export type FetchLike = {
  call(url: string, init: FetchInitLike): Promise<FetchResponseLike>;
}['call'];

interface NativeAbortController {
  readonly signal: unknown;
  abort(reason?: unknown): void;
}

interface MaybeFetchGlobals {
  fetch?: FetchLike;
  AbortController?: new () => NativeAbortController;
}

function runtimeGlobals(): MaybeFetchGlobals {
  return globalThis as unknown as MaybeFetchGlobals;
}

/** The runtime's fetch, called unbound (browsers reject fetch called on another `this`). */
export function runtimeFetch(): FetchLike | undefined {
  const globals = runtimeGlobals();
  if (typeof globals.fetch !== 'function') return undefined;
  return (url, init) => (runtimeGlobals().fetch as FetchLike)(url, init);
}

export class HttpExchange {
  /** Pass to fetch as `init.signal`; undefined when the runtime has no AbortController. */
  readonly fetchSignal: unknown;
  private readonly controller: NativeAbortController | undefined;
  private reader: FetchReaderLike | undefined;
  private closed = false;

  constructor(
    private readonly signal: SignalLike | undefined,
    private readonly timeoutMs: number,
    private readonly timeoutMessage: () => string,
  ) {
    const Controller = runtimeGlobals().AbortController;
    this.controller = typeof Controller === 'function' ? new Controller() : undefined;
    this.fetchSignal = this.controller?.signal;
  }

  /**
   * Waits for one step of the exchange (the response head, one body read, the body text).
   * Rejects with `cancelled` when the signal aborts and `generation_failed` after timeoutMs
   * without an answer; either way the request is torn down. A late result is ignored.
   */
  wait<T>(step: Promise<T>): Promise<T> {
    const signal = this.signal;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (!settle()) return;
        this.close();
        reject(abortError(signal));
      };
      const timer = setTimeout(() => {
        if (!settle()) return;
        this.close();
        reject(new AgentError('generation_failed', this.timeoutMessage()));
      }, this.timeoutMs);
      step.then(
        (value) => {
          if (settle()) resolve(value);
        },
        (error: unknown) => {
          if (settle()) reject(error);
        },
      );
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort);
    });
  }

  /** Remembers the body reader so close() can cancel it. */
  attachReader(reader: FetchReaderLike): void {
    this.reader = reader;
    if (this.closed) this.cancelReader();
  }

  /** Tears the request down quietly: aborts the fetch and cancels the body. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.controller?.abort();
    } catch {
      // nothing to do: the request is being abandoned anyway
    }
    this.cancelReader();
  }

  private cancelReader(): void {
    const reader = this.reader;
    if (!reader) return;
    this.reader = undefined;
    try {
      reader.cancel().catch(() => undefined);
    } catch {
      // a reader that is already released or errored cannot be cancelled; that is fine
    }
  }
}
