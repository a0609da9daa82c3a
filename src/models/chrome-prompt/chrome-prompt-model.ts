/**
 * Gemini Nano in Chrome: a LanguageModel over the browser's built-in Prompt API (the global
 * `LanguageModel`, web pages since Chrome 148). Nothing here touches the API when the module
 * loads: a runtime without it (Cocos native builds, Safari, Chrome on Android) can import this
 * file and gets `unavailable` from availability() and `model_unavailable` from generate().
 *
 * How the browser plays ML Kit's parts:
 * - the stable prefix (system instruction + promptPrefix) is a base session's `initialPrompts`
 *   (a system message, which the browser never drops on overflow); each request clones the
 *   base, so the browser reuses the prefix it already prefilled, and destroys the clone after;
 * - one base session per distinct prefix and sampling mode, the least recently used destroyed
 *   past `maxBaseSessions`;
 * - `responseSchema` → `responseConstraint`: the browser constrains decoding to the schema;
 * - temperature → `samplingMode` (web pages may not set topK/temperature; seed is not settable);
 * - images → a base session created with `expectedInputs` image (its own, per prefix) and the
 *   prompt as a user message of text and image parts (image-parts.ts).
 */
import mitt, { type Emitter } from 'mitt';
import { AgentError } from '../../contract/errors';
import { abortError, raceSignal, throwIfAborted, type SignalLike } from '../../contract/abort';
import {
  checkGenerationRequest,
  estimateTokens,
  type FinishReason,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
  type TokenUsage,
} from '../../contract/language-model';
import { IMAGE_INPUT_TOKENS } from '../../contract/image-input';
import { promptInput } from './image-parts';
import { FRAME_HINT, GESTURE_HINT, fromPromptApi, nameOf, type PromptStage } from './errors';
import {
  contextUsageOf,
  contextWindowOf,
  globalPromptApi,
  inCrossOriginFrame,
  measureOf,
  newAbortController,
  permissionsPolicyAllows,
  type AbortControllerLike,
  type PromptApi,
  type PromptCoreOptions,
  type PromptMessage,
  type PromptSession,
  type PromptStreamReader,
  type SamplingMode,
} from './prompt-api';

export interface ChromePromptModelOptions {
  /** The Prompt API's global; default `globalThis.LanguageModel`, read at every call (tests pass a stand-in). */
  api?: PromptApi;
  /** Languages of prompts and answers, sent as expectedInputs/expectedOutputs (Chrome 140+: en, es, ja). Default ["en"]. */
  languages?: string[];
  /** How many distinct stable prefixes keep a base session (each holds its prefilled prefix in memory). Default 4. */
  maxBaseSessions?: number;
  /** Input budget the core plans prompts for; default 4000, lowered to fit the browser's context window. */
  maxInputTokens?: number;
  /** One sampling mode for every request instead of the one derived from each request's temperature. */
  samplingMode?: SamplingMode;
  /**
   * Let Chrome add the response schema to the prompt (the spec's default). false sends
   * omitResponseConstraintInput: saves the schema's tokens when the prompt already describes
   * the format, as the core's prompts do. Default true.
   */
  schemaInPrompt?: boolean;
}

export interface ChromeDownloadProgress {
  /** Chrome reports a fraction only (the spec hides the model's size): `loaded` of a total of 1. */
  bytesDownloaded: number;
  totalBytes: number;
  fraction: number;
}

export interface ChromeDownloadOptions {
  onProgress?: (progress: ChromeDownloadProgress) => void;
  /** Stops waiting; Chrome keeps downloading (the spec forbids cancelling it). */
  signal?: SignalLike;
}

const SAMPLING_MODES: readonly SamplingMode[] = [
  'most-predictable',
  'predictable',
  'balanced',
  'creative',
  'most-creative',
];
const DEFAULT_MAX_INPUT = 4000;
/** Room the context window keeps for the answer, which the browser appends to the same session. */
const OUTPUT_RESERVE = 1024;
const NO_API =
  'This runtime has no Prompt API (the global LanguageModel): Chrome 148+ on Windows, macOS, Linux or a Chromebook Plus has it; Cocos native builds, Chrome on Android, Safari and Firefox do not. Use GeminiNanoModel on Android or the stand-in.';

