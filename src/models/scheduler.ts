/**
 * One shared on-device model for a whole game. Every NPC line, decision and bark goes through
 * the same Gemini Nano, which runs one request at a time and has an unpublished per-app quota
 * (BUSY after roughly 40 calls a minute). The scheduler sits in front of any LanguageModel
 * and decides who goes next: one queue ordered by priority, a calls-per-minute budget, retries
 * of BUSY / rate limits that happen before any output, immediate removal of cancelled requests
 * and dropping of requests whose moment has passed.
 */
import { abortError, Canceller, linkSignal, raceSignal, throwIfAborted, type SignalLike } from '../contract/abort';
import { AgentError, type AgentErrorCode } from '../contract/errors';
import {
  Priority,
  prefixWarmUpRequest,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
} from '../contract/language-model';

export { Priority } from '../contract/language-model';

export type SchedulerEventType = 'queued' | 'started' | 'finished' | 'dropped' | 'retry' | 'preempted';

export interface SchedulerEvent {
  type: SchedulerEventType;
  label?: string;
  priority: number;
  /** finished: how it ended. `closed` = the consumer stopped reading early. */
  outcome?: 'completed' | 'closed' | 'failed' | 'cancelled';
  /** dropped: `stale` (deadline passed) or `cancelled` (its signal aborted while queued). */
  reason?: 'stale' | 'cancelled';
  /** started / retry: 1 for the first attempt, 2 for the first retry… */
  attempt?: number;
  /** started: time spent queued; retry: the wait before the next attempt. */
  waitMs?: number;
  /** finished (failed) / retry: the error code. */
  error?: AgentErrorCode;
}

export interface SchedulerStats {
  /** Requests waiting (including those waiting to retry). */
  queued: number;
  /** Generations in progress on the inner model. */
  running: number;
  /** Generations handed to the inner model, retries included (what the rate budget counts). */
  started: number;
  /** Requests that finished normally (or whose consumer stopped reading early). */
  completed: number;
  /** Requests that ended with an error other than cancellation. */
  failed: number;
  /** Requests dropped unstarted because their deadline passed. */
  dropped: number;
  /** Requests cancelled by their signal, queued or running. */
  cancelled: number;
  /** Retries after busy / rate_limited. */
  retried: number;
  /** Background generations (barks, summaries) stopped to let a waiting player go first. */
  preempted: number;
}

export interface ModelSchedulerOptions {
  /** Generations run at once; default 1 (Gemini Nano serves one at a time). */
  concurrency?: number;
  /** Most generations started in any sliding 60 s window; default 30. 0 or Infinity = unlimited. */
  callsPerMinute?: number;
  /**
   * Starts of that window kept for requests above bark priority (conversation turns, decisions,
   * content): barks and background work may take only `callsPerMinute - reservedForConversation`
   * of them, so a burst of barks never leaves the player's line waiting for the window to roll.
   * An integer below callsPerMinute; default a third of it (10 of 30). Ignored when unlimited.
   */
  reservedForConversation?: number;
  /**
   * Background work (below bark priority: summaries, the prefix warm-up) is not started while a
   * conversation or decision is queued or running, nor until this many ms after the last one
   * finished: the player is likely to speak again, and a summary started now would be stopped
   * for that line and its call wasted. Deferred, not dropped: it runs once the game is quiet.
   * Default 20000; 0 = off (background work takes any free slot).
   */
  quietAfterConversationMs?: number;
  /** Retries of busy / rate_limited before output started; default 2. */
  maxRetries?: number;
  /** A retry-after longer than this is not waited for: the error is thrown; default 5000. */
  maxRetryAfterMs?: number;
  /** First retry backoff, doubling each retry; default 300. */
  initialBackoffMs?: number;
  /** Clock for pacing and deadlines; default Date.now. Request deadlines use the same clock. */
  now?: () => number;
  /** Timer functions, injectable for fake clocks; default setTimeout / clearTimeout. */
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /**
   * true (default): a running generation at bark priority or below (a bark, a summary) is
   * stopped when a decision or a conversation is waiting for the slot, so background work never
   * stands in front of the player. Stopped before its first output it is queued again behind
   * the urgent request; after that its caller gets `busy` (a summary is written again later).
   */
  preemptsBackground?: boolean;
  /** Observes queueing decisions (preview panel, bench). Exceptions it throws are ignored. */
  onEvent?: (event: SchedulerEvent) => void;
}

