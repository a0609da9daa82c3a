/**
 * The components' tool clock (assets/components/gameTimeClock.ts) under a clock the test moves:
 * paused time does not count, and a step that ran long (timers frozen while the app was in the
 * background, resumed just before the step fired) counts as one step, not as the absence. The
 * real engine's pause kinds are tested in tests/engine/contract.test.ts.
 */
jest.mock('cc', () => require('./cc-double'), { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });

import type { ToolClock } from '../../src';
import * as cc from './cc-double';

const { GAME_TIME_CLOCK } = require('../../assets/components/gameTimeClock') as { GAME_TIME_CLOCK: ToolClock };

let now = 0;
beforeEach(() => {
  jest.useFakeTimers();
  now = 0;
  jest.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  cc.game.resume();
  cc.director.resume();
  jest.useRealTimers();
  jest.restoreAllMocks();
});

/** Moves wall time and fires the timers due, in 50 ms slices (as a running page would). */
function run(ms: number): void {
  for (let left = ms; left > 0; left -= 50) {
    now += Math.min(50, left);
    jest.advanceTimersByTime(Math.min(50, left));
  }
}

test('fires after its time while the game runs', () => {
  const fired = jest.fn();
  GAME_TIME_CLOCK.after(1000, fired);
  run(950);
  expect(fired).not.toHaveBeenCalled();
  run(100);
  expect(fired).toHaveBeenCalledTimes(1);
});

test.each([['game', cc.game] as const, ['director', cc.director] as const])(
  'does not count time while %s.pause() is in force',
  (_name, pausable) => {
    const fired = jest.fn();
    GAME_TIME_CLOCK.after(1000, fired);
    run(500);
    pausable.pause();
    run(5000);
    expect(fired).not.toHaveBeenCalled();
    pausable.resume();
    run(400);
    expect(fired).not.toHaveBeenCalled();
    run(200);
    expect(fired).toHaveBeenCalledTimes(1);
  },
);

test('back from the background: frozen timers and a resume before the step fires count one step, not the absence', () => {
  const fired = jest.fn();
  GAME_TIME_CLOCK.after(3000, fired);
  run(100);
  cc.game.pause(); // the app is hidden: timers stop firing
  now += 4000; // four seconds pass with no timer run
  cc.game.resume(); // shown again: the engine resumes before the overdue step fires
  jest.advanceTimersByTime(200);
  expect(fired).not.toHaveBeenCalled();
  run(2400);
  expect(fired).not.toHaveBeenCalled();
  run(600);
  expect(fired).toHaveBeenCalledTimes(1);
});

test('the returned function stops it', () => {
  const fired = jest.fn();
  const stop = GAME_TIME_CLOCK.after(300, fired);
  run(100);
  stop();
  run(1000);
  expect(fired).not.toHaveBeenCalled();
  expect(jest.getTimerCount()).toBe(0);
});
