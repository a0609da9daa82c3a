/**
 * ML Kit's agent turn limit (`maxTurns`: "maximum execution steps per turn before forced
 * termination") over the Agent's public API. 'reply' keeps this project's behaviour: the
 * reply is forced when the tool rounds run out, and maxTurns only lowers the rounds so the
 * reply comes within that many steps. 'fail' ends a turn that would need one step more with
 * generation_failed (ML Kit's MAX_TURNS_EXCEEDED, -112). The stop happens at the step event,
 * before the model is called, through the run's own signal, so the turn is cancelled with that
 * error as its reason and, like any failed turn, leaves the history as it was.
 */
import { AgentError, ML_KIT_MAX_TURNS_EXCEEDED } from '../../contract/errors';
import { Canceller, linkSignal } from '../../contract/abort';
import type { Agent, AgentConfigInput, AgentRun, RunOptions } from '../agent';

export type OnMaxTurns = 'reply' | 'fail';

export interface TurnLimit {
  /** Model steps per turn (repairs count, retries of a step do not). Default 10 with 'fail', as ML Kit. */
  maxTurns?: number;
  /** What a turn that needs more steps does: 'reply' (default, the reply is forced) or 'fail'. */
  onMaxTurns?: OnMaxTurns;
}

/** ML Kit's Agent.builder() default. */
export const DEFAULT_MAX_TURNS = 10;

/** A checked limit: undefined when nothing is limited. */
export interface ResolvedTurnLimit {
  maxTurns: number;
  onMaxTurns: OnMaxTurns;
}

export function resolveTurnLimit(limit: TurnLimit, base?: ResolvedTurnLimit): ResolvedTurnLimit | undefined {
  const onMaxTurns = limit.onMaxTurns ?? base?.onMaxTurns ?? 'reply';
  if (onMaxTurns !== 'reply' && onMaxTurns !== 'fail') {
    throw new AgentError('invalid_request', `onMaxTurns must be "reply" or "fail"; got ${JSON.stringify(onMaxTurns)}.`);
  }
  const given = limit.maxTurns ?? base?.maxTurns;
  if (given !== undefined && !(Number.isInteger(given) && given >= 1)) {
    throw new AgentError(
      'invalid_request',
      `maxTurns must be a whole number ≥ 1 (model steps per turn); got ${String(given)}.`,
    );
  }
  if (given === undefined && onMaxTurns === 'reply') return undefined;
  return { maxTurns: given ?? DEFAULT_MAX_TURNS, onMaxTurns };
}

/**
 * The config change 'reply' needs: at most maxTurns − 1 tool rounds, so one step is left for
 * the reply (repairs aside). Undefined when the agent's own budget is already that low.
 */
export function roundsWithin(limit: ResolvedTurnLimit | undefined, agent: Agent): AgentConfigInput | undefined {
  if (!limit || limit.onMaxTurns !== 'reply') return undefined;
  const rounds = Math.min(agent.config.toolPolicy.maxToolRounds, limit.maxTurns - 1);
  return rounds < agent.config.toolPolicy.maxToolRounds ? { toolPolicy: { maxToolRounds: rounds } } : undefined;
}

export function maxTurnsExceeded(maxTurns: number): AgentError {
  return new AgentError(
    'generation_failed',
    `The turn needed more than ${maxTurns} model step${maxTurns === 1 ? '' : 's'} (maxTurns) ` +
      'and was stopped before the next one; nothing of it was kept. Raise maxTurns, ' +
      'lower toolPolicy.maxToolRounds, or use onMaxTurns "reply" to force the reply.',
    { nativeCode: ML_KIT_MAX_TURNS_EXCEEDED, details: { reason: 'max_turns_exceeded', maxTurns } },
  );
}

/** Starts a turn on `agent` under the limit ('fail' watches its steps; 'reply' needs nothing per turn). */
export function runWithinLimit({
  agent,
  prompt,
  options,
  limit,
}: {
  agent: Agent;
  prompt: string;
  options: RunOptions;
  /** No limit: the turn runs as it is. */
  limit: ResolvedTurnLimit | undefined;
}): AgentRun {
  if (!limit || limit.onMaxTurns !== 'fail') return agent.run(prompt, options);
  // The turn's signal follows the caller's and, past the limit, aborts with the -112 error.
  const canceller = new Canceller();
  const unlink = linkSignal(options.signal, canceller);
  const run = agent.run(prompt, { ...options, signal: canceller.signal });
  run.on('step', (event) => {
    // A retry repeats the same step (same index); a repair is a step of its own.
    if (event.step.attempt === 0 && event.step.index >= limit.maxTurns)
      canceller.abort(maxTurnsExceeded(limit.maxTurns));
  });
  run.on('completed', unlink);
  run.on('error', unlink);
  return run;
}
