/**
 * The one queue every request waits in, and what its priority means. Highest priority first,
 * then first come first served; conversations and decisions are urgent (someone waits on them),
 * barks and below give way to them, and background work below bark priority also waits for a
 * quiet moment (quiet.ts).
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import { Priority, type GenerationRequest } from '../../contract/language-model';

/** One request's place in the queue. */
export interface Ticket {
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

/** Conversations and decisions: a player (or the game's next move) waits on them. */
export function isUrgent(priority: number): boolean {
  return priority >= Priority.decision;
}

/** Barks and below: stopped for an urgent request, and kept out of the window's reserved starts. */
export function yieldsToPlayer(priority: number): boolean {
  return priority <= Priority.bark;
}

/** Below bark priority (summaries, the prefix warm-up): started only in a quiet moment. */
export function isBackground(priority: number): boolean {
  return priority < Priority.bark;
}

export class TicketQueue implements Iterable<Ticket> {
  private readonly tickets: Ticket[] = [];
  private nextSeq = 0;

  constructor(private readonly now: () => number) {}

  get length(): number {
    return this.tickets.length;
  }

  [Symbol.iterator](): Iterator<Ticket> {
    return this.tickets[Symbol.iterator]();
  }

  /** A new ticket for a request, its priority and deadline checked (invalid_request); not queued yet. */
  ticketFor(request: GenerationRequest, signal: SignalLike | undefined): Ticket {
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

  push(ticket: Ticket): void {
    this.tickets.push(ticket);
  }

  includes(ticket: Ticket): boolean {
    return this.tickets.indexOf(ticket) >= 0;
  }

  /** Takes the ticket out of the queue and stops listening to its signal. */
  remove(ticket: Ticket): void {
    const index = this.tickets.indexOf(ticket);
    if (index >= 0) this.tickets.splice(index, 1);
    if (ticket.onAbort && ticket.signal) ticket.signal.removeEventListener('abort', ticket.onAbort);
    ticket.onAbort = undefined;
  }

  /** A conversation or decision is waiting. */
  hasUrgent(): boolean {
    return this.tickets.some((ticket) => isUrgent(ticket.priority));
  }

  /**
   * Highest priority first, then first come first served; skips tickets still backing off and
   * background work while the quiet moment (`quietAt`) has not come.
   */
  best(now: number, quietAt: number): Ticket | undefined {
    let best: Ticket | undefined;
    for (const ticket of this.tickets) {
      if (ticket.notBefore > now || (isBackground(ticket.priority) && quietAt > now)) continue;
      if (!best || ticket.priority > best.priority || (ticket.priority === best.priority && ticket.seq < best.seq))
        best = ticket;
    }
    return best;
  }
}

/** What a request dropped unstarted hears: it waited past its deadline. */
export function staleError(ticket: Ticket, now: number): AgentError {
  const who = ticket.label ? `"${ticket.label}"` : 'the request';
  const deadline = ticket.deadline ?? now;
  return new AgentError(
    'cancelled',
    `dropped: its moment passed before the model was free (${who} waited ${now - ticket.enqueuedAt} ms, deadline passed ${now - deadline} ms ago).`,
  );
}
