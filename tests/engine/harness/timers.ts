/**
 * Counts the timers scripts leave pending (setTimeout/setInterval not yet fired or cleared), so
 * a test can show that a destroyed component leaves none behind. Installed before the engine
 * and the packed scripts load (setupFiles), so every later timer goes through it.
 */
const pending = new Set<unknown>();
const g = globalThis as unknown as Record<string, (...args: unknown[]) => unknown> & {
  __oamPendingTimerIds: () => unknown[];
};
const {
  setTimeout: realSetTimeout,
  clearTimeout: realClearTimeout,
  setInterval: realSetInterval,
  clearInterval: realClearInterval,
} = g;

g.setTimeout = (callback: unknown, ms?: unknown, ...args: unknown[]) => {
  const id = realSetTimeout(
    (...a: unknown[]) => {
      pending.delete(id);
      (callback as (...x: unknown[]) => void)(...a);
    },
    ms,
    ...args,
  );
  pending.add(id);
  return id;
};
g.clearTimeout = (id: unknown) => {
  pending.delete(id);
  return realClearTimeout(id);
};
g.setInterval = (callback: unknown, ms?: unknown, ...args: unknown[]) => {
  const id = realSetInterval(callback, ms, ...args);
  pending.add(id);
  return id;
};
g.clearInterval = (id: unknown) => {
  pending.delete(id);
  return realClearInterval(id);
};
g.__oamPendingTimerIds = () => Array.from(pending);

export {};
