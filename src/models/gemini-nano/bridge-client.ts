/**
 * A JSON-RPC 2.0 client over an unreliable BridgeTransport. Every request has a timer, so a
 * lost or never-sent answer becomes an AgentError instead of a hang; notifications that name
 * a pending request's id are routed to it and restart its idle timer; anything unknown or
 * malformed is dropped.
 *
 * Ids are strings "<client>-<n>" with a prefix unique to this client, so two clients (two
 * models, or a reloaded page) on one bridge event never resolve each other's requests.
 */
import {
  AgentError,
  codeOfRpc,
  isAgentErrorCode,
  ML_KIT_MAX_TURNS_EXCEEDED,
  type AgentErrorOptions,
} from '../../contract/errors';
import { abortError, type SignalLike } from '../../contract/abort';
import type { BridgeTransport } from './bridge-transport';
import {
  encodeNotification,
  encodeRequest,
  parseIncoming,
  type BridgeErrorObject,
  type BridgeMethod,
} from './protocol';

export interface RequestOptions {
  /** Time allowed until the first message (notification or answer) for this request. */
  timeoutMs: number;
  /** Time allowed between later messages; defaults to timeoutMs. */
  idleTimeoutMs?: number;
  signal?: SignalLike;
  /** Notifications whose params.id names this request. */
  onNotification?: (method: string, params: Record<string, unknown>) => void;
  /** Message used when the timer fires. */
  timeoutMessage?: string;
  /** Code used when the timer fires (default generation_failed). */
  timeoutCode?: 'generation_failed' | 'model_unavailable';
}

interface Pending {
  method: BridgeMethod;
  resolve(value: unknown): void;
  reject(error: AgentError): void;
  options: RequestOptions;
  timer: ReturnType<typeof setTimeout> | undefined;
  unlinkSignal(): void;
  /** True once a notification for it arrived: native has read it. */
  heard: boolean;
}

export interface BridgeClientStats {
  /** Messages that were not JSON-RPC, or answered no pending request. */
  ignored: number;
}

let clientsCreated = 0;

/** A prefix no other client of this JS context has; the random part tells reloaded contexts apart. */
function newClientPrefix(): string {
  clientsCreated++;
  return `${Math.floor(Math.random() * 0x1000000).toString(36)}${clientsCreated.toString(36)}`;
}

export class BridgeClient {
  private nextId = 1;
  /** Insertion-ordered: the first entry is the oldest pending request. */
  private readonly pending = new Map<string, Pending>();
  private readonly prefix = newClientPrefix();
  private readonly unsubscribe: () => void;
  readonly stats: BridgeClientStats = { ignored: 0 };

  constructor(private readonly transport: BridgeTransport) {
    this.unsubscribe = transport.onMessage((message) => this.receive(message));
  }

