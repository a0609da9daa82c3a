/** What the scheduler tells an observer (the preview panel, the bench) and its running totals. */
import type { AgentErrorCode } from '../../contract/errors';

export type SchedulerEventType = 'queued' | 'started' | 'finished' | 'dropped' | 'retry' | 'preempted';

export interface SchedulerEvent {
  type: SchedulerEventType;
  label?: string;
  priority: number;
  /** finished: how it ended. `closed` = the consumer stopped reading early. */
  outcome?: 'completed' | 'closed' | 'failed' | 'cancelled';
  /** dropped: `stale` (deadline passed) or `cancelled` (its signal aborted while queued). */
  reason?: 'stale' | 'cancelled';
  /** started / retry: 1 for the first attempt, 2 for the first retry… */
  attempt?: number;
  /** started: time spent queued; retry: the wait before the next attempt. */
  waitMs?: number;
  /** finished (failed) / retry: the error code. */
  error?: AgentErrorCode;
}

export interface SchedulerStats {
  /** Requests waiting (including those waiting to retry). */
  queued: number;
  /** Generations in progress on the inner model. */
  running: number;
  /** Generations handed to the inner model, retries included (what the rate budget counts). */
  started: number;
  /** Requests that finished normally (or whose consumer stopped reading early). */
  completed: number;
  /** Requests that ended with an error other than cancellation. */
  failed: number;
  /** Requests dropped unstarted because their deadline passed. */
  dropped: number;
  /** Requests cancelled by their signal, queued or running. */
  cancelled: number;
  /** Retries after busy / rate_limited. */
  retried: number;
  /** Background generations (barks, summaries) stopped to let a waiting player go first. */
  preempted: number;
}

/** The totals the scheduler counts itself (the queue and the running slots are read live). */
export type SchedulerCounters = Omit<SchedulerStats, 'queued' | 'running'>;
