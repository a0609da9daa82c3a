/**
 * When the scheduler's pump must run again with nothing else happening: the earliest moment a
 * waiting request can start (its backoff over, the window or a retry-after hold passed, a quiet
 * moment come), can preempt background work, or goes stale. Nothing runs between those moments.
 */
import { isBackground, isUrgent, type TicketQueue } from './queue';
import type { QuietMoment } from './quiet';
import type { QuotaWindow } from './quota';

export interface WakeInput {
  now: number;
  queue: TicketQueue;
  quota: QuotaWindow;
  quiet: QuietMoment;
  /** Fewer generations run than the concurrency allows. */
  slotFree: boolean;
  preemptsBackground: boolean;
}

/** The time to wake the pump; Infinity when only an event (a finish, a new request) can help. */
export function nextWake(input: WakeInput): number {
  return Math.min(nextStartAt(input), nextDeadline(input.queue));
}

/** When a waiting request could next start (or, with the slots taken, preempt). */
function nextStartAt({ now, queue, quota, quiet, slotFree, preemptsBackground }: WakeInput): number {
  let wake = Infinity;
  if (slotFree) {
    // A quiet moment that never comes (a conversation waits) wakes nobody: its end pumps again.
    const quietAt = quiet.at(queue);
    for (const ticket of queue) {
      const quietFrom = isBackground(ticket.priority) ? quietAt : -Infinity;
      const freeAt = quota.freeAt(now, ticket.priority);
      wake = Math.min(wake, Math.max(quota.heldUntil, freeAt, ticket.notBefore, quietFrom));
    }
  } else if (preemptsBackground) {
    // The slots are taken (maybe by background work): wake when an urgent request's backoff
    // ends, so it can preempt. A slot just granted is not in `active` yet, so do not ask.
    for (const ticket of queue)
      if (isUrgent(ticket.priority) && ticket.notBefore > now) wake = Math.min(wake, ticket.notBefore);
  }
  return wake;
}

function nextDeadline(queue: TicketQueue): number {
  let wake = Infinity;
  for (const ticket of queue) if (ticket.deadline !== undefined) wake = Math.min(wake, ticket.deadline);
  return wake;
}
