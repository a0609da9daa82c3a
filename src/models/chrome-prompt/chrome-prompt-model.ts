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
 *   past `maxBaseSessions` (base-sessions.ts);
 * - the prompt is measured against the context window before it is sent, and its answer read
 *   as a stream (prompt-stream.ts);
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
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
} from '../../contract/language-model';
import { NO_API, availabilityFrom } from './availability';
import { BaseSessionPool, stableOf, type BaseEntry, type BaseSpec } from './base-sessions';
import { checkChromeOptions, samplingModeFor, type ChromePromptModelOptions } from './chrome-options';
import { FRAME_HINT, GESTURE_HINT, fromPromptApi, nameOf, type PromptStage } from './errors';
import {
  contextWindowOf,
  destroyQuietly,
  globalPromptApi,
  linkToController,
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
import { measurePrompt, promptOptions, readAnswer, usageOf, watchOverflow, type OverflowWatch } from './prompt-stream';

export { samplingModeFor } from './chrome-options';
export type { ChromePromptModelOptions } from './chrome-options';

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

const DEFAULT_MAX_INPUT = 4000;
/** Room the context window keeps for the answer, which the browser appends to the same session. */
const OUTPUT_RESERVE = 1024;
type ChromeEvents = { downloadProgress: ChromeDownloadProgress; capabilities: ModelCapabilities };

export class ChromePromptModel implements LanguageModel {
  private caps: ModelCapabilities;
  private readonly injected: PromptApi | undefined;
  private readonly languages: string[];
  private readonly maxInputTokens: number | undefined;
  private readonly fixedMode: SamplingMode | undefined;
  private readonly schemaInPrompt: boolean;
  private readonly pool: BaseSessionPool;
  private readonly events: Emitter<ChromeEvents> = mitt<ChromeEvents>();
  private downloadPromise: Promise<void> | undefined;
  private lastProgress: ChromeDownloadProgress | undefined;

  /** True when this runtime exposes the Prompt API at all (it may still say unavailable). */
  static isSupported(): boolean {
    return globalPromptApi() !== undefined;
  }

  constructor(options: ChromePromptModelOptions = {}) {
    checkChromeOptions(options);
    this.injected = options.api;
    this.languages = options.languages ? options.languages.slice() : ['en'];
    this.pool = new BaseSessionPool({
      maxBases: options.maxBaseSessions ?? 4,
      create: (api, spec) => this.createBase(api, spec),
    });
    this.maxInputTokens = options.maxInputTokens;
    this.fixedMode = options.samplingMode;
    this.schemaInPrompt = options.schemaInPrompt !== false;
    this.caps = {
      modelName: 'chrome-built-in',
      maxInputTokens: options.maxInputTokens ?? DEFAULT_MAX_INPUT,
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
    return this.pool.size;
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
    return availabilityFrom(answer, this.downloading());
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
      const entry =
        this.pool.shareNewest() ?? this.pool.acquire(this.requireApi(), { stable: '', mode: this.fixedMode });
      try {
        const session = await entry.ready;
        const measure = measureOf(session);
        return measure ? Math.round(await measure(text)) : null;
      } finally {
        this.pool.release(entry);
      }
    } catch {
      return null;
    }
  }

  /** Creates the base session of this prefix ahead of the first request (the browser prefills it). */
  async prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    const entry = this.pool.acquire(this.requireApi(), {
      stable: stableOf(systemInstruction, promptPrefix),
      mode: this.fixedMode,
    });
    try {
      await entry.ready;
    } finally {
      this.pool.release(entry);
    }
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    checkGenerationRequest(request, this.caps, "Chrome's built-in model");
    throwIfAborted(signal);
    const api = this.requireApi();
    const controller = requireAbortController();
    const unlink = linkToController(signal, controller);
    const constrained = request.responseSchema !== undefined;
    // Which step failed decides the message of a DOMException (errors.ts).
    let stage: PromptStage = 'create';
    let entry: BaseEntry | undefined;
    let session: PromptSession | undefined;
    let overflow: OverflowWatch | undefined;
    let reader: PromptStreamReader | undefined;
    let finished = false;
    try {
      const stable = stableOf(request.systemInstruction, request.promptPrefix);
      const mode = this.fixedMode ?? samplingModeFor(request.temperature);
      const spec: BaseSpec = { stable, mode, images: (request.images ?? []).length > 0 };
      entry = this.pool.acquire(api, spec);
      stage = 'clone';
      session = await this.pool.clone(entry, { api, spec, controller, signal });
      overflow = watchOverflow(session);
      const options = promptOptions(request, { signal: controller.signal, schemaInPrompt: this.schemaInPrompt });

      stage = 'measure';
      const { input, tokens } = await measurePrompt(session, { request, stable, options, signal });

      stage = 'prompt';
      reader = session.promptStreaming(input, options).getReader();
      const answer = yield* readAnswer(reader, { tokens, maxOutputTokens: request.maxOutputTokens });
      throwIfAborted(signal);
      overflow.throwIfOverflowed();
      finished = true;
      yield { delta: '', text: answer.text, finishReason: answer.finishReason, usage: usageOf(tokens, answer.text) };
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      throw fromPromptApi(error, { stage, constrained });
    } finally {
      unlink();
      if (reader && !finished) reader.cancel().catch(() => undefined);
      if (!finished) controller.abort();
      if (session) {
        overflow?.stop();
        destroyQuietly(session);
      }
      if (entry) this.pool.release(entry);
    }
  }

  /** Destroys every base session and stops listening; a later call starts afresh. */
  dispose(): void {
    this.pool.dispose();
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

  /** A new base session for the pool, once the browser says the model is there. */
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

  private learnWindow(session: PromptSession): void {
    const windowSize = contextWindowOf(session);
    if (windowSize === undefined || !isFinite(windowSize)) return;
    const fits = Math.max(256, Math.floor(windowSize - OUTPUT_RESERVE));
    const budget = Math.min(this.maxInputTokens ?? DEFAULT_MAX_INPUT, fits);
    if (budget === this.caps.maxInputTokens) return;
    this.caps = { ...this.caps, maxInputTokens: budget };
    if (!this.pool.disposed) this.events.emit('capabilities', this.caps);
  }
}

/** A real AbortController for the request: the Prompt API takes no other kind of signal. */
function requireAbortController(): AbortControllerLike {
  const controller = newAbortController();
  if (!controller)
    throw new AgentError(
      'model_unavailable',
      'This runtime has no AbortController, so it cannot be a browser with the Prompt API.',
    );
  return controller;
}
