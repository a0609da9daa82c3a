/**
 * Counts the timers scripts leave pending (setTimeout/setInterval not yet fired or cleared), so
 * a test can show that a destroyed component leaves none behind. Installed before the engine
 * and the packed scripts load (setupFiles), so every later timer goes through it.
 */
const pending = new Set<unknown>();
const globals = globalThis as unknown as Record<string, (...args: unknown[]) => unknown> & {
  __oamPendingTimerIds: () => unknown[];
};
const {
  setTimeout: realSetTimeout,
  clearTimeout: realClearTimeout,
  setInterval: realSetInterval,
  clearInterval: realClearInterval,
} = globals;

globals.setTimeout = (callback: unknown, ms?: unknown, ...args: unknown[]) => {
  const id = realSetTimeout(
    (...callArgs: unknown[]) => {
      pending.delete(id);
      (callback as (...args: unknown[]) => void)(...callArgs);
    },
    ms,
    ...args,
  );
  pending.add(id);
  return id;
};
globals.clearTimeout = (id: unknown) => {
  pending.delete(id);
  return realClearTimeout(id);
};
globals.setInterval = (callback: unknown, ms?: unknown, ...args: unknown[]) => {
  const id = realSetInterval(callback, ms, ...args);
  pending.add(id);
  return id;
};
globals.clearInterval = (id: unknown) => {
  pending.delete(id);
  return realClearInterval(id);
};
globals.__oamPendingTimerIds = () => Array.from(pending);

export {};