/** What a base session is for: its stable prefix, sampling mode, and whether it takes images. */
interface BaseSpec {
  stable: string;
  mode: SamplingMode | undefined;
  images?: boolean;
}

interface BaseEntry {
  key: string;
  ready: Promise<PromptSession>;
  users: number;
  evicted: boolean;
}

type ChromeEvents = { downloadProgress: ChromeDownloadProgress; capabilities: ModelCapabilities };

/** temperature → the nearest sampling preset; undefined → the browser's default. */
export function samplingModeFor(temperature: number | undefined): SamplingMode | undefined {
  if (temperature === undefined) return undefined;
  if (temperature <= 0.15) return 'most-predictable';
  if (temperature <= 0.45) return 'predictable';
  if (temperature <= 0.9) return 'balanced';
  if (temperature <= 1.3) return 'creative';
  return 'most-creative';
}

export class ChromePromptModel implements LanguageModel {
  private caps: ModelCapabilities;
  private readonly injected: PromptApi | undefined;
  private readonly languages: string[];
  private readonly maxBases: number;
  private readonly maxInputTokens: number | undefined;
  private readonly fixedMode: SamplingMode | undefined;
  private readonly schemaInPrompt: boolean;
  private readonly bases = new Map<string, BaseEntry>();
  private readonly events: Emitter<ChromeEvents> = mitt<ChromeEvents>();
  private downloadPromise: Promise<void> | undefined;
  private lastProgress: ChromeDownloadProgress | undefined;
  private disposed = false;

  /** True when this runtime exposes the Prompt API at all (it may still say unavailable). */
  static isSupported(): boolean {
    return globalPromptApi() !== undefined;
  }

  constructor(options: ChromePromptModelOptions = {}) {
    if (typeof options !== 'object' || options === null)
      throw new AgentError('invalid_request', 'ChromePromptModel options must be an object.');
    const opts = options;
    if (
      opts.api !== undefined &&
      ((typeof opts.api !== 'object' && typeof opts.api !== 'function') ||
        opts.api === null ||
        typeof opts.api.create !== 'function' ||
        typeof opts.api.availability !== 'function')
    ) {
      throw new AgentError(
        'invalid_request',
        "api must be the Prompt API's LanguageModel (with create() and availability()).",
      );
    }
    if (
      opts.languages !== undefined &&
      (!Array.isArray(opts.languages) ||
        opts.languages.length === 0 ||
        opts.languages.some((language) => typeof language !== 'string' || !language.trim()))
    ) {
      throw new AgentError('invalid_request', 'languages must be a non-empty list of language tags such as ["en"].');
    }
    if (opts.maxBaseSessions !== undefined && !(Number.isInteger(opts.maxBaseSessions) && opts.maxBaseSessions >= 1)) {
      throw new AgentError(
        'invalid_request',
        `maxBaseSessions must be a whole number ≥ 1, got ${String(opts.maxBaseSessions)}.`,
      );
    }
    if (opts.maxInputTokens !== undefined && !(typeof opts.maxInputTokens === 'number' && opts.maxInputTokens >= 256)) {
      throw new AgentError(
        'invalid_request',
        `maxInputTokens must be at least 256, got ${String(opts.maxInputTokens)}.`,
      );
    }
    if (opts.samplingMode !== undefined && SAMPLING_MODES.indexOf(opts.samplingMode) < 0) {
      throw new AgentError(
        'invalid_request',
        `samplingMode must be one of ${SAMPLING_MODES.join(', ')}; got ${JSON.stringify(opts.samplingMode)}.`,
      );
    }
    this.injected = opts.api;
    this.languages = opts.languages ? opts.languages.slice() : ['en'];
    this.maxBases = opts.maxBaseSessions ?? 4;
    this.maxInputTokens = opts.maxInputTokens;
    this.fixedMode = opts.samplingMode;
    this.schemaInPrompt = opts.schemaInPrompt !== false;
    this.caps = {
      modelName: 'chrome-built-in',
      maxInputTokens: opts.maxInputTokens ?? DEFAULT_MAX_INPUT,
      maxOutputTokens: OUTPUT_RESERVE,
      systemInstructions: true,
      prefixCaching: true,
      nativeToolCalling: false,
      imageInput: true,
    };
  }

