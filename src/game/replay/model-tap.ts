/**
 * Hears every generation of one model object: the request as sent, the raw text as it streamed,
 * the usage and the timings. A recorder taps the model an NPC already holds (a component's NPC
 * is built inside the component), so nothing about how the NPC was made has to change. The
 * stream is passed through untouched, chunk by chunk; a listener that throws is ignored.
 * Several taps on one object share one wrapper; untapping the last one restores the object.
 */
import { AgentError } from '../../contract/errors';
import type { SignalLike } from '../../contract/abort';
import type { GenerationChunk, GenerationRequest, LanguageModel, TokenUsage } from '../../contract/language-model';

export interface TappedGeneration {
  request: GenerationRequest;
  /** The raw text that came back (as far as it came, on an error). */
  output: string;
  error?: AgentError;
  usage?: TokenUsage;
  firstChunkMs?: number;
  ms: number;
}

export type TapListener = (generation: TappedGeneration) => void;

const TAPS = '__oamReplayTaps';

interface Tapped {
  [TAPS]?: { listeners: TapListener[]; original: LanguageModel['generate'] };
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function tell(listeners: readonly TapListener[], generation: TappedGeneration): void {
  for (const listener of listeners.slice()) {
    try {
      listener(generation);
    } catch {
      // A recorder must never break the game's turn.
    }
  }
}

async function* heard(
  source: AsyncIterable<GenerationChunk>,
  request: GenerationRequest,
  listeners: readonly TapListener[],
): AsyncGenerator<GenerationChunk> {
  const started = now();
  let output = '';
  let usage: TokenUsage | undefined;
  let firstChunkMs: number | undefined;
  try {
    for await (const chunk of source) {
      if (firstChunkMs === undefined) firstChunkMs = now() - started;
      output = chunk.text;
      if (chunk.usage) usage = chunk.usage;
      yield chunk;
    }
  } catch (error) {
    tell(listeners, { request, output, error: AgentError.from(error), usage, firstChunkMs, ms: now() - started });
    throw error;
  }
  tell(listeners, { request, output, usage, firstChunkMs, ms: now() - started });
}

/** Starts hearing `model`'s generations; returns the function that stops. */
export function tapModel(model: LanguageModel, listener: TapListener): () => void {
  const target = model as LanguageModel & Tapped;
  let taps = target[TAPS];
  if (!taps) {
    const original = target.generate;
    const state = { listeners: [] as TapListener[], original };
    taps = state;
    Object.defineProperty(target, TAPS, { value: taps, configurable: true, enumerable: false });
    target.generate = function tappedGenerate(request: GenerationRequest, signal?: SignalLike) {
      const copy: GenerationRequest = { ...request };
      return heard(original.call(this, request, signal), copy, state.listeners);
    };
  }
  taps.listeners.push(listener);
  let done = false;
  return () => {
    const current = target[TAPS];
    if (done || !current) return;
    done = true;
    const index = current.listeners.indexOf(listener);
    if (index >= 0) current.listeners.splice(index, 1);
    if (current.listeners.length > 0) return;
    // The last tap: the object gets its own generate back (the prototype's, when it had none of its own).
    delete (target as Partial<LanguageModel>).generate;
    if (target.generate !== current.original) target.generate = current.original;
    delete target[TAPS];
  };
}
