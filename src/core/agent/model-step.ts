/**
 * One model step: send the request, stream the answer, stop reading as soon as the caller has
 * what it needs, and retry transient failures (busy, rate_limited, generation_failed) with
 * backoff (a generation_failed over a turn limit, `details.reason` 'max_turns_exceeded', is not
 * transient and is never retried). A retry repeats this step only, so no tool ever runs twice.
 */
import { AgentError, markFromBackend, reasonOf } from '../../contract/errors';
import { Canceller, linkSignal, sleep, abortError, raceSignal } from '../../contract/abort';
import { estimateTokens, type FinishReason, type TokenUsage } from '../../contract/language-model';
import type { BuiltPrompt } from '../prompt/prompt-builder';
import type { ModelStepInfo } from './events';
import type { TurnState } from './turn-state';

export interface StepHandlers {
  /** Called with all text so far after each chunk; return true to stop reading (the answer is complete). */
  onText?: (text: string) => boolean | void;
}

export interface StepResult {
  text: string;
  stoppedEarly: boolean;
  finishReason?: FinishReason;
}

const RETRYABLE = new Set(['busy', 'rate_limited', 'generation_failed']);

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** One model step of a turn: the prompt built for it and what the step reports. */
export interface ModelStepInput {
  turn: TurnState;
  built: BuiltPrompt;
  info: Pick<ModelStepInfo, 'kind' | 'isRepair' | 'completedToolRounds' | 'toolCallingMode' | 'enabledTools'>;
  handlers: StepHandlers;
  /** The time it took to build the prompt, counted as the core's own. */
  buildMs: number;
}

export async function runModelStep({ turn, built, info, handlers, buildMs }: ModelStepInput): Promise<StepResult> {
  const { config, model } = turn;
  const request = { ...built.request, isRepair: info.isRepair };
  if (config.priority !== undefined) request.priority = config.priority;
  if (config.label !== undefined) request.label = config.label;
  if (turn.images) request.images = turn.images.slice();
  const maxAttempts = config.retry.maxAttempts;
  let coreMs = buildMs;

  const timeCap = config.maxModelTimePerTurnMs;
  for (let attempt = 0; ; attempt++) {
    const step: ModelStepInfo = { ...info, index: turn.stepIndex, attempt, trimmedTurns: built.trimmedTurns };
    turn.throwIfCancelled();
    if (timeCap > 0 && turn.modelMs >= timeCap) throw overTimeCap(timeCap);
    const attemptStart = now();
    turn.emit({ type: 'step', step, request });
    turn.throwIfCancelled(); // a 'step' listener may cancel: then the model is not called
    turn.modelCalls++;
    const stepCanceller = new Canceller();
    const unlink = linkSignal(turn.signal, stepCanceller);
    let text = '';
    let usage: TokenUsage | undefined;
    let finishReason: FinishReason | undefined;
    let stoppedEarly = false;
    // Each chunk is awaited against the turn's signal too, so a model that ignores its signal
    // can never keep a cancelled turn (and the agent's queue) waiting.
    const iterator = model.generate(request, stepCanceller.signal)[Symbol.asyncIterator]();
    // The turn's model time left bounds this attempt: past it, the step is abandoned.
    const deadline = timeCap > 0 ? new Canceller() : undefined;
    const timer = deadline ? setTimeout(() => deadline.abort(), Math.max(0, timeCap - turn.modelMs)) : undefined;
    try {
      for (;;) {
        const next = await raceSignal(raceDeadline(iterator.next(), deadline, timeCap), turn.signal);
        if (next.done) break;
        const chunk = next.value;
        const t0 = now();
        text = chunk.text;
        if (chunk.usage) usage = chunk.usage;
        if (chunk.finishReason) finishReason = chunk.finishReason;
        if (!finishReason && pastOutputCap(text, request.maxOutputTokens)) {
          // A server that ignores max_tokens: stop where a backend that honours it would have.
          finishReason = 'max_tokens';
          stoppedEarly = true;
          break;
        }
        const stop = handlers.onText ? handlers.onText(text) === true : false;
        coreMs += now() - t0;
        if (stop && !chunk.finishReason) {
          stoppedEarly = true;
          break; // the rest would only cost decode time
        }
      }
      if (turn.signal.aborted) throw abortError(turn.signal);
      const stepUsage: TokenUsage = usage ?? {
        inputTokens: built.promptTokens,
        cachedInputTokens: model.capabilities.prefixCaching ? built.cachedTokens : 0,
        outputTokens: estimateTokens(text),
      };
      turn.usage.inputTokens += stepUsage.inputTokens;
      turn.usage.cachedInputTokens += stepUsage.cachedInputTokens;
      turn.usage.outputTokens += stepUsage.outputTokens;
      turn.steps.push({
        kind: info.kind,
        isRepair: info.isRepair,
        promptTokens: stepUsage.inputTokens,
        cachedPromptTokens: built.cachedTokens,
        outputTokens: stepUsage.outputTokens,
        coreMs,
        stoppedEarly,
      });
      turn.stepIndex++;
      turn.emit({ type: 'stepFinished', step, output: text, usage: stepUsage, stoppedEarly });
      return { text, stoppedEarly, finishReason };
    } catch (error) {
      if (turn.signal.aborted) throw abortError(turn.signal);
      const failure = AgentError.from(error);
      const tooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > config.retry.maxRetryAfterMs;
      // A scheduler in front of the model has retried busy/rate_limited already.
      const retriedBelow =
        model.capabilities.retriesTransientErrors === true &&
        (failure.code === 'busy' || failure.code === 'rate_limited');
      // A turn limit (ML Kit's -112, the AgentRunner's own) is a generation_failed that the same
      // step would hit again: not transient.
      const reason = reasonOf(failure);
      const overTurnLimit = reason === 'max_turns_exceeded' || reason === 'turn_time_cap';
      const retryable =
        !overTurnLimit &&
        (RETRYABLE.has(failure.code) ||
          (failure.code === 'guardrail_violation' && config.retry.retriesGuardrailViolations));
      if (failure.unexpected || !retryable || attempt + 1 >= maxAttempts || tooLong || retriedBelow)
        throw markFromBackend(failure);
      const backoff = config.retry.initialDelayMs * Math.pow(2, attempt);
      await sleep(Math.max(backoff, failure.retryAfterMs ?? 0), turn.signal);
      turn.resetText();
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      turn.modelMs += now() - attemptStart;
      // Ends the model's stream (early stop, cancel, failure) without waiting for it.
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
      unlink();
      stepCanceller.abort();
    }
  }
}

function overTimeCap(capMs: number): AgentError {
  return new AgentError(
    'generation_failed',
    `The model took more than this turn's cap of ${capMs} ms (maxModelTimePerTurnMs), retries included.`,
    { details: { reason: 'turn_time_cap', limitMs: capMs } },
  );
}

/** The next chunk, or the turn's time cap error when the deadline passes first. */
function raceDeadline<T>(promise: Promise<T>, deadline: Canceller | undefined, capMs: number): Promise<T> {
  if (!deadline) return promise;
  return raceSignal(promise, deadline.signal).catch((error: unknown) => {
    throw deadline.signal.aborted ? overTimeCap(capMs) : error;
  });
}

/**
 * True once a step's text is well past its output cap (estimated tokens, with slack for servers
 * that count differently): only a backend that ignores the cap gets there.
 */
function pastOutputCap(text: string, capTokens: number | undefined): boolean {
  return capTokens !== undefined && capTokens > 0 && estimateTokens(text) > capTokens * 1.5 + 32;
}
