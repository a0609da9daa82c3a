/**
 * Which failures are retried and after how long: busy and rate_limited, before any output, up to
 * maxRetries times, backing off exponentially or by the backend's retry-after when longer. A
 * retry-after beyond maxRetryAfterMs is not waited for: the caller gets the error at once.
 */
import type { AgentError } from '../../contract/errors';
import type { Pacing } from './options';

/** The wait before the next attempt, or undefined when the error must be passed through. */
export function retryWaitFor(
  error: AgentError,
  attempt: number,
  pacing: Pick<Pacing, 'maxRetries' | 'maxRetryAfterMs' | 'initialBackoffMs'>,
): number | undefined {
  if (error.code !== 'busy' && error.code !== 'rate_limited') return undefined;
  if (attempt > pacing.maxRetries) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > pacing.maxRetryAfterMs) return undefined;
  const backoff = pacing.initialBackoffMs * Math.pow(2, attempt - 1);
  return Math.max(backoff, error.retryAfterMs ?? 0);
}
