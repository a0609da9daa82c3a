/**
 * The calls-per-minute budget: starts counted over a sliding 60 s window, the last
 * `reserved` of them kept for conversation turns, decisions and content (barks and background
 * work leave them alone), and a hold for everyone after the backend gave a retry-after: the
 * device's quota is per app, not per request.
 */
import { yieldsToPlayer } from './queue';

const WINDOW_MS = 60000;

export class QuotaWindow {
  /** Start times inside the current 60 s window, oldest first. */
  private readonly recentStarts: number[] = [];
  private holdUntil = -Infinity;
  private callsPerMinute = Infinity;
  private reserved = 0;

  /** New limits (setPacing); the starts already counted stay in the window. */
  setLimits(callsPerMinute: number, reserved: number): void {
    this.callsPerMinute = callsPerMinute;
    this.reserved = reserved;
  }

  /** Nothing may start before this time (a server-given retry-after). */
  get heldUntil(): number {
    return this.holdUntil;
  }

  /** Holds every start until `until`, or longer if a hold already runs. */
  holdFor(until: number): void {
    this.holdUntil = Math.max(this.holdUntil, until);
  }

  recordStart(now: number): void {
    if (this.callsPerMinute !== Infinity) this.recentStarts.push(now);
  }

  /**
   * The earliest time one more start at this priority fits in the budget: barks and background
   * work leave the reserved last starts of the window to everyone else.
   */
  freeAt(now: number, priority: number): number {
    if (this.callsPerMinute === Infinity) return now;
    while (this.recentStarts.length > 0 && this.recentStarts[0] + WINDOW_MS <= now) this.recentStarts.shift();
    const limit = yieldsToPlayer(priority) ? this.callsPerMinute - this.reserved : this.callsPerMinute;
    if (this.recentStarts.length < limit) return now;
    return this.recentStarts[this.recentStarts.length - limit] + WINDOW_MS;
  }
}
