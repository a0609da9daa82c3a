/**
 * How tool timeouts are counted. The core counts wall time; a game passes a clock that stops
 * while it is paused (the Cocos components count engine time), so a player who opens the pause
 * menu while an NPC waits for the shop's answer does not come back to a timed-out action.
 */
import { AgentError } from '../../contract/errors';

export interface ToolClock {
  /** Calls `callback` once `ms` of this clock's time have passed; the returned function cancels it. */
  after(ms: number, callback: () => void): () => void;
}

/** Real time, paused by nothing. */
export const WALL_CLOCK: ToolClock = {
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

export function validateToolClock(clock: unknown): void {
  if (clock === undefined) return;
  if (!clock || typeof (clock as { after?: unknown }).after !== 'function')
    throw new AgentError('invalid_request', 'toolClock must have an after(ms, callback) method.');
}