const WINDOW_MS = 60000;

/** One request's place in the queue. */
interface Ticket {
  readonly seq: number;
  readonly priority: number;
  readonly label?: string;
  readonly deadline?: number;
  readonly signal?: SignalLike;
  /** Not eligible before this time (retry backoff). */
  notBefore: number;
  enqueuedAt: number;
  attempt: number;
  grant?: { resolve: () => void; reject: (error: AgentError) => void };
  onAbort?: () => void;
}

export class ModelScheduler implements LanguageModel {
  private concurrency!: number;
  private callsPerMinute!: number;
  private maxRetries!: number;
  private maxRetryAfterMs!: number;
  private initialBackoffMs!: number;
  private reserved!: number;
  private quietMs!: number;
  private readonly now: () => number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly onEvent: ((event: SchedulerEvent) => void) | undefined;

  private readonly queue: Ticket[] = [];
  /** Start times inside the current 60 s window, oldest first. */
  private readonly recentStarts: number[] = [];
  private running = 0;
  private nextSeq = 0;
  /** A server-given retry-after applies to everyone: the quota is per app, not per request. */
  private holdUntil = -Infinity;
  private wakeTimer: unknown = undefined;
  private pumpScheduled = false;
  /** Conversations and decisions: running now, and when the last one was queued or finished. */
  private urgentRunning = 0;
  private lastUrgentAt = -Infinity;
  private readonly counters = {
    started: 0,
    completed: 0,
    failed: 0,
    dropped: 0,
    cancelled: 0,
    retried: 0,
    preempted: 0,
  };
  private readonly preemptsBackground: boolean;
  /** Generations now running, with a way to stop them for a waiting player. */
  private readonly active = new Set<{ ticket: Ticket; stop: Canceller; preempted: boolean }>();

  constructor(
    readonly inner: LanguageModel,
    options: ModelSchedulerOptions = {},
  ) {
    if (!inner || typeof inner.generate !== 'function') {
      throw new AgentError('invalid_request', 'ModelScheduler needs a LanguageModel to wrap.');
    }
    this.applyPacing(options);
    this.now = options.now ?? (() => Date.now());
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.onEvent = options.onEvent;
    if (options.preemptsBackground !== undefined && typeof options.preemptsBackground !== 'boolean') {
      throw new AgentError('invalid_request', 'preemptsBackground must be true or false.');
    }
    this.preemptsBackground = options.preemptsBackground !== false;
  }

  /**
   * Changes the pacing in place (fields left out go back to their defaults). Queued and running
   * requests stay in this one queue, so the one-request-at-a-time rule holds across the change.
   */
  setPacing(
    options: Pick<
      ModelSchedulerOptions,
      | 'concurrency'
      | 'callsPerMinute'
      | 'reservedForConversation'
      | 'quietAfterConversationMs'
      | 'maxRetries'
      | 'maxRetryAfterMs'
      | 'initialBackoffMs'
    > = {},
  ): void {
    this.applyPacing(options);
    this.schedulePump();
  }

  private applyPacing(options: ModelSchedulerOptions): void {
    const concurrency = checkNumber('concurrency', options.concurrency ?? 1, { min: 1, integer: true });
    const perMinute = checkNumber('callsPerMinute', options.callsPerMinute ?? 30, { min: 0, allowInfinity: true });
    const maxRetries = checkNumber('maxRetries', options.maxRetries ?? 2, { min: 0, integer: true });
    const maxRetryAfterMs = checkNumber('maxRetryAfterMs', options.maxRetryAfterMs ?? 5000, {
      min: 0,
      allowInfinity: true,
    });
    const initialBackoffMs = checkNumber('initialBackoffMs', options.initialBackoffMs ?? 300, { min: 0 });
    const callsPerMinute = perMinute === 0 ? Infinity : Math.floor(perMinute);
    const reserved = checkReserve(options.reservedForConversation, callsPerMinute);
    const quietMs = checkNumber('quietAfterConversationMs', options.quietAfterConversationMs ?? 20000, { min: 0 });
    // All checked before any is set, so a bad value changes nothing.
    this.concurrency = concurrency;
    this.callsPerMinute = callsPerMinute;
    this.reserved = reserved;
    this.quietMs = quietMs;
    this.maxRetries = maxRetries;
    this.maxRetryAfterMs = maxRetryAfterMs;
    this.initialBackoffMs = initialBackoffMs;
  }

