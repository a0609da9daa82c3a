/**
 * Per-file guards of the real-engine suite: console.warn/error are silenced (components log
 * set-up problems on purpose) and kept for assertions, and a test fails when a promise was
 * rejected with nobody handling it while it ran.
 */
export interface Guards {
  warn: jest.SpyInstance;
  error: jest.SpyInstance;
  unhandled: unknown[];
}

export function pendingTimers(): number {
  return (globalThis as unknown as { __oamPendingTimers(): number }).__oamPendingTimers();
}

export function guard(after: () => void = () => undefined): Guards {
  const guards = { unhandled: [] } as unknown as Guards;
  const onUnhandled = (reason: unknown) => guards.unhandled.push(reason);
  beforeEach(() => {
    guards.unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
    guards.warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    guards.error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await new Promise((r) => setTimeout(r, 0));
    process.off('unhandledRejection', onUnhandled);
    guards.warn.mockRestore();
    guards.error.mockRestore();
    after();
    expect(guards.unhandled).toEqual([]);
  });
  return guards;
}