  /** Sends a request; returns its id at once and the answer's promise. */
  request(method: BridgeMethod, params: object, options: RequestOptions): { id: string; result: Promise<unknown> } {
    const id = `${this.prefix}-${this.nextId++}`;
    const result = new Promise<unknown>((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const onAbort = () => this.cancel(id, abortError(signal));
      const entry: Pending = {
        method,
        resolve,
        reject,
        options,
        timer: undefined,
        unlinkSignal: () => signal?.removeEventListener('abort', onAbort),
        heard: false,
      };
      this.pending.set(id, entry);
      signal?.addEventListener('abort', onAbort);
      this.arm(id, entry, options.timeoutMs);
      try {
        this.transport.send(encodeRequest(id, method, params));
      } catch (error) {
        this.settle(
          id,
          new AgentError(
            'model_unavailable',
            `Could not send '${method}' to the native side: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          ),
        );
      }
    });
    return { id, result };
  }

  /** Stops waiting for `id`, tells the native side to stop, and rejects with `error`. */
  cancel(id: string, error: AgentError): void {
    if (!this.pending.has(id)) return;
    this.settle(id, error);
    try {
      this.transport.send(encodeNotification('cancel', { id }));
    } catch {
      // The request is already settled; a native side that cannot be reached has nothing to stop.
    }
  }

  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  /** Unsubscribes and rejects everything still waiting. */
  dispose(): void {
    this.unsubscribe();
    for (const id of Array.from(this.pending.keys())) {
      this.settle(id, new AgentError('cancelled', 'The Gemini Nano bridge was closed.'));
    }
  }

  private arm(id: string, entry: Pending, ms: number): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      const message =
        entry.options.timeoutMessage ?? `The native side did not answer '${entry.method}' within ${ms} ms.`;
      this.cancel(id, new AgentError(entry.options.timeoutCode ?? 'generation_failed', message));
    }, ms);
  }

  private settle(id: string, outcome: AgentError | { value: unknown }): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.unlinkSignal();
    if (outcome instanceof AgentError) entry.reject(outcome);
    else entry.resolve(outcome.value);
  }

  private receive(raw: string): void {
    const message = parseIncoming(raw);
    if (!message) {
      this.stats.ignored++;
      return;
    }
    if (message.kind === 'notification') {
      const id = message.params.id;
      const entry = typeof id === 'string' ? this.pending.get(id) : undefined;
      if (!entry || typeof id !== 'string') {
        this.stats.ignored++;
        return;
      }
      entry.heard = true;
      this.arm(id, entry, entry.options.idleTimeoutMs ?? entry.options.timeoutMs);
      try {
        entry.options.onNotification?.(message.method, message.params);
      } catch (error) {
        this.cancel(id, AgentError.from(error));
      }
      return;
    }
    if (message.kind === 'error' && message.id === null) {
      this.failUnreadRequest(message.error);
      return;
    }
    const id = message.id;
    if (typeof id !== 'string' || !this.pending.has(id)) {
      this.stats.ignored++;
      return;
    }
    if (message.kind === 'error') this.settle(id, errorFromWire(message.error));
    else this.settle(id, { value: message.result });
  }

  /**
   * Native answers a message it could not read (not JSON, not JSON-RPC) with `id: null`, so the
   * request it belonged to would wait for its whole timeout. It is blamed only when it can be
   * told apart: exactly one pending request has heard nothing from native yet. With several (a
   * generation still in prefill, a countTokens beside it) any could be the one, so the timeouts
   * decide rather than failing the player's turn by guesswork.
   */
  private failUnreadRequest(error: BridgeErrorObject): void {
    const unheard = Array.from(this.pending)
      .filter(([, entry]) => !entry.heard)
      .map(([id]) => id);
    if (unheard.length !== 1) {
      this.stats.ignored++;
      return;
    }
    const target = unheard[0];
    const method = this.pending.get(target)?.method ?? 'request';
    this.cancel(
      target,
      new AgentError(
        'generation_failed',
        `The native side could not read the '${method}' request: ${error.message || 'no message'} (JSON-RPC ${error.code}).`,
      ),
    );
  }
}

/** Turns a JSON-RPC error object from the native side into an AgentError. */
export function errorFromWire(error: BridgeErrorObject): AgentError {
  const data = error.data ?? {};
  const code = isAgentErrorCode(data.code) ? data.code : (codeOfRpc(error.code) ?? 'generation_failed');
  const options: AgentErrorOptions = {};
  if (typeof data.retryAfterMs === 'number' && data.retryAfterMs >= 0) options.retryAfterMs = data.retryAfterMs;
  if (typeof data.mlkitCode === 'number') options.nativeCode = data.mlkitCode;
  // ML Kit's agent turn limit reads as the AgentRunner's own (src/core/sessions): generation_failed, by reason.
  if (data.mlkitCode === ML_KIT_MAX_TURNS_EXCEEDED) {
    return new AgentError(
      'generation_failed',
      error.message || 'Gemini Nano: the turn needed more steps than maxTurns allows.',
      {
        ...options,
        details: { reason: 'max_turns_exceeded' },
      },
    );
  }
  return new AgentError(code, error.message || `Gemini Nano failed (${code}).`, options);
}
