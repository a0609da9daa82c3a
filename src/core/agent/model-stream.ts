/**
 * The answer stream of one model call: its own cancel, linked to the turn's, and the turn's
 * model-time cap as a deadline. Each chunk is awaited against the turn's signal too, so a model
 * that ignores its signal can never keep a cancelled turn (and the agent's queue) waiting.
 */
import { AgentError } from '../../contract/errors';
import { Canceller, linkSignal, raceSignal } from '../../contract/abort';
import type { GenerationChunk, GenerationRequest } from '../../contract/language-model';
import type { TurnState } from './turn-state';

/** The error of a turn past its model-time cap (maxModelTimePerTurnMs). */
export function overTimeCap(capMs: number): AgentError {
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

export class ModelStream {
  private readonly canceller = new Canceller();
  private readonly unlink: () => void;
  private readonly iterator: AsyncIterator<GenerationChunk>;
  private readonly deadline: Canceller | undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly timeCap: number;

  /** Calls the model now. */
  constructor(
    private readonly turn: TurnState,
    request: GenerationRequest,
  ) {
    this.unlink = linkSignal(turn.signal, this.canceller);
    this.iterator = turn.model.generate(request, this.canceller.signal)[Symbol.asyncIterator]();
    // The turn's model time left bounds this call: past it, the step is abandoned.
    this.timeCap = turn.config.maxModelTimePerTurnMs;
    const deadline = this.timeCap > 0 ? new Canceller() : undefined;
    this.deadline = deadline;
    this.timer = deadline ? setTimeout(() => deadline.abort(), Math.max(0, this.timeCap - turn.modelMs)) : undefined;
  }

  next(): Promise<IteratorResult<GenerationChunk>> {
    return raceSignal(raceDeadline(this.iterator.next(), this.deadline, this.timeCap), this.turn.signal);
  }

  /** Ends the model's stream (early stop, cancel, failure) without waiting for it. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    Promise.resolve()
      .then(() => this.iterator.return?.())
      .catch(() => undefined);
    this.unlink();
    this.canceller.abort();
  }
}
