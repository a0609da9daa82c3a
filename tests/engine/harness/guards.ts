/**
 * Per-file guards of the real-engine suite: console.warn/error are silenced (components log
 * set-up problems on purpose) and kept for assertions, and a test fails when a promise was
 * rejected with nobody handling it, while it ran or after the file's last test
 * (harness/environment.ts collects them from the real process).
 */
export interface Guards {
  warn: jest.SpyInstance;
  error: jest.SpyInstance;
}

const globals = globalThis as unknown as { __oamUnhandled?: string[]; __oamPendingTimerIds(): unknown[] };

/** Ids of the timers pending now (harness/timers.ts). */
export function pendingTimerIds(): unknown[] {
  return globals.__oamPendingTimerIds();
}

/** Timers pending now that were not in `before`. */
export function newTimers(before: unknown[]): unknown[] {
  const known = new Set(before);
  return pendingTimerIds().filter((id) => !known.has(id));
}

function takeUnhandled(): string[] {
  const list = globals.__oamUnhandled;
  if (!list) throw new Error('the suite must run in harness/environment.ts (tests/engine/jest.config.js)');
  return list.splice(0);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

export function guard(after: () => void = () => undefined): Guards {
  const guards = {} as Guards;
  beforeEach(() => {
    takeUnhandled();
    guards.warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    guards.error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await settle();
    await settle();
    guards.warn.mockRestore();
    guards.error.mockRestore();
    after();
    expect(takeUnhandled()).toEqual([]);
  });
  afterAll(async () => {
    for (let index = 0; index < 5; index++) await settle();
    expect(takeUnhandled()).toEqual([]);
  });
  return guards;
}