  get capabilities(): ModelCapabilities {
    return this.caps;
  }

  /** Base sessions alive now (one per stable prefix and sampling mode). */
  get baseSessionCount(): number {
    return this.bases.size;
  }

  /** Listens for download progress; returns the unsubscribe function. */
  onDownloadProgress(listener: (progress: ChromeDownloadProgress) => void): () => void {
    this.events.on('downloadProgress', listener);
    return () => this.events.off('downloadProgress', listener);
  }

  /** Listens for capability changes (the budget once the browser's context window is known). */
  onCapabilities(listener: (capabilities: ModelCapabilities) => void): () => void {
    this.events.on('capabilities', listener);
    return () => this.events.off('capabilities', listener);
  }

  async availability(): Promise<ModelAvailability> {
    const api = this.api();
    if (!api) return { status: 'unavailable', reason: 'no_prompt_api', detail: NO_API };
    if (permissionsPolicyAllows() === false)
      return {
        status: 'unavailable',
        reason: 'permissions_policy',
        detail: `The page may not use the language-model feature: ${FRAME_HINT}.`,
      };
    let answer: unknown;
    try {
      answer = await api.availability(this.coreOptions(undefined));
    } catch (error) {
      return { status: 'unavailable', reason: 'unknown', detail: fromPromptApi(error, { stage: 'create' }).message };
    }
    if (this.downloadPromise && answer !== 'available' && answer !== 'unavailable') return this.downloading();
    switch (answer) {
      case 'available':
        return { status: 'available' };
      case 'downloadable':
        return { status: 'downloadable' };
      case 'downloading':
        return this.downloading();
      case 'unavailable':
        if (inCrossOriginFrame())
          return {
            status: 'unavailable',
            reason: 'permissions_policy',
            detail: `Chrome says unavailable; ${FRAME_HINT}, or this machine cannot run the model.`,
          };
        return {
          status: 'unavailable',
          reason: 'device_not_eligible',
          detail:
            "Chrome's built-in model cannot run here: it needs Chrome 148+ on Windows 10/11, macOS 13+, Linux or a Chromebook Plus, 22 GB free disk, and a GPU with more than 4 GB VRAM or 16 GB RAM and 4 cores.",
        };
      default:
        return {
          status: 'unavailable',
          reason: 'unknown',
          detail: `Chrome answered availability() with ${JSON.stringify(answer)}.`,
        };
    }
  }

  /**
   * Downloads Chrome's model (or follows a download already running). Call it from a click,
   * tap or key handler while the model is downloadable: Chrome refuses without a user gesture.
   * Concurrent calls share one download.
   */
  download(options: ChromeDownloadOptions = {}): Promise<void> {
    const { onProgress, signal } = options;
    if (onProgress) this.events.on('downloadProgress', onProgress);
    const detach = () => {
      if (onProgress) this.events.off('downloadProgress', onProgress);
    };
    if (!this.downloadPromise) {
      this.downloadPromise = this.runDownload().finally(() => {
        this.downloadPromise = undefined;
        this.lastProgress = undefined;
      });
    }
    return raceSignal(this.downloadPromise, signal).finally(detach);
  }

  /** Exact count from the browser (measureContextUsage), including its turn markers; null when it cannot count. */
  async countTokens(text: string): Promise<number | null> {
    if (typeof text !== 'string') return null;
    try {
      // Any base session can measure: the count does not depend on what a session holds.
      const entry = this.newest() ?? this.acquireBase(this.requireApi(), { stable: '', mode: this.fixedMode });
      entry.users++;
      try {
        const session = await entry.ready;
        const measure = measureOf(session);
        return measure ? Math.round(await measure(text)) : null;
      } finally {
        this.release(entry);
      }
    } catch {
      return null;
    }
  }

