/**
 * One shared on-device model for a whole game. Every NPC line, decision and bark goes through
 * the same Gemini Nano, which runs one request at a time and has an unpublished per-app quota
 * (BUSY after roughly 40 calls a minute). The scheduler sits in front of any LanguageModel
 * and decides who goes next: one queue ordered by priority (queue.ts), a calls-per-minute
 * budget (quota.ts), background work kept for a quiet moment (quiet.ts), retries of BUSY / rate
 * limits that happen before any output (retry.ts), immediate removal of cancelled requests and
 * dropping of requests whose moment has passed.
 */
import { abortError, Canceller, linkSignal, raceSignal, throwIfAborted, type SignalLike } from '../../contract/abort';
import { AgentError } from '../../contract/errors';
import {
  prefixWarmUpRequest,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
} from '../../contract/language-model';
import type { SchedulerCounters, SchedulerEvent, SchedulerStats } from './events';
import { checkPacing, type ModelSchedulerOptions, type Pacing, type PacingOptions } from './options';
import { isUrgent, staleError, TicketQueue, yieldsToPlayer, type Ticket } from './queue';
import { QuietMoment } from './quiet';
import { QuotaWindow } from './quota';
import { retryWaitFor } from './retry';
import { nextWake } from './wake';

export { Priority } from '../../contract/language-model';

/** A generation now running, with a way to stop it for a waiting player. */
interface Slot {
  ticket: Ticket;
  stop: Canceller;
  preempted: boolean;
}

/** How one attempt ended, as generate() decides what comes next. */
interface Attempt {
  outcome?: 'completed' | 'failed' | 'cancelled';
  failure?: AgentError;
  retryWait?: number;
  requeue: boolean;
}

export class ModelScheduler implements LanguageModel {
  private pacing!: Pacing;
  private readonly now: () => number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly onEvent: ((event: SchedulerEvent) => void) | undefined;
  private readonly preemptsBackground: boolean;