  get capabilities(): ModelCapabilities {
    return { ...this.inner.capabilities, retriesTransientErrors: true };
  }

  availability(): Promise<ModelAvailability> {
    return this.inner.availability();
  }

  countTokens(text: string): Promise<number | null> {
    return this.inner.countTokens
      ? Promise.resolve(this.inner.countTokens(text)).then((count) => count ?? null)
      : Promise.resolve(null);
  }

  /**
   * Loads the model, then fills the device's prefix cache through the queue: the 1-token
   * generation that carries the prefix waits its turn at background priority (paced, and
   * stopped for a waiting player) instead of running beside the player's first turn.
   */
  async prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    if (this.inner.prewarm) await this.inner.prewarm(systemInstruction);
    if (!promptPrefix || !this.inner.capabilities.prefixCaching) return;
    try {
      for await (const chunk of this.generate(prefixWarmUpRequest(systemInstruction, promptPrefix))) void chunk;
    } catch (error) {
      // A warm-up stopped for a player (busy) has done its job of not standing in the way.
      if (AgentError.from(error).code !== 'busy') throw error;
    }
  }

  stats(): SchedulerStats {
    return { queued: this.queue.length, running: this.running, ...this.counters };
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    const ticket = this.ticketFor(request, signal);
    throwIfAborted(signal);
    this.emit({ type: 'queued', label: ticket.label, priority: ticket.priority });
    for (;;) {
      // Resolves once this request holds a slot; rejects when cancelled or stale while queued.
      await this.waitForTurn(ticket);
      let yielded = false;
      let outcome: 'completed' | 'failed' | 'cancelled' | undefined;
      let failure: AgentError | undefined;
      let retryWait: number | undefined;
      // The caller's signal, or a preemption for a waiting player.
      const stop = new Canceller();
      const unlink = linkSignal(signal, stop);
      const slot = { ticket, stop, preempted: false };
      let requeue = false;
      this.active.add(slot);
      // Each chunk is awaited against the signal too: a model that ignores its signal must not
      // hold the one slot (and every queued NPC) after a cancel.
      const iterator = this.inner.generate(request, stop.signal)[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await raceSignal(iterator.next(), stop.signal);
          if (next.done) break;
          yielded = true;
          yield next.value;
        }
        outcome = 'completed';
      } catch (error) {
        failure = AgentError.from(error);
        // Stopped for a waiting player before it wrote anything: queued again at once, as the
        // same attempt (a preemption is not the backend failing, so it costs no retry).
        if (slot.preempted && !yielded && !signal?.aborted) requeue = true;
        // After output started a retry would repeat text the player already saw.
        retryWait = requeue || yielded || signal?.aborted ? undefined : this.retryWaitFor(failure, ticket.attempt);
        if (retryWait === undefined && !requeue) {
          outcome = failure.code === 'cancelled' ? 'cancelled' : 'failed';
          throw failure;
        }
      } finally {
        this.active.delete(slot);
        if (ticket.priority >= Priority.decision) {
          this.urgentRunning--;
          this.lastUrgentAt = Math.max(this.lastUrgentAt, this.now());
        }
        unlink();
        Promise.resolve()
          .then(() => iterator.return?.())
          .catch(() => undefined);
        this.running--;
        if (retryWait === undefined && !requeue) this.finish(ticket, outcome ?? 'closed', failure);
        this.schedulePump();
      }
      if (requeue) {
        ticket.notBefore = this.now();
        ticket.enqueuedAt = ticket.notBefore;
        continue;
      }
      if (outcome === 'completed' || retryWait === undefined || failure === undefined) return;
      this.prepareRetry(ticket, failure, retryWait);
    }
  }

  private ticketFor(request: GenerationRequest, signal: SignalLike | undefined): Ticket {
    if (typeof request !== 'object' || request === null) {
      throw new AgentError('invalid_request', 'generate() needs a request object.');
    }
    const priority = request.priority ?? 0;
    if (typeof priority !== 'number' || !isFinite(priority)) {
      throw new AgentError(
        'invalid_request',
        `request.priority must be a finite number, got ${String(request.priority)}.`,
      );
    }
    if (request.deadline !== undefined && (typeof request.deadline !== 'number' || isNaN(request.deadline))) {
      throw new AgentError(
        'invalid_request',
        `request.deadline must be a time in ms on the scheduler's clock, got ${String(request.deadline)}.`,
      );
    }
    const now = this.now();
    return {
      seq: this.nextSeq++,
      priority,
      label: request.label,
      deadline: request.deadline,
      signal,
      notBefore: now,
      enqueuedAt: now,
      attempt: 1,
    };
  }

  private waitForTurn(ticket: Ticket): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const signal = ticket.signal;
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      ticket.grant = { resolve, reject };
      if (signal) {
        ticket.onAbort = () => this.cancelQueued(ticket);
        signal.addEventListener('abort', ticket.onAbort);
      }
      this.queue.push(ticket);
      if (ticket.priority >= Priority.decision) this.lastUrgentAt = Math.max(this.lastUrgentAt, this.now());
      this.preemptFor(ticket);
      this.schedulePump();
    });
  }

  /** Stops one running background generation when an urgent request would wait behind it. */
  private preemptFor(ticket: Ticket): void {
    if (!this.preemptsBackground || ticket.priority < Priority.decision || this.running < this.concurrency) return;
    let lowest: { ticket: Ticket; stop: Canceller; preempted: boolean } | undefined;
    for (const slot of this.active) {
      if (
        slot.ticket.priority <= Priority.bark &&
        !slot.stop.signal.aborted &&
        (!lowest || slot.ticket.priority < lowest.ticket.priority)
      )
        lowest = slot;
    }
    if (!lowest) return;
    lowest.preempted = true;
    this.counters.preempted++;
    this.emit({ type: 'preempted', label: lowest.ticket.label, priority: lowest.ticket.priority });
    lowest.stop.abort(
      new AgentError(
        'busy',
        `The model was needed for ${ticket.label ?? 'a player'} waiting on a reply; background work (${lowest.ticket.label ?? 'unlabelled'}) was stopped and can run again later.`,
      ),
    );
  }

  /** The wait before a retry, or undefined when the error must be passed through. */
  private retryWaitFor(error: AgentError, attempt: number): number | undefined {
    if (error.code !== 'busy' && error.code !== 'rate_limited') return undefined;
    if (attempt > this.maxRetries) return undefined;
    if (error.retryAfterMs !== undefined && error.retryAfterMs > this.maxRetryAfterMs) return undefined;
    const backoff = this.initialBackoffMs * Math.pow(2, attempt - 1);
    return Math.max(backoff, error.retryAfterMs ?? 0);
  }

  private prepareRetry(ticket: Ticket, failure: AgentError, waitMs: number): void {
    const now = this.now();
    this.counters.retried++;
    ticket.attempt++;
    ticket.notBefore = now + waitMs;
    ticket.enqueuedAt = now;
    if (failure.retryAfterMs !== undefined) this.holdUntil = Math.max(this.holdUntil, now + failure.retryAfterMs);
    this.emit({
      type: 'retry',
      label: ticket.label,
      priority: ticket.priority,
      attempt: ticket.attempt,
      waitMs,
      error: failure.code,
    });
  }

  private finish(
    ticket: Ticket,
    outcome: 'completed' | 'closed' | 'failed' | 'cancelled',
    failure: AgentError | undefined,
  ): void {
    if (outcome === 'failed') this.counters.failed++;
    else if (outcome === 'cancelled') this.counters.cancelled++;
    else this.counters.completed++;
    const event: SchedulerEvent = { type: 'finished', label: ticket.label, priority: ticket.priority, outcome };
    if (failure && outcome === 'failed') event.error = failure.code;
    this.emit(event);
  }

  /** Runs the queue on the next microtask, so a burst queued in one frame is ordered by priority. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    Promise.resolve().then(
      () => {
        this.pumpScheduled = false;
        this.pump();
      },
      () => undefined,
    );
  }

  private pump(): void {
    const now = this.now();
    this.dropStale(now);
    // An urgent request back from a retry's backoff finds the slot taken by background work
    // that started meanwhile: it preempts that too, as it would have on arrival.
    const urgent = this.running >= this.concurrency ? this.bestEligible(now) : undefined;
    if (urgent) this.preemptFor(urgent);
    while (this.running < this.concurrency && this.queue.length > 0 && this.holdUntil <= now) {
      const next = this.bestEligible(now);
      // The best one waiting is held by the window: so is everything below it (same or tighter share).
      if (!next || this.paceFreeAt(now, next) > now) break;
      this.start(next, now);
    }
    this.armWakeTimer(now);
  }

  /**
   * Highest priority first, then first come first served; skips tickets still backing off and
   * background work kept for a quiet moment.
   */
  private bestEligible(now: number): Ticket | undefined {
    let best: Ticket | undefined;
    const quietAt = this.quietAt();
    for (const ticket of this.queue) {
      if (ticket.notBefore > now || (ticket.priority < Priority.bark && quietAt > now)) continue;
      if (!best || ticket.priority > best.priority || (ticket.priority === best.priority && ticket.seq < best.seq))
        best = ticket;
    }
    return best;
  }

  /**
   * When background work may start: never while a conversation or decision waits or runs, else
   * `quietAfterConversationMs` after the last one.
   */
  private quietAt(): number {
    if (this.quietMs === 0) return -Infinity;
    if (this.urgentRunning > 0 || this.queue.some((ticket) => ticket.priority >= Priority.decision)) return Infinity;
    return this.lastUrgentAt + this.quietMs;
  }

  /**
   * The earliest time one more start of this ticket fits in the calls-per-minute budget: barks
   * and background work leave the reserved last slots of the window to everyone else.
   */
  private paceFreeAt(now: number, ticket: Ticket): number {
    if (this.callsPerMinute === Infinity) return now;
    while (this.recentStarts.length > 0 && this.recentStarts[0] + WINDOW_MS <= now) this.recentStarts.shift();
    const limit = ticket.priority <= Priority.bark ? this.callsPerMinute - this.reserved : this.callsPerMinute;
    if (this.recentStarts.length < limit) return now;
    return this.recentStarts[this.recentStarts.length - limit] + WINDOW_MS;
  }

  private start(ticket: Ticket, now: number): void {
    this.removeFromQueue(ticket);
    this.running++;
    if (ticket.priority >= Priority.decision) this.urgentRunning++;
    this.counters.started++;
    if (this.callsPerMinute !== Infinity) this.recentStarts.push(now);
    this.emit({
      type: 'started',
      label: ticket.label,
      priority: ticket.priority,
      attempt: ticket.attempt,
      waitMs: now - ticket.enqueuedAt,
    });
    const grant = ticket.grant;
    ticket.grant = undefined;
    grant?.resolve();
  }

  private dropStale(now: number): void {
    for (const ticket of this.queue.slice()) {
      if (ticket.deadline === undefined || now < ticket.deadline) continue;
      this.removeFromQueue(ticket);
      this.counters.dropped++;
      this.emit({ type: 'dropped', label: ticket.label, priority: ticket.priority, reason: 'stale' });
      const who = ticket.label ? `"${ticket.label}"` : 'the request';
      this.reject(
        ticket,
        new AgentError(
          'cancelled',
          `dropped: its moment passed before the model was free (${who} waited ${now - ticket.enqueuedAt} ms, deadline passed ${now - ticket.deadline} ms ago).`,
        ),
      );
    }
  }

  private cancelQueued(ticket: Ticket): void {
    if (this.queue.indexOf(ticket) < 0) return;
    this.removeFromQueue(ticket);
    this.counters.cancelled++;
    this.emit({ type: 'dropped', label: ticket.label, priority: ticket.priority, reason: 'cancelled' });
    this.reject(ticket, abortError(ticket.signal));
    this.schedulePump();
  }

  private reject(ticket: Ticket, error: AgentError): void {
    const grant = ticket.grant;
    ticket.grant = undefined;
    grant?.reject(error);
  }

  private removeFromQueue(ticket: Ticket): void {
    const index = this.queue.indexOf(ticket);
    if (index >= 0) this.queue.splice(index, 1);
    if (ticket.onAbort && ticket.signal) ticket.signal.removeEventListener('abort', ticket.onAbort);
    ticket.onAbort = undefined;
  }

  /** Wakes the pump when the next waiting request can start or go stale; nothing runs otherwise. */
  private armWakeTimer(now: number): void {
    if (this.wakeTimer !== undefined) {
      this.clearTimer(this.wakeTimer);
      this.wakeTimer = undefined;
    }
    if (this.queue.length === 0) return;
    let wake = Infinity;
    if (this.running < this.concurrency) {
      // A quiet moment that never comes (a conversation waits) wakes nobody: its end pumps again.
      const quietAt = this.quietAt();
      for (const ticket of this.queue) {
        const quiet = ticket.priority < Priority.bark ? quietAt : -Infinity;
        wake = Math.min(wake, Math.max(this.holdUntil, this.paceFreeAt(now, ticket), ticket.notBefore, quiet));
      }
    } else if (this.preemptsBackground) {
      // The slots are taken (maybe by background work): wake when an urgent request's backoff
      // ends, so it can preempt. A slot just granted is not in `active` yet, so do not ask.
      for (const ticket of this.queue)
        if (ticket.priority >= Priority.decision && ticket.notBefore > now) wake = Math.min(wake, ticket.notBefore);
    }
    for (const ticket of this.queue) if (ticket.deadline !== undefined) wake = Math.min(wake, ticket.deadline);
    if (wake === Infinity) return;
    this.wakeTimer = this.setTimer(
      () => {
        this.wakeTimer = undefined;
        this.pump();
      },
      Math.max(0, wake - now),
    );
  }

  private emit(event: SchedulerEvent): void {
    if (!this.onEvent) return;
    if (event.label === undefined) delete event.label;
    try {
      this.onEvent(event);
    } catch {
      // an observer must never break scheduling
    }
  }
}

