/**
 * The scheduler's options and their checks. The pacing ones can change on a running scheduler
 * (setPacing); all are checked before any is applied, so a bad value changes nothing.
 */
import { AgentError } from '../../contract/errors';
import type { SchedulerEvent } from './events';

export interface ModelSchedulerOptions {
  /** Generations run at once; default 1 (Gemini Nano serves one at a time). */
  concurrency?: number;
  /** Most generations started in any sliding 60 s window; default 30. 0 or Infinity = unlimited. */
  callsPerMinute?: number;
  /**
   * Starts of that window kept for requests above bark priority (conversation turns, decisions,
   * content): barks and background work may take only `callsPerMinute - reservedForConversation`
   * of them, so a burst of barks never leaves the player's line waiting for the window to roll.
   * An integer below callsPerMinute; default a third of it (10 of 30). Ignored when unlimited.
   */
  reservedForConversation?: number;
  /**
   * Background work (below bark priority: summaries, the prefix warm-up) is not started while a
   * conversation or decision is queued or running, nor until this many ms after the last one
   * finished: the player is likely to speak again, and a summary started now would be stopped
   * for that line and its call wasted. Deferred, not dropped: it runs once the game is quiet.
   * Default 20000; 0 = off (background work takes any free slot).
   */
  quietAfterConversationMs?: number;
  /** Retries of busy / rate_limited before output started; default 2. */
  maxRetries?: number;
  /** A retry-after longer than this is not waited for: the error is thrown; default 5000. */
  maxRetryAfterMs?: number;
  /** First retry backoff, doubling each retry; default 300. */
  initialBackoffMs?: number;
  /** Clock for pacing and deadlines; default Date.now. Request deadlines use the same clock. */
  now?: () => number;
  /** Timer functions, injectable for fake clocks; default setTimeout / clearTimeout. */
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /**
   * true (default): a running generation at bark priority or below (a bark, a summary) is
   * stopped when a decision or a conversation is waiting for the slot, so background work never
   * stands in front of the player. Stopped before its first output it is queued again behind
   * the urgent request; after that its caller gets `busy` (a summary is written again later).
   */
  preemptsBackground?: boolean;
  /** Observes queueing decisions (preview panel, bench). Exceptions it throws are ignored. */
  onEvent?: (event: SchedulerEvent) => void;
}

/** The options setPacing() takes: those a running scheduler can change. */
export type PacingOptions = Pick<
  ModelSchedulerOptions,
  | 'concurrency'
  | 'callsPerMinute'
  | 'reservedForConversation'
  | 'quietAfterConversationMs'
  | 'maxRetries'
  | 'maxRetryAfterMs'
  | 'initialBackoffMs'
>;

/** The pacing options checked, with their defaults filled in. */
export interface Pacing {
  concurrency: number;
  /** Infinity when unlimited. */
  callsPerMinute: number;
  /** 0 when unlimited. */
  reserved: number;
  quietMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  initialBackoffMs: number;
}

/** What a scheduler option must be: at least `min`, a whole number when `integer`, Infinity only when allowed. */
interface NumberRule {
  min: number;
  integer?: boolean;
  allowInfinity?: boolean;
}

/** Checks every pacing option (throwing invalid_request for the first bad one) and fills in the defaults. */
export function checkPacing(options: PacingOptions): Pacing {
  const concurrency = checkNumber('concurrency', options.concurrency ?? 1, { min: 1, integer: true });
  const perMinute = checkNumber('callsPerMinute', options.callsPerMinute ?? 30, { min: 0, allowInfinity: true });
  const maxRetries = checkNumber('maxRetries', options.maxRetries ?? 2, { min: 0, integer: true });
  const maxRetryAfterMs = checkNumber('maxRetryAfterMs', options.maxRetryAfterMs ?? 5000, {
    min: 0,
    allowInfinity: true,
  });
  const initialBackoffMs = checkNumber('initialBackoffMs', options.initialBackoffMs ?? 300, { min: 0 });
  const callsPerMinute = perMinute === 0 ? Infinity : Math.floor(perMinute);
  const reserved = checkReserve(options.reservedForConversation, callsPerMinute);
  const quietMs = checkNumber('quietAfterConversationMs', options.quietAfterConversationMs ?? 20000, { min: 0 });
  return { concurrency, callsPerMinute, reserved, quietMs, maxRetries, maxRetryAfterMs, initialBackoffMs };
}

/** reservedForConversation: a whole number of the window's starts, leaving background work at least one. */
function checkReserve(value: number | undefined, callsPerMinute: number): number {
  if (value === undefined) return callsPerMinute === Infinity ? 0 : Math.floor(callsPerMinute / 3);
  checkNumber('reservedForConversation', value, { min: 0, integer: true });
  if (callsPerMinute !== Infinity && value >= callsPerMinute) {
    throw new AgentError(
      'invalid_request',
      `ModelScheduler option reservedForConversation must be below callsPerMinute (${callsPerMinute}), or barks and background work could never run; got ${value}.`,
    );
  }
  return callsPerMinute === Infinity ? 0 : value;
}

function checkNumber(name: string, value: number, rule: NumberRule): number {
  const { min, integer = false, allowInfinity = false } = rule;
  const ok =
    typeof value === 'number' &&
    !isNaN(value) &&
    value >= min &&
    (value !== Infinity || allowInfinity) &&
    (!integer || Number.isInteger(value));
  if (!ok) {
    throw new AgentError(
      'invalid_request',
      `ModelScheduler option ${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}${allowInfinity ? ' (or Infinity)' : ''}, got ${String(value)}.`,
    );
  }
  return value;
}
