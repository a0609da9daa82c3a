/**
 * When background work (summaries, the prefix warm-up) may start: never while a conversation or
 * decision waits or runs, else `quietAfterConversationMs` after the last one. The player is
 * likely to speak again soon, and a summary started now would be stopped for that line and its
 * call wasted.
 */
import { isUrgent, type TicketQueue } from './queue';

export class QuietMoment {
  /** Conversations and decisions running now. */
  private urgentRunning = 0;
  /** When the last one was queued or finished. */
  private lastUrgentAt = -Infinity;
  /** 0 = off: background work takes any free slot. */
  private quietMs = 0;

  setQuietMs(ms: number): void {
    this.quietMs = ms;
  }

  /** A request was queued: an urgent one pushes the quiet moment back. */
  queued(priority: number, now: number): void {
    if (isUrgent(priority)) this.lastUrgentAt = Math.max(this.lastUrgentAt, now);
  }

  started(priority: number): void {
    if (isUrgent(priority)) this.urgentRunning++;
  }

  ended(priority: number, now: number): void {
    if (!isUrgent(priority)) return;
    this.urgentRunning--;
    this.lastUrgentAt = Math.max(this.lastUrgentAt, now);
  }

  /** The time background work may start; Infinity while someone waits on the model. */
  at(queue: TicketQueue): number {
    if (this.quietMs === 0) return -Infinity;
    if (this.urgentRunning > 0 || queue.hasUrgent()) return Infinity;
    return this.lastUrgentAt + this.quietMs;
  }
}
