/**
 * Cancellation without relying on globals. Cocos's native JS runtime (V8 on Android,
 * JavaScriptCore on iOS) has no AbortController, so the core accepts anything shaped like an
 * AbortSignal and brings its own small controller.
 */
import { AgentError } from './errors';

export interface SignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

class OwnSignal implements SignalLike {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return;
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  fire(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const ls = this.listeners;
    this.listeners = [];
    for (const callback of ls) {
      try {
        callback();
      } catch {
        /* a listener's failure must not stop the others */
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.length;
  }
}

/** A minimal AbortController that works in every JS VM Cocos ships. */
export class Canceller {
  readonly signal: SignalLike & { readonly listenerCount: number };
  constructor() {
    this.signal = new OwnSignal();
  }
  /** Without a reason, readers get AgentError('cancelled') (made only when someone asks: an error's stack trace is costly, and every model step aborts its own canceller when it ends). */
  abort(reason?: unknown): void {
    (this.signal as OwnSignal).fire(reason);
  }
}

/** Aborts `target` when `source` aborts; returns the unlink function. */
export function linkSignal(source: SignalLike | undefined, target: Canceller): () => void {
  if (!source) return () => undefined;
  if (source.aborted) {
    target.abort(source.reason);
    return () => undefined;
  }
  const onAbort = () => target.abort(source.reason);
  source.addEventListener('abort', onAbort);
  return () => source.removeEventListener('abort', onAbort);
}

/** The AgentError to throw for an aborted signal (its reason when it is one, else `cancelled`). */
export function abortError(signal: SignalLike | undefined): AgentError {
  const reason = signal?.reason;
  if (reason instanceof AgentError) return reason;
  return AgentError.cancelled();
}

export function throwIfAborted(signal: SignalLike | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** Resolves after `ms`, or rejects with `cancelled` as soon as the signal aborts. */
export function sleep(ms: number, signal?: SignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort);
  });
}

/** Races a promise against a signal; the promise keeps running but its result is ignored. */
export function raceSignal<T>(promise: Promise<T>, signal: SignalLike | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined); // abandoned: its failure must not surface as unhandled
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort);
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
