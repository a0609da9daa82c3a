/**
 * One model step: send the request, stream the answer (model-stream.ts), stop reading as soon as
 * the caller has what it needs, and retry transient failures (busy, rate_limited,
 * generation_failed) with backoff (step-retry.ts; a generation_failed over a turn limit,
 * `details.reason` 'max_turns_exceeded', is not transient and is never retried). A retry repeats
 * this step only, so no tool ever runs twice.
 */
import { AgentError, markFromBackend } from '../../contract/errors';
import { sleep, abortError } from '../../contract/abort';
import {
  estimateTokens,
  type FinishReason,
  type GenerationRequest,
  type TokenUsage,
} from '../../contract/language-model';
import type { BuiltPrompt } from '../prompt/prompt-builder';
import type { ModelStepInfo } from './events';
import type { TurnState } from './turn-state';
import { ModelStream, overTimeCap } from './model-stream';
import { retryDelayMs } from './step-retry';

export interface StepHandlers {
  /** Called with all text so far after each chunk; return true to stop reading (the answer is complete). */
  onText?: (text: string) => boolean | void;
}

export interface StepResult {
  text: string;
  stoppedEarly: boolean;
  finishReason?: FinishReason;
}

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
  const { config } = turn;
  const request: GenerationRequest = { ...built.request, isRepair: info.isRepair };
  if (config.priority !== undefined) request.priority = config.priority;
  if (config.label !== undefined) request.label = config.label;
  if (turn.images) request.images = turn.images.slice();
  // The core's own time (building the prompt, reading the chunks), across the step's tries.
  const spent = { coreMs: buildMs };

  const timeCap = config.maxModelTimePerTurnMs;
  for (let attempt = 0; ; attempt++) {
    const step: ModelStepInfo = { ...info, index: turn.stepIndex, attempt, trimmedTurns: built.trimmedTurns };
    turn.throwIfCancelled();
    if (timeCap > 0 && turn.modelMs >= timeCap) throw overTimeCap(timeCap);
    const attemptStart = now();
    turn.emit({ type: 'step', step, request });
    turn.throwIfCancelled(); // a 'step' listener may cancel: then the model is not called
    turn.modelCalls++;
    const stream = new ModelStream(turn, request);
    try {
      const answer = await readAnswer({ stream, request, handlers, spent });
      if (turn.signal.aborted) throw abortError(turn.signal);
      const usage = recordStep(turn, { built, info, answer, coreMs: spent.coreMs });
      turn.emit({ type: 'stepFinished', step, output: answer.text, usage, stoppedEarly: answer.stoppedEarly });
      return { text: answer.text, stoppedEarly: answer.stoppedEarly, finishReason: answer.finishReason };
    } catch (error) {
      if (turn.signal.aborted) throw abortError(turn.signal);
      const failure = AgentError.from(error);
      const delay = retryDelayMs(failure, { policy: config.retry, capabilities: turn.model.capabilities, attempt });
      if (delay === undefined) throw markFromBackend(failure);
      await sleep(delay, turn.signal);
      turn.resetText();
    } finally {
      turn.modelMs += now() - attemptStart;
      stream.close();
    }
  }
}

/** What one call answered, read as far as the caller needed. */
interface Answer {
  text: string;
  usage?: TokenUsage;
  finishReason?: FinishReason;
  stoppedEarly: boolean;
}

/** Reads the stream chunk by chunk until it ends, the caller has what it needs, or the text runs past its cap. */
async function readAnswer({
  stream,
  request,
  handlers,
  spent,
}: {
  stream: ModelStream;
  request: GenerationRequest;
  handlers: StepHandlers;
  spent: { coreMs: number };
}): Promise<Answer> {
  const answer: Answer = { text: '', stoppedEarly: false };
  for (;;) {
    const next = await stream.next();
    if (next.done) break;
    const chunk = next.value;
    const t0 = now();
    answer.text = chunk.text;
    if (chunk.usage) answer.usage = chunk.usage;
    if (chunk.finishReason) answer.finishReason = chunk.finishReason;
    if (!answer.finishReason && pastOutputCap(answer.text, request.maxOutputTokens)) {
      // A server that ignores max_tokens: stop where a backend that honours it would have.
      answer.finishReason = 'max_tokens';
      answer.stoppedEarly = true;
      break;
    }
    const stop = handlers.onText ? handlers.onText(answer.text) === true : false;
    spent.coreMs += now() - t0;
    if (stop && !chunk.finishReason) {
      answer.stoppedEarly = true;
      break; // the rest would only cost decode time
    }
  }
  return answer;
}

/** Counts the step's tokens (the model's own count, else the estimate) into the turn and records the step. */
function recordStep(
  turn: TurnState,
  { built, info, answer, coreMs }: { built: BuiltPrompt; info: ModelStepInput['info']; answer: Answer; coreMs: number },
): TokenUsage {
  const stepUsage: TokenUsage = answer.usage ?? {
    inputTokens: built.promptTokens,
    cachedInputTokens: turn.model.capabilities.prefixCaching ? built.cachedTokens : 0,
    outputTokens: estimateTokens(answer.text),
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
    stoppedEarly: answer.stoppedEarly,
  });
  turn.stepIndex++;
  return stepUsage;
}

/**
 * True once a step's text is well past its output cap (estimated tokens, with slack for servers
 * that count differently): only a backend that ignores the cap gets there.
 */
function pastOutputCap(text: string, capTokens: number | undefined): boolean {
  return capTokens !== undefined && capTokens > 0 && estimateTokens(text) > capTokens * 1.5 + 32;
}
