/**
 * One request's prompt on its cloned session: the options it is sent with, what it takes of
 * the context window (measured by the browser before anything is generated, so a prompt that
 * cannot fit fails at once), and its answer read chunk by chunk. The caller owns the session
 * and the reader, and cleans both up however the request ends.
 */
import { AgentError } from '../../contract/errors';
import { raceSignal, type SignalLike } from '../../contract/abort';
import { IMAGE_INPUT_TOKENS } from '../../contract/image-input';
import {
  estimateTokens,
  type FinishReason,
  type GenerationChunk,
  type GenerationRequest,
  type TokenUsage,
} from '../../contract/language-model';
import { promptInput } from './image-parts';
import {
  contextUsageOf,
  contextWindowOf,
  measureOf,
  type DomAbortSignal,
  type PromptInput,
  type PromptOptions,
  type PromptSession,
  type PromptStreamReader,
} from './prompt-api';

/** What the prompt takes of the context window: the prefix the clone already holds, and the prompt. */
export interface PromptTokens {
  prefix: number;
  prompt: number;
}

export interface MeasureContext {
  request: GenerationRequest;
  /** The base session's system message, estimated when the browser does not report its usage. */
  stable: string;
  options: PromptOptions;
  signal: SignalLike | undefined;
}

/** The answer once the reading stopped: all its text, and why it stopped. */
export interface ReadAnswer {
  text: string;
  finishReason: FinishReason;
}

/** Notes whether the browser dropped part of a session's context to make room. */
export interface OverflowWatch {
  /** Throws context_size_exceeded when it did: the answer was written without the whole prompt. */
  throwIfOverflowed(): void;
  stop(): void;
}

/** The prompt's options: the request's abort, and its schema as the browser's response constraint. */
export function promptOptions(
  request: GenerationRequest,
  ctx: { signal: DomAbortSignal; schemaInPrompt: boolean },
): PromptOptions & { signal: DomAbortSignal } {
  const options: PromptOptions & { signal: DomAbortSignal } = { signal: ctx.signal };
  if (request.responseSchema) {
    options.responseConstraint = request.responseSchema;
    if (!ctx.schemaInPrompt) options.omitResponseConstraintInput = true;
  }
  return options;
}

/**
 * The prompt as the session takes it (text, or a message of text and images) and the tokens it
 * needs; throws context_size_exceeded when prefix and prompt do not fit the session's window.
 */
export async function measurePrompt(
  session: PromptSession,
  ctx: MeasureContext,
): Promise<{ input: PromptInput; tokens: PromptTokens }> {
  const { request, signal } = ctx;
  const images = request.images ?? [];
  const prefix = contextUsageOf(session) ?? estimateTokens(ctx.stable);
  const measure = measureOf(session);
  const input = promptInput(request.prompt, images);
  const prompt = measure
    ? await raceSignal(measure(input, ctx.options), signal)
    : estimateTokens(request.prompt) + images.length * IMAGE_INPUT_TOKENS;
  const windowSize = contextWindowOf(session);
  if (windowSize !== undefined && isFinite(windowSize) && prefix + prompt > windowSize) {
    throw new AgentError(
      'context_size_exceeded',
      `The prompt needs ${Math.round(prefix + prompt)} tokens of Chrome's context window of ${windowSize}. Shorten the instructions, tools or history (compactHistory()).`,
    );
  }
  return { input, tokens: { prefix, prompt } };
}

/** Yields each new piece of the answer with the text so far; returns once the stream ends or the output limit is reached. */
export async function* readAnswer(
  reader: PromptStreamReader,
  ctx: { tokens: PromptTokens; maxOutputTokens: number | undefined },
): AsyncGenerator<GenerationChunk, ReadAnswer, undefined> {
  let text = '';
  let finishReason: FinishReason = 'stop';
  for (;;) {
    const read = await reader.read();
    if (read.done) break;
    // The spec's chunks are new text only (Chrome's early cumulative chunks predate web-page access).
    const delta = typeof read.value === 'string' ? read.value : '';
    if (!delta) continue;
    text += delta;
    // Usage on every chunk: the core stops reading once a JSON answer closes and keeps the last usage it saw.
    yield { delta, text, usage: usageOf(ctx.tokens, text) };
    if (ctx.maxOutputTokens !== undefined && estimateTokens(text) >= ctx.maxOutputTokens) {
      finishReason = 'max_tokens'; // the Prompt API has no output limit: stop reading instead
      break;
    }
  }
  return { text, finishReason };
}

/** Input from the browser's measure (the prefix served by the clone); output estimated: the API does not count it. */
export function usageOf(tokens: PromptTokens, text: string): TokenUsage {
  return {
    inputTokens: Math.round(tokens.prefix + tokens.prompt),
    cachedInputTokens: Math.round(tokens.prefix),
    outputTokens: estimateTokens(text),
  };
}

/** Listens for contextoverflow (quotaoverflow in older Chromes) until stopped. */
export function watchOverflow(session: PromptSession): OverflowWatch {
  let overflowed = false;
  const onOverflow = () => {
    overflowed = true;
  };
  session.addEventListener('contextoverflow', onOverflow);
  session.addEventListener('quotaoverflow', onOverflow);
  return {
    throwIfOverflowed() {
      if (!overflowed) return;
      throw new AgentError(
        'context_size_exceeded',
        'Chrome dropped part of the prompt to fit its context window (contextoverflow). Shorten the instructions, tools or history (compactHistory()).',
      );
    },
    stop() {
      session.removeEventListener('contextoverflow', onOverflow);
      session.removeEventListener('quotaoverflow', onOverflow);
    },
  };
}
