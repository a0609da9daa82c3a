/**
 * Whether a failed model call is tried again, and after how long: transient failures (busy,
 * rate_limited, generation_failed) back off exponentially up to `retry.maxAttempts`. A retry
 * repeats the step only, so no tool ever runs twice.
 */
import { reasonOf, type AgentError } from '../../contract/errors';
import type { ModelCapabilities } from '../../contract/language-model';
import type { RetryPolicy } from './config';

const RETRYABLE = new Set(['busy', 'rate_limited', 'generation_failed']);

/** The wait before the next try of a failed call, or undefined when the failure is final. */
export function retryDelayMs(
  failure: AgentError,
  context: { policy: RetryPolicy; capabilities: ModelCapabilities; attempt: number },
): number | undefined {
  const { policy, capabilities, attempt } = context;
  const tooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs;
  // A scheduler in front of the model has retried busy/rate_limited already.
  const retriedBelow =
    capabilities.retriesTransientErrors === true && (failure.code === 'busy' || failure.code === 'rate_limited');
  // A turn limit (ML Kit's -112, the AgentRunner's own) is a generation_failed that the same
  // step would hit again: not transient.
  const reason = reasonOf(failure);
  const overTurnLimit = reason === 'max_turns_exceeded' || reason === 'turn_time_cap';
  const retryable =
    !overTurnLimit &&
    (RETRYABLE.has(failure.code) || (failure.code === 'guardrail_violation' && policy.retriesGuardrailViolations));
  if (failure.unexpected || !retryable || attempt + 1 >= policy.maxAttempts || tooLong || retriedBelow)
    return undefined;
  const backoff = policy.initialDelayMs * Math.pow(2, attempt);
  return Math.max(backoff, failure.retryAfterMs ?? 0);
}
