/**
 * What one running turn keeps while it works, across all its attempts: events out, counters, every
 * tool call, the reply text shown so far. The one place a turn's usage and model calls are counted.
 */
import type { LanguageModel, TokenUsage } from '../../contract/language-model';
import type { ImageInput } from '../../contract/image-input';
import { abortError, type SignalLike } from '../../contract/abort';
import type { AgentConfig } from './config';
import type { AgentEvent, StepRecord, ToolRecord } from './events';

export class TurnState {
  readonly steps: StepRecord[] = [];
  /** Every tool call of the turn, across its attempts. */
  readonly toolCalls: ToolRecord[] = [];
  readonly usage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  modelCalls = 0;
  stepIndex = 0;
  /** Milliseconds this turn has spent in model steps (retries' waits included), for maxModelTimePerTurnMs. */
  modelMs = 0;
  /** The reply text the caller has been shown (sum of text deltas since the last reset). */
  shownText = '';
  private textEvents = 0;

  readonly model: LanguageModel;
  readonly config: AgentConfig;
  readonly signal: SignalLike;
  /** The turn's pictures, sent with each of its model calls. */
  readonly images: readonly ImageInput[] | undefined;
  private readonly send: (event: AgentEvent) => void;

  constructor(input: {
    model: LanguageModel;
    config: AgentConfig;
    signal: SignalLike;
    /** Where the turn's events go (the run's stream). */
    send: (event: AgentEvent) => void;
    images?: readonly ImageInput[];
  }) {
    this.model = input.model;
    this.config = input.config;
    this.signal = input.signal;
    this.send = input.send;
    this.images = input.images;
  }

  /** Sends an event of this turn; once the turn is cancelled nothing more is sent (no step, no tool start). */
  emit(event: AgentEvent): void {
    if (!this.signal.aborted) this.send(event);
  }

  /** Throws the cancel when the turn was cancelled (a listener of the last event may have done it). */
  throwIfCancelled(): void {
    if (this.signal.aborted) throw abortError(this.signal);
  }

  /** Shows `text` as the reply so far: a delta when it extends what was shown, else a reset. */
  showText(text: string): void {
    if (text === this.shownText) return;
    if (text.startsWith(this.shownText)) {
      const delta = text.slice(this.shownText.length);
      this.shownText = text;
      this.textEvents++;
      this.emit({ type: 'text', delta, text, isReset: false });
    } else {
      this.shownText = text;
      this.textEvents++;
      this.emit({ type: 'text', delta: text, text, isReset: true });
    }
  }

  /** Called before a retry or a new reply attempt: anything shown so far is withdrawn. */
  resetText(): void {
    if (this.textEvents === 0 || this.shownText === '') return;
    this.shownText = '';
    this.emit({ type: 'text', delta: '', text: '', isReset: true });
  }
}
