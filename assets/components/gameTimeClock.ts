/**
 * Tool timeouts in game time: time passes only while neither `game.pause()` (also what the
 * engine does when the app goes to the background) nor `director.pause()` (a pause menu) is in
 * force. The core counts wall time by default; an NPC waiting for the player's answer in a
 * shop dialog must not time out while the player sits in the pause menu or has left the app.
 *
 * It looks in steps of at most STEP_MS and counts at most one step's time per look: a step
 * that ran long (timers frozen or throttled in the background, resumed just before it fired)
 * counts as one step, not as the whole absence. A pause is noticed within one step (±0.25 s on
 * a 30 s timeout).
 */
import { director, game } from 'cc';
import type { ToolClock } from '../runtime/oam-core.js';

const STEP_MS = 250;

/** Whether game time stands still now. */
export function isGamePaused(): boolean {
  return game.isPaused() || director.isPaused();
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export const GAME_TIME_CLOCK: ToolClock = {
  after(ms, callback) {
    let remaining = ms;
    let last = now();
    let planned = Math.min(remaining, STEP_MS);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = () => {
      const at = now();
      if (!isGamePaused()) remaining -= Math.min(at - last, planned);
      last = at;
      if (remaining <= 0) {
        timer = undefined;
        callback();
        return;
      }
      planned = Math.min(remaining, STEP_MS);
      timer = setTimeout(step, planned);
    };
    timer = setTimeout(step, planned);
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
  },
};
