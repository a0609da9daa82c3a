/** The clock and timers the bridge waits with, injectable so tests count instead of waiting. */
export interface BridgeTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds since the epoch (for `createdAt`). */
  now(): number;
}

export const systemTimers: BridgeTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
  now: () => Date.now(),
};