/** What a scheduler option must be: at least `min`, a whole number when `integer`, Infinity only when allowed. */
interface NumberRule {
  min: number;
  integer?: boolean;
  allowInfinity?: boolean;
}

/** reservedForConversation: a whole number of the window's starts, leaving background work at least one. */
function checkReserve(value: number | undefined, callsPerMinute: number): number {
  if (value === undefined) return callsPerMinute === Infinity ? 0 : Math.floor(callsPerMinute / 3);
  checkNumber('reservedForConversation', value, { min: 0, integer: true });
  if (callsPerMinute !== Infinity && value >= callsPerMinute) {
    throw new AgentError(
      'invalid_request',
      `ModelScheduler option reservedForConversation must be below callsPerMinute (${callsPerMinute}), or barks and background work could never run; got ${value}.`,
    );
  }
  return callsPerMinute === Infinity ? 0 : value;
}

function checkNumber(name: string, value: number, rule: NumberRule): number {
  const { min, integer = false, allowInfinity = false } = rule;
  const ok =
    typeof value === 'number' &&
    !isNaN(value) &&
    value >= min &&
    (value !== Infinity || allowInfinity) &&
    (!integer || Number.isInteger(value));
  if (!ok) {
    throw new AgentError(
      'invalid_request',
      `ModelScheduler option ${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}${allowInfinity ? ' (or Infinity)' : ''}, got ${String(value)}.`,
    );
  }
  return value;
}
