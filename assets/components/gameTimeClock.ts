/**
 * Tool timeouts in game time: time passes only while neither `game.pause()` (also what the
 * engine does when the app goes to the background) nor `director.pause()` (a pause menu) is in
 * force. The core counts wall time by default; an NPC waiting for the player's answer in a
 * shop dialog must not time out while the player sits in the pause menu or has left the app.
 *
 * It checks in steps of at most STEP_MS of wall time, so a pause is noticed within one step
 * (a step during which the pause began counts as run time): ±0.25 s on a 30 s timeout.
 */
import { director, game } from 'cc';
import type { ToolClock } from '../runtime/oam-core.js';

const STEP_MS = 250;

/** Whether game time stands still now. */
export function isGamePaused(): boolean {
  return game.isPaused() || director.isPaused();
}

export const GAME_TIME_CLOCK: ToolClock = {
  after(ms, callback) {
    let remaining = ms;
    let last = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = () => {
      const now = Date.now();
      if (!isGamePaused()) remaining -= now - last;
      last = now;
      if (remaining <= 0) {
        timer = undefined;
        callback();
        return;
      }
      timer = setTimeout(step, Math.min(remaining, STEP_MS));
    };
    timer = setTimeout(step, Math.min(remaining, STEP_MS));
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
  },
};