  private readonly queue: TicketQueue;
  private readonly quota = new QuotaWindow();
  private readonly quiet = new QuietMoment();
  private readonly active = new Set<Slot>();
  private running = 0;
  private wakeTimer: unknown = undefined;
  private pumpScheduled = false;
  private readonly counters: SchedulerCounters = {
    started: 0,
    completed: 0,
    failed: 0,
    dropped: 0,
    cancelled: 0,
    retried: 0,
    preempted: 0,
  };

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
    this.queue = new TicketQueue(this.now);
  }

  /**
   * Changes the pacing in place (fields left out go back to their defaults). Queued and running
   * requests stay in this one queue, so the one-request-at-a-time rule holds across the change.
   */
  setPacing(options: PacingOptions = {}): void {
    this.applyPacing(options);
    this.schedulePump();
  }

  private applyPacing(options: PacingOptions): void {
    // All checked before any is set, so a bad value changes nothing.
    this.pacing = checkPacing(options);
    this.quota.setLimits(this.pacing.callsPerMinute, this.pacing.reserved);
    this.quiet.setQuietMs(this.pacing.quietMs);
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
    const ticket = this.queue.ticketFor(request, signal);
    throwIfAborted(signal);
    this.emit({ type: 'queued', label: ticket.label, priority: ticket.priority });
    for (;;) {
      // Resolves once this request holds a slot; rejects when cancelled or stale while queued.
      await this.waitForTurn(ticket);
      const attempt = yield* this.runAttempt(ticket, request);
      if (!attempt.requeue && attempt.retryWait === undefined) return;
    }
  }

  /** One attempt on the inner model in the slot just granted; returns how it ended. */
  private async *runAttempt(
    ticket: Ticket,
    request: GenerationRequest,
  ): AsyncGenerator<GenerationChunk, Attempt, undefined> {
    const signal = ticket.signal;
    const attempt: Attempt = { requeue: false };
    let yielded = false;
    // The caller's signal, or a preemption for a waiting player.
    const stop = new Canceller();
    const unlink = linkSignal(signal, stop);
    const slot: Slot = { ticket, stop, preempted: false };
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
      attempt.outcome = 'completed';
    } catch (error) {
      const failure = AgentError.from(error);
      attempt.failure = failure;
      // Stopped for a waiting player before it wrote anything: queued again at once, as the
      // same attempt (a preemption is not the backend failing, so it costs no retry).
      attempt.requeue = slot.preempted && !yielded && !signal?.aborted;
      // After output started a retry would repeat text the player already saw.
      attempt.retryWait =
        attempt.requeue || yielded || signal?.aborted ? undefined : retryWaitFor(failure, ticket.attempt, this.pacing);
      if (attempt.retryWait === undefined && !attempt.requeue) {
        attempt.outcome = failure.code === 'cancelled' ? 'cancelled' : 'failed';
        throw failure;
      }
    } finally {
      this.active.delete(slot);
      this.quiet.ended(ticket.priority, this.now());
      unlink();
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
      this.running--;
      // Settled before the pump runs, so it sees the retry's backoff and hold.
      if (attempt.requeue) this.requeue(ticket);
      else if (attempt.retryWait !== undefined && attempt.failure) {
        this.prepareRetry(ticket, attempt.failure, attempt.retryWait);
      } else this.finish(ticket, attempt.outcome ?? 'closed', attempt.failure);
      this.schedulePump();
    }
    return attempt;
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
      this.quiet.queued(ticket.priority, this.now());
      this.preemptFor(ticket);
      this.schedulePump();
    });
  }

  /** Stops one running background generation when an urgent request would wait behind it. */
  private preemptFor(ticket: Ticket): void {
    if (!this.preemptsBackground || !isUrgent(ticket.priority) || this.running < this.pacing.concurrency) return;
    let lowest: Slot | undefined;
    for (const slot of this.active) {
      if (
        yieldsToPlayer(slot.ticket.priority) &&
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

  /** Stopped for a player before its first output: waits again from now, as the same attempt. */
  private requeue(ticket: Ticket): void {
    ticket.notBefore = this.now();
    ticket.enqueuedAt = ticket.notBefore;
  }

  private prepareRetry(ticket: Ticket, failure: AgentError, waitMs: number): void {
    const now = this.now();
    this.counters.retried++;
    ticket.attempt++;
    ticket.notBefore = now + waitMs;
    ticket.enqueuedAt = now;
    // A server-given retry-after applies to everyone: the quota is per app, not per request.
    if (failure.retryAfterMs !== undefined) this.quota.holdFor(now + failure.retryAfterMs);
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
    const urgent = this.running >= this.pacing.concurrency ? this.bestEligible(now) : undefined;
    if (urgent) this.preemptFor(urgent);
    while (this.running < this.pacing.concurrency && this.queue.length > 0 && this.quota.heldUntil <= now) {
      const next = this.bestEligible(now);
      // The best one waiting is held by the window: so is everything below it (same or tighter share).
      if (!next || this.quota.freeAt(now, next.priority) > now) break;
      this.start(next, now);
    }
    this.armWakeTimer(now);
  }

  private bestEligible(now: number): Ticket | undefined {
    return this.queue.best(now, this.quiet.at(this.queue));
  }

  private start(ticket: Ticket, now: number): void {
    this.queue.remove(ticket);
    this.running++;
    this.quiet.started(ticket.priority);
    this.counters.started++;
    this.quota.recordStart(now);
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
    for (const ticket of [...this.queue]) {
      if (ticket.deadline === undefined || now < ticket.deadline) continue;
      this.queue.remove(ticket);
      this.counters.dropped++;
      this.emit({ type: 'dropped', label: ticket.label, priority: ticket.priority, reason: 'stale' });
      this.reject(ticket, staleError(ticket, now));
    }
  }

  private cancelQueued(ticket: Ticket): void {
    if (!this.queue.includes(ticket)) return;
    this.queue.remove(ticket);
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

  /** Wakes the pump when the next waiting request can start or go stale; nothing runs otherwise. */
  private armWakeTimer(now: number): void {
    if (this.wakeTimer !== undefined) {
      this.clearTimer(this.wakeTimer);
      this.wakeTimer = undefined;
    }
    if (this.queue.length === 0) return;
    const wake = nextWake({
      now,
      queue: this.queue,
      quota: this.quota,
      quiet: this.quiet,
      slotFree: this.running < this.pacing.concurrency,
      preemptsBackground: this.preemptsBackground,
    });
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
