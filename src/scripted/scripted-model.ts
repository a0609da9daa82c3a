/**
 * A deterministic model for tests, editor previews and the demo: it plays a script of steps,
 * records every request it receives, and says so clearly when the script runs out.
 */
import { AgentError } from '../contract/errors';
import { abortError, sleep, type SignalLike } from '../contract/abort';
import {
  DEFAULT_CAPABILITIES,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
} from '../contract/language-model';
import { checkImages, checkImagesAccepted } from '../contract/image-input';
import { NativeScriptPlayer, readNativeScript, fillTemplate, type NativeScript } from './native-script';

import type { ScriptStep } from './script-step';

export type { NativeScript, NativeScriptStep, NativeToolCall } from './native-script';
export { Script } from './script-step';
export type { ScriptStep } from './script-step';

export interface ScriptedModelOptions {
  capabilities?: Partial<ModelCapabilities>;
  availability?: ModelAvailability;
  /** Exact token counting for tests of the budget; omitted → countTokens is absent. */
  countTokens?: (text: string) => number | null;
  /** Pause between chunks (ms); 0 yields to other tasks without a timer. */
  chunkDelayMs?: number;
  /** Played when the script is empty, instead of failing. */
  fallback?: ScriptStep | string;
}

export class ScriptedLanguageModel implements LanguageModel {
  readonly capabilities: ModelCapabilities;
  /** Every request received, in order (a copy of what the agent sent). */
  readonly requests: GenerationRequest[] = [];
  private steps: ScriptStep[];
  private played = 0;
  private _availability: ModelAvailability;
  private readonly chunkDelayMs: number;
  private readonly fallback?: ScriptStep;
  /** Plays a native script once the steps given here run out (fromNativeScript). */
  private player?: NativeScriptPlayer;
  countTokens?: (text: string) => Promise<number | null>;

  /**
   * A model that plays a script of the protocol shared with open-apple-models and
   * open-android-models unchanged (`{"type":"scripted","steps":[…],"fallback"?}` or
   * `"scripted"`), so one script plays the same on every platform (see native-script.ts).
   * A bad step is invalid_request naming its index, thrown here, before any model call.
   */
  static fromNativeScript(
    script: NativeScript,
    options: Omit<ScriptedModelOptions, 'fallback'> = {},
  ): ScriptedLanguageModel {
    const { steps, fallback } = readNativeScript(script);
    const model = new ScriptedLanguageModel([], options);
    model.player = new NativeScriptPlayer(steps, fallback);
    return model;
  }

  constructor(steps: Array<ScriptStep | string> = [], options: ScriptedModelOptions = {}) {
    this.steps = steps.map(toStep);
    // Takes images (a script may look at `request.images`) unless the capabilities say otherwise.
    this.capabilities = { ...DEFAULT_CAPABILITIES, modelName: 'scripted', imageInput: true, ...options.capabilities };
    this._availability = options.availability ?? { status: 'available' };
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
    if (options.fallback !== undefined) this.fallback = toStep(options.fallback);
    const counter = options.countTokens;
    if (counter) this.countTokens = (text: string) => Promise.resolve(counter(text));
  }

  /** How many generate() calls were made. */
  get calls(): number {
    return this.requests.length;
  }

  get remaining(): number {
    return this.steps.length + (this.player ? this.player.remaining : 0);
  }

  /** The step kinds received, in order: handy for asserting the exact sequence of steps. */
  get kinds(): string[] {
    return this.requests.map((request) => request.kind);
  }

  append(...steps: Array<ScriptStep | string>): void {
    this.steps.push(...steps.map(toStep));
  }

  setAvailability(availability: ModelAvailability): void {
    this._availability = availability;
  }

  availability(): Promise<ModelAvailability> {
    return Promise.resolve(this._availability);
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk> {
    this.requests.push({ ...request });
    if (signal?.aborted) throw abortError(signal);
    checkImages(request.images, 'images');
    checkImagesAccepted(request.images, this.capabilities, `The scripted model "${this.capabilities.modelName}"`);
    let step = this.steps.shift() ?? this.player?.next(request) ?? this.fallback;
    if (!step) {
      throw new AgentError(
        'invalid_request',
        `ScriptedLanguageModel: the script is exhausted after ${this.played} steps; add a step for request #${this.requests.length} (kind ${request.kind}).`,
      );
    }
    this.played++;
    while (step.type === 'delay' || step.type === 'dynamic') {
      if (step.type === 'delay') {
        await sleep(step.ms, signal);
        step = step.then;
      } else {
        step = toStep(step.compute(request));
      }
    }
    if (step.type === 'hang') {
      await new Promise<never>((_, reject) => {
        if (!signal) return; // without a signal it truly never answers
        signal.addEventListener('abort', () => reject(abortError(signal)));
      });
      return;
    }
    if (step.type === 'fail') {
      if (step.afterText) yield* this.stream({ text: step.afterText, chunks: 2, signal, final: false });
      throw new AgentError(
        step.code,
        step.message ?? `Scripted failure (${step.code}).`,
        step.retryAfterMs !== undefined ? { retryAfterMs: step.retryAfterMs } : {},
      );
    }
    const text = step.type === 'template' ? fillTemplate(step.template, request) : step.text;
    yield* this.stream({ text, chunks: step.chunks ?? 3, signal, final: true });
  }

  private async *stream({
    text,
    chunks,
    signal,
    final,
  }: {
    text: string;
    /** About how many pieces the text streams in. */
    chunks: number;
    signal: SignalLike | undefined;
    /** Whether the last piece ends the answer (finishReason 'stop'); false before a scripted failure. */
    final: boolean;
  }): AsyncGenerator<GenerationChunk> {
    const pieces = splitChunks(text, Math.max(1, chunks));
    let sofar = '';
    for (let index = 0; index < pieces.length; index++) {
      if (this.chunkDelayMs > 0) await sleep(this.chunkDelayMs, signal);
      else await Promise.resolve();
      if (signal?.aborted) throw abortError(signal);
      sofar += pieces[index];
      const last = final && index === pieces.length - 1;
      yield last ? { delta: pieces[index], text: sofar, finishReason: 'stop' } : { delta: pieces[index], text: sofar };
    }
    if (final && pieces.length === 0) yield { delta: '', text: '', finishReason: 'stop' };
  }
}

function toStep(step: ScriptStep | string): ScriptStep {
  return typeof step === 'string' ? { type: 'text', text: step, chunks: 3 } : step;
}

/** Splits into about `count` pieces without cutting a surrogate pair in half. */
export function splitChunks(text: string, count: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / count));
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}