  /** Creates the base session of this prefix ahead of the first request (the browser prefills it). */
  async prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    const entry = this.acquireBase(this.requireApi(), {
      stable: stableOf(systemInstruction, promptPrefix),
      mode: this.fixedMode,
    });
    entry.users++;
    try {
      await entry.ready;
    } finally {
      this.release(entry);
    }
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    checkGenerationRequest(request, this.caps, "Chrome's built-in model");
    throwIfAborted(signal);
    const api = this.requireApi();
    const images = request.images ?? [];
    const controller = newAbortController();
    if (!controller)
      throw new AgentError(
        'model_unavailable',
        'This runtime has no AbortController, so it cannot be a browser with the Prompt API.',
      );
    const unlink = linkToController(signal, controller);
    const constrained = request.responseSchema !== undefined;
    const mode = this.fixedMode ?? samplingModeFor(request.temperature);
    let stage: PromptStage = 'create';
    let entry: BaseEntry | undefined;
    let session: PromptSession | undefined;
    let reader: PromptStreamReader | undefined;
    let finished = false;
    let overflowed = false;
    const onOverflow = () => {
      overflowed = true;
    };
    try {
      const stable = stableOf(request.systemInstruction, request.promptPrefix);
      const spec: BaseSpec = { stable, mode, images: images.length > 0 };
      entry = this.acquireBase(api, spec);
      entry.users++;
      stage = 'clone';
      session = await this.cloneBase(entry, { api, spec, controller, signal });
      session.addEventListener('contextoverflow', onOverflow);
      session.addEventListener('quotaoverflow', onOverflow);
      const options: { signal: object; responseConstraint?: object; omitResponseConstraintInput?: boolean } = {
        signal: controller.signal,
      };
      if (request.responseSchema) {
        options.responseConstraint = request.responseSchema;
        if (!this.schemaInPrompt) options.omitResponseConstraintInput = true;
      }

      stage = 'measure';
      const prefixTokens = contextUsageOf(session) ?? estimateTokens(stable);
      const measure = measureOf(session);
      const input = promptInput(request.prompt, images);
      const promptTokens = measure
        ? await raceSignal(measure(input, options), signal)
        : estimateTokens(request.prompt) + images.length * IMAGE_INPUT_TOKENS;
      const windowSize = contextWindowOf(session);
      if (windowSize !== undefined && isFinite(windowSize) && prefixTokens + promptTokens > windowSize) {
        throw new AgentError(
          'context_size_exceeded',
          `The prompt needs ${Math.round(prefixTokens + promptTokens)} tokens of Chrome's context window of ${windowSize}. Shorten the instructions, tools or history (compactHistory()).`,
        );
      }

      stage = 'prompt';
      reader = session.promptStreaming(input, options).getReader();
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
        yield { delta, text, usage: usageOf(prefixTokens, promptTokens, text) };
        if (request.maxOutputTokens !== undefined && estimateTokens(text) >= request.maxOutputTokens) {
          finishReason = 'max_tokens'; // the Prompt API has no output limit: stop reading instead
          break;
        }
      }
      throwIfAborted(signal);
      if (overflowed) {
        throw new AgentError(
          'context_size_exceeded',
          'Chrome dropped part of the prompt to fit its context window (contextoverflow). Shorten the instructions, tools or history (compactHistory()).',
        );
      }
      finished = true;
      yield {
        delta: '',
        text,
        finishReason,
        usage: usageOf(prefixTokens, promptTokens, text),
      };
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      throw fromPromptApi(error, { stage, constrained });
    } finally {
      unlink();
      if (reader && !finished) reader.cancel().catch(() => undefined);
      if (!finished) controller.abort();
      if (session) {
        session.removeEventListener('contextoverflow', onOverflow);
        session.removeEventListener('quotaoverflow', onOverflow);
        destroyQuietly(session);
      }
      if (entry) this.release(entry);
    }
  }

  /** Destroys every base session and stops listening; a later call starts afresh. */
  dispose(): void {
    this.disposed = true;
    for (const entry of Array.from(this.bases.values())) this.evict(entry);
    this.events.all.clear();
  }

  private api(): PromptApi | undefined {
    return this.injected ?? globalPromptApi();
  }

  private requireApi(): PromptApi {
    const api = this.api();
    if (!api) throw new AgentError('model_unavailable', NO_API);
    return api;
  }

  private coreOptions(mode: SamplingMode | undefined, images = false): PromptCoreOptions {
    const expected: PromptCoreOptions['expectedInputs'] = [{ type: 'text', languages: this.languages.slice() }];
    if (images) expected.push({ type: 'image' });
    const settings: PromptCoreOptions = {
      expectedInputs: expected,
      expectedOutputs: [{ type: 'text', languages: this.languages.slice() }],
    };
    if (mode) settings.samplingMode = mode;
    return settings;
  }

  private downloading(): ModelAvailability {
    const progress = this.lastProgress;
    return progress ? { status: 'downloading', fraction: progress.fraction } : { status: 'downloading' };
  }

  private runDownload(): Promise<void> {
    let pending: Promise<PromptSession>;
    try {
      const api = this.requireApi();
      // create() before any await: Chrome checks the page's user activation when it is called.
      pending = Promise.resolve(
        api.create({
          ...this.coreOptions(this.fixedMode),
          monitor: (monitor) => monitor.addEventListener('downloadprogress', (event) => this.onProgress(event.loaded)),
        }),
      );
    } catch (error) {
      return Promise.reject(fromPromptApi(error, { stage: 'download' }));
    }
    return pending.then(
      (session) => {
        destroyQuietly(session);
      },
      (error: unknown) => {
        const agentError = fromPromptApi(error, { stage: 'download' });
        if (nameOf(error) === 'NotAllowedError')
          throw new AgentError('model_unavailable', `${GESTURE_HINT}. ${agentError.message}`, { cause: error });
        throw agentError;
      },
    );
  }

  private onProgress(loaded: unknown): void {
    const fraction = typeof loaded === 'number' && isFinite(loaded) ? Math.max(0, Math.min(1, loaded)) : 0;
    const progress: ChromeDownloadProgress = { bytesDownloaded: fraction, totalBytes: 1, fraction };
    this.lastProgress = progress;
    this.events.emit('downloadProgress', progress);
  }

  /** The base session of a prefix (created once, shared); the caller counts itself in `users`. */
  private acquireBase(api: PromptApi, base: BaseSpec): BaseEntry {
    this.disposed = false;
    const key = `${base.images ? 'image' : ''}\u0000${base.mode ?? ''}\u0000${base.stable}`;
    const found = this.bases.get(key);
    if (found) {
      this.bases.delete(key); // most recently used last
      this.bases.set(key, found);
      return found;
    }
    const entry: BaseEntry = { key, users: 0, evicted: false, ready: this.createBase(api, base) };
    // A failed creation is not kept: the next request tries again (after a download, say).
    entry.ready.catch(() => {
      if (this.bases.get(key) === entry) this.bases.delete(key);
    });
    this.bases.set(key, entry);
    for (const old of Array.from(this.bases.values())) {
      if (this.bases.size <= this.maxBases) break;
      if (old !== entry) this.evict(old);
    }
    return entry;
  }

  private async createBase(api: PromptApi, base: BaseSpec): Promise<PromptSession> {
    const { stable, mode } = base;
    const core = this.coreOptions(mode, base.images);
    let answer: unknown;
    try {
      answer = await api.availability(core);
    } catch (error) {
      throw fromPromptApi(error, { stage: 'create' });
    }
    // Never start a multi-gigabyte download from a model call: that is download()'s job.
    if (answer === 'downloadable')
      throw new AgentError('model_unavailable', `Chrome's built-in model is not downloaded yet. ${GESTURE_HINT}.`);
    if (answer === 'downloading')
      throw new AgentError(
        'model_unavailable',
        "Chrome's built-in model is still downloading; try again when availability() says available.",
      );
    if (answer === 'unavailable' && base.images && (await this.availability()).status === 'available')
      throw new AgentError(
        'model_unavailable',
        "Chrome's built-in model does not take images here (availability() with an image input said unavailable); send the turn without the image.",
      );
    if (answer !== 'available') {
      const state = await this.availability();
      throw new AgentError(
        'model_unavailable',
        state.status === 'unavailable' && state.detail ? state.detail : `Chrome's built-in model is ${String(answer)}.`,
      );
    }
    const initialPrompts: PromptMessage[] = stable ? [{ role: 'system', content: stable }] : [];
    let session: PromptSession;
    try {
      session = await api.create({ ...core, initialPrompts });
    } catch (error) {
      throw fromPromptApi(error, { stage: 'create' });
    }
    this.learnWindow(session);
    return session;
  }

  /** Clones the base; a base the browser destroyed under us (AbortError) is replaced once. */
  private async cloneBase(
    entry: BaseEntry,
    ctx: {
      api: PromptApi;
      spec: BaseSpec;
      controller: AbortControllerLike;
      signal: SignalLike | undefined;
    },
  ): Promise<PromptSession> {
    const base = await raceSignal(entry.ready, ctx.signal);
    try {
      return await base.clone({ signal: ctx.controller.signal });
    } catch (error) {
      // Only a base the browser destroyed under us is replaced; anything else is this request's failure.
      if (ctx.signal?.aborted || nameOf(error) !== 'AbortError') throw error;
      this.evict(entry);
      const fresh = this.acquireBase(ctx.api, ctx.spec);
      fresh.users++;
      try {
        const again = await raceSignal(fresh.ready, ctx.signal);
        return await again.clone({ signal: ctx.controller.signal });
      } finally {
        this.release(fresh);
      }
    }
  }

  private release(entry: BaseEntry): void {
    entry.users = Math.max(0, entry.users - 1);
    if (entry.evicted && entry.users === 0) entry.ready.then(destroyQuietly, () => undefined);
  }

  private evict(entry: BaseEntry): void {
    if (this.bases.get(entry.key) === entry) this.bases.delete(entry.key);
    if (entry.evicted) return;
    entry.evicted = true;
    if (entry.users === 0) entry.ready.then(destroyQuietly, () => undefined);
  }

  private newest(): BaseEntry | undefined {
    let last: BaseEntry | undefined;
    this.bases.forEach((entry) => {
      last = entry;
    });
    return last;
  }

  private learnWindow(session: PromptSession): void {
    const windowSize = contextWindowOf(session);
    if (windowSize === undefined || !isFinite(windowSize)) return;
    const fits = Math.max(256, Math.floor(windowSize - OUTPUT_RESERVE));
    const budget = Math.min(this.maxInputTokens ?? DEFAULT_MAX_INPUT, fits);
    if (budget === this.caps.maxInputTokens) return;
    this.caps = { ...this.caps, maxInputTokens: budget };
    if (!this.disposed) this.events.emit('capabilities', this.caps);
  }
}

/** Input from the browser's measure (the prefix served by the clone); output estimated: the API does not count it. */
function usageOf(prefixTokens: number, promptTokens: number, text: string): TokenUsage {
  return {
    inputTokens: Math.round(prefixTokens + promptTokens),
    cachedInputTokens: Math.round(prefixTokens),
    outputTokens: estimateTokens(text),
  };
}

/** The system message of a base session: the instruction, then the byte-stable prefix. */
function stableOf(systemInstruction: string | undefined, promptPrefix: string | undefined): string {
  const system = systemInstruction || '';
  const prefix = promptPrefix || '';
  return system && prefix ? `${system}\n\n${prefix}` : system || prefix;
}

/** The core's SignalLike drives a real AbortController, the only kind the Prompt API takes. */
function linkToController(signal: SignalLike | undefined, controller: AbortControllerLike): () => void {
  if (!signal) return () => undefined;
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort);
  return () => signal.removeEventListener('abort', onAbort);
}

function destroyQuietly(session: PromptSession): void {
  try {
    session.destroy();
  } catch {
    // Already destroyed.
  }
}
