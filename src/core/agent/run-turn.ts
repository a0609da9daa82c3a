/**
 * One turn of an agent, try after try, up to its one commit point. A try works on entries of its
 * own; only an accepted try's entries reach the history, in one step through `TurnHost.commit`,
 * so a failed, rejected or cancelled turn leaves the history and the agent's usage as they were.
 */
import { AgentError } from '../../contract/errors';
import type { LanguageModel, TokenUsage } from '../../contract/language-model';
import { IMAGE_INPUT_TOKENS } from '../../contract/image-input';
import type { TokenCounter } from '../prompt/token-counter';
import type { PrefixCache } from '../prompt/prefix-cache';
import type { TranscriptEntry } from '../transcript';
import type { AgentConfig } from './config';
import type { AgentResponse } from './events';
import type { AgentRun } from './run';
import { TurnEngine } from './turn';
import { TurnState } from './turn-state';
import {
  prepareAttempt,
  type AgentSetup,
  type PreparedAttempt,
  type RunOptions,
  type TurnFailure,
} from './run-options';

/** A queued turn: its run, what it was asked and the setup current when it was asked. */
export interface TurnJob {
  run: AgentRun;
  prompt: string;
  options: RunOptions;
  setup: AgentSetup;
  first: PreparedAttempt;
}

/** The try in progress, whose entries the agent's `transcript` shows before the commit. */
export interface RunningTry {
  run: AgentRun;
  entries: TranscriptEntry[];
}

/** What a turn needs of its agent. */
export interface TurnHost {
  readonly model: LanguageModel;
  readonly counter: TokenCounter;
  readonly prefixes: PrefixCache;
  /** The committed history and context note, read when each try starts. */
  conversation(): { history: TranscriptEntry[]; contextNote: string };
  /** Sets the try in progress, or null once it has ended (failed or committed). */
  setRunning(running: RunningTry | null): void;
  /** The commit point: the try's entries join the history and its usage the agent's total. */
  commit(entries: TranscriptEntry[], usage: TokenUsage): void;
}

/** The settings of a turn with pictures: their tokens come out of the prompt's budget. */
function withImageTokens(config: AgentConfig, count: number): AgentConfig {
  const reservedTokens = config.context.reservedTokens + count * IMAGE_INPUT_TOKENS;
  return { ...config, context: { ...config.context, reservedTokens } };
}

/**
 * Runs the turn: the first try that is accepted is committed to the history; when none is and
 * there is a fallback, its answer is given and nothing is kept. Every try shares the turn's
 * counters (one TurnState), so usage and model calls count the failed ones too.
 */
export async function runTurn(host: TurnHost, job: TurnJob): Promise<void> {
  const { run, options, setup } = job;
  if (options.onStart) options.onStart();
  const images = options.images && options.images.length > 0 ? options.images.slice() : undefined;
  const state = new TurnState({
    model: host.model,
    config: images ? withImageTokens(setup.config, images.length) : setup.config,
    signal: run.signal,
    send: (event) => run.emit(event),
    images,
  });
  let attempt = job.first;
  for (let index = 0; ; index++) {
    const entries: TranscriptEntry[] = [];
    host.setRunning({ run, entries });
    let response: AgentResponse;
    try {
      response = await runTry(host, { job, state, attempt, entries });
    } catch (error) {
      host.setRunning(null);
      // A cancel is final: never retried, never covered by a fallback, nothing kept.
      if (run.signal.aborted) throw run.cancelReason();
      const failure: TurnFailure = {
        error: AgentError.from(error),
        attempt: index,
        toolCalls: state.toolCalls.slice(),
      };
      const next = options.retry ? options.retry(failure) : undefined;
      if (next) {
        attempt = prepareAttempt(next, setup);
        state.resetText();
        run.emit({ type: 'attempt', index: index + 1, reason: failure.error });
        continue;
      }
      finishWithFallback(job, state, failure);
      return;
    }
    // The point of no return: from here on the turn is committed and a cancel changes nothing.
    host.commit(entries, response.usage);
    if (options.onCommit) options.onCommit(response);
    run.finish(response);
    return;
  }
}

/** One try: the tool loop on the committed conversation, then the checks before the commit. */
async function runTry(
  host: TurnHost,
  {
    job,
    state,
    attempt,
    entries,
  }: { job: TurnJob; state: TurnState; attempt: PreparedAttempt; entries: TranscriptEntry[] },
): Promise<AgentResponse> {
  const { run, setup } = job;
  const context = typeof attempt.context === 'function' ? attempt.context() : attempt.context;
  const { history, contextNote } = host.conversation();
  const engine = new TurnEngine({
    turn: state,
    setup: {
      instructions: setup.instructions,
      contextNote,
      tools: setup.tools,
      history,
      counter: host.counter,
      prefixes: host.prefixes,
    },
    input: {
      prompt: job.prompt,
      schema: attempt.schema,
      refine: attempt.refine,
      choice: attempt.choice,
      enabledTools: attempt.enabledTools,
      context,
    },
    external: run.external,
    entries,
  });
  const response = await engine.run();
  if (run.signal.aborted) throw run.cancelReason();
  if (attempt.accept) attempt.accept(response);
  return response;
}

/** The last try failed: the fallback's answer finishes the run (kept out of the history), else the error fails it. */
function finishWithFallback(job: TurnJob, state: TurnState, failure: TurnFailure): void {
  const { run, options } = job;
  const substitute = options.fallback ? options.fallback(failure) : undefined;
  if (!substitute) throw failure.error;
  run.emit({ type: 'fallback', reason: failure.error });
  const fallback: AgentResponse = {
    text: substitute.text,
    toolCalls: state.toolCalls.slice(),
    usage: { ...state.usage },
    steps: state.steps.slice(),
    modelCalls: state.modelCalls,
    isFallback: true,
  };
  if (substitute.structured !== undefined) fallback.structured = substitute.structured;
  run.finish(fallback);
}
