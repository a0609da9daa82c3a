/**
 * Gemini Nano on Android, reached through the native bridge (native-android/ wraps ML Kit's
 * GenAI Prompt API). The bridge is treated as unreliable: every call has a timeout, every
 * answer is shape-checked, and a missing native module shows up as `model_unavailable`.
 *
 * One game should have ONE GeminiNanoModel (OamRuntime provides it): the native side serves
 * one JS client, and each model's `ready` handshake cancels what another started.
 */
import mitt, { type Emitter } from 'mitt';
import { AgentError } from '../../contract/errors';
import { checkImagesAccepted } from '../../contract/image-input';
import { abortError, raceSignal, throwIfAborted, type SignalLike } from '../../contract/abort';
import {
  checkGenerationRequest,
  prefixWarmUpRequest,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
  type StepKind,
} from '../../contract/language-model';
import type { BridgeTransport } from './bridge-transport';
import { BridgeClient } from './bridge-client';
import { ChunkQueue } from './chunk-queue';
import {
  BRIDGE_PROTOCOL_VERSION,
  encodeNotification,
  isAvailabilityResult,
  isCountTokensResult,
  isDownloadProgress,
  isGenerateChunk,
  isGenerateResult,
  isModelInfoResult,
  type GenerateParams,
  type GenerateResult,
  type ModelInfoResult,
  type ReadyParams,
} from './protocol';
import { BEFORE_DETECTION, capabilitiesFrom, generateParams } from './nano-params';

import {
  readyParamsOf,
  type GeminiNanoModelOptions,
  type DownloadProgress,
  type DownloadOptions,
} from './nano-options';

export type { GeminiNanoModelOptions, DownloadProgress, DownloadOptions } from './nano-options';

type NanoEvents = {
  downloadProgress: DownloadProgress;
  capabilities: ModelCapabilities;
};

const NOT_IN_BUILD = 'The native side did not answer; is the oam-cocos Android module in the build?';

export class GeminiNanoModel implements LanguageModel {
  private caps: ModelCapabilities;
  private info: ModelInfoResult | undefined;
  private readonly client: BridgeClient;
  private readonly events: Emitter<NanoEvents> = mitt<NanoEvents>();
  private readyPromise: Promise<void> | undefined;
  private readonly transport: BridgeTransport;
  private disposed = false;
  private infoPromise: Promise<ModelInfoResult> | undefined;
  private downloadPromise: Promise<void> | undefined;
  private lastProgress: DownloadProgress | undefined;
  private readonly requestTimeoutMs: number;
  private readonly readyTimeoutMs: number;
  private readonly firstChunkTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly downloadIdleTimeoutMs: number;
  private readonly usePrefixCache: boolean;
  private readonly maxInputTokens: number | undefined;
  private readonly readyParams: ReadyParams;
  private readonly thinkingFor: ReadonlySet<StepKind>;

  constructor(options: GeminiNanoModelOptions) {
    if (!options || !options.transport) throw new AgentError('invalid_request', 'GeminiNanoModel needs a transport.');
    this.readyParams = readyParamsOf(options);
    this.thinkingFor = new Set(options.thinkingFor ?? []);
    this.transport = options.transport;
    this.client = new BridgeClient(options.transport);
    this.requestTimeoutMs = positive(options.requestTimeoutMs, 30_000);
    this.readyTimeoutMs = positive(options.readyTimeoutMs, 5_000);
    this.firstChunkTimeoutMs = positive(options.firstChunkTimeoutMs, 60_000);
    this.idleTimeoutMs = positive(options.idleTimeoutMs, 30_000);
    this.downloadIdleTimeoutMs = positive(options.downloadIdleTimeoutMs, 600_000);
    this.usePrefixCache = options.prefixCaching !== false;
    this.maxInputTokens = options.maxInputTokens;
    this.caps = { ...BEFORE_DETECTION, ...(this.maxInputTokens ? { maxInputTokens: this.maxInputTokens } : {}) };
  }

  get capabilities(): ModelCapabilities {
    return this.caps;
  }

  /** What the device reported in `modelInfo`, once known. */
  get modelInfo(): ModelInfoResult | undefined {
    return this.info;
  }

  /** Listens for download progress (a game shows a progress bar); returns the unsubscribe function. */
  onDownloadProgress(listener: (progress: DownloadProgress) => void): () => void {
    this.events.on('downloadProgress', listener);
    return () => this.events.off('downloadProgress', listener);
  }

  /** Listens for capability changes after `modelInfo`; returns the unsubscribe function. */
  onCapabilities(listener: (capabilities: ModelCapabilities) => void): () => void {
    this.events.on('capabilities', listener);
    return () => this.events.off('capabilities', listener);
  }

  /** Handshake with the native side. Resolves once; a failure is retried on the next call. */
  connect(): Promise<void> {
    if (!this.readyPromise) {
      const { result } = this.client.request('ready', this.readyParams, {
        timeoutMs: this.readyTimeoutMs,
        timeoutCode: 'model_unavailable',
        timeoutMessage: NOT_IN_BUILD,
      });
      this.readyPromise = result.then(
        (value) => {
          const protocol = isRecord(value) ? value.protocol : undefined;
          if (protocol !== BRIDGE_PROTOCOL_VERSION) {
            throw new AgentError(
              'model_unavailable',
              `The oam-cocos Android module speaks bridge protocol ${String(protocol)}, this runtime speaks ${BRIDGE_PROTOCOL_VERSION}; rebuild with matching versions.`,
            );
          }
        },
        (error: unknown) => {
          const agentError = AgentError.from(error);
          if (agentError.code === 'model_unavailable' && agentError.message === NOT_IN_BUILD) {
            // No answer at all: the transport may know why (module missing, bridge taken over).
            let cause: string | undefined;
            try {
              cause = this.transport.diagnose?.();
            } catch {
              cause = undefined;
            }
            if (cause) throw new AgentError('model_unavailable', cause, { cause: agentError });
          }
          throw agentError.code === 'model_unavailable'
            ? agentError
            : new AgentError('model_unavailable', `The native side refused the handshake: ${agentError.message}`, {
                cause: agentError,
              });
        },
      );
      this.readyPromise.catch(() => {
        this.readyPromise = undefined;
      });
    }
    return this.readyPromise;
  }

  async availability(): Promise<ModelAvailability> {
    try {
      await this.connect();
    } catch (error) {
      return { status: 'unavailable', reason: 'unreachable', detail: AgentError.from(error).message };
    }
    let value: unknown;
    try {
      value = await this.call('availability', {});
    } catch (error) {
      return { status: 'unavailable', reason: 'unknown', detail: AgentError.from(error).message };
    }
    if (!isAvailabilityResult(value))
      return {
        status: 'unavailable',
        reason: 'unknown',
        detail: 'The native side sent a malformed availability answer.',
      };
    switch (value.status) {
      case 'available':
      case 'downloadable':
        return { status: value.status };
      case 'downloading': {
        const progress = this.lastProgress;
        return progress
          ? {
              status: 'downloading',
              bytesDownloaded: progress.bytesDownloaded,
              ...(progress.totalBytes !== undefined ? { totalBytes: progress.totalBytes } : {}),
            }
          : { status: 'downloading' };
      }
      default:
        return {
          status: 'unavailable',
          reason: value.reason,
          ...(value.mlkitCode !== undefined ? { detail: `ML Kit code ${value.mlkitCode}` } : {}),
        };
    }
  }

  /**
   * Downloads the model (or follows a download AICore already runs). Progress goes to
   * `options.onProgress` and to `onDownloadProgress` listeners. Concurrent calls share one download.
   */
  download(options: DownloadOptions = {}): Promise<void> {
    const { onProgress, signal } = options;
    if (onProgress) this.events.on('downloadProgress', onProgress);
    const detach = () => {
      if (onProgress) this.events.off('downloadProgress', onProgress);
    };
    if (!this.downloadPromise) {
      this.downloadPromise = this.runDownload(signal).finally(() => {
        this.downloadPromise = undefined;
      });
    }
    const shared = this.downloadPromise;
    return raceSignal(shared, signal).finally(detach);
  }

  private async runDownload(signal: SignalLike | undefined): Promise<void> {
    await this.connect();
    const { result } = this.client.request(
      'download',
      {},
      {
        timeoutMs: this.requestTimeoutMs,
        idleTimeoutMs: this.downloadIdleTimeoutMs,
        signal,
        onNotification: (method, params) => {
          if (method !== 'download/progress' || !isDownloadProgress(params)) return;
          const progress: DownloadProgress = { bytesDownloaded: params.bytesDownloaded };
          if (params.totalBytes !== undefined && params.totalBytes > 0) {
            progress.totalBytes = params.totalBytes;
            progress.fraction = Math.min(1, params.bytesDownloaded / params.totalBytes);
          }
          this.lastProgress = progress;
          this.events.emit('downloadProgress', progress);
        },
      },
    );
    try {
      await result;
    } finally {
      this.lastProgress = undefined;
    }
    // A fresh model may bring different features.
    this.infoPromise = undefined;
  }

  /** Asks the device what the model supports and updates `capabilities`. */
  async loadModelInfo(): Promise<ModelInfoResult> {
    if (!this.infoPromise) {
      this.infoPromise = (async () => {
        await this.connect();
        const value = await this.call('modelInfo', {});
        if (!isModelInfoResult(value))
          throw new AgentError('generation_failed', 'The native side sent a malformed modelInfo answer.');
        this.applyInfo(value);
        return value;
      })();
      this.infoPromise.catch(() => {
        this.infoPromise = undefined;
      });
    }
    return this.infoPromise;
  }

  async countTokens(text: string): Promise<number | null> {
    try {
      await this.connect();
      const value = await this.call('countTokens', { text });
      return isCountTokensResult(value) ? value.totalTokens : null;
    } catch {
      return null;
    }
  }

  /**
   * Loads the model, and when given the stable prefix, fills the device's prefix cache with it:
   * ML Kit's `warmup()` takes no prompt, and the cache is filled by the first request that
   * carries a `promptPrefix`, so one 1-token generation with it is sent (one request against the
   * per-app quota, at scene start instead of in front of the first line). Whether ML Kit keeps
   * that entry until the first turn is not verified on a device.
   */
  async prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    await this.connect();
    await this.call('warmup', {});
    const info = await this.loadModelInfo();
    // Nothing to fill on a device (or a set-up) without prefix caching.
    if (!promptPrefix || !(this.usePrefixCache && info.prefixCaching)) return;
    for await (const chunk of this.generate(prefixWarmUpRequest(systemInstruction, promptPrefix))) void chunk;
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncIterable<GenerationChunk> {
    throwIfAborted(signal);
    checkGenerationRequest(request);
    const info = await raceSignal(this.loadModelInfo(), signal);
    // An Android module older than image input says so in modelInfo (no imageInput).
    checkImagesAccepted(request.images, this.caps, 'Gemini Nano');
    const params = this.buildParams(request, info);

    const queue = new ChunkQueue<string>();
    let nextSeq = 0;
    const { id, result } = this.client.request('generate', params, {
      timeoutMs: this.firstChunkTimeoutMs,
      idleTimeoutMs: this.idleTimeoutMs,
      signal,
      onNotification: (method, notification) => {
        if (method !== 'generate/chunk') return;
        if (!isGenerateChunk(notification))
          throw new AgentError('generation_failed', 'The native side sent a malformed chunk.');
        if (notification.seq !== nextSeq)
          throw new AgentError(
            'generation_failed',
            `A streamed chunk was lost on the bridge (expected #${nextSeq}, got #${notification.seq}).`,
          );
        nextSeq++;
        queue.push(notification.delta);
      },
    });
    let final: GenerateResult | undefined;
    result.then(
      (value) => {
        if (!isGenerateResult(value)) {
          queue.fail(new AgentError('generation_failed', 'The native side sent a malformed generate answer.'));
          return;
        }
        final = value;
        queue.end();
      },
      (error: unknown) => queue.fail(AgentError.from(error)),
    );

    let text = '';
    try {
      for (;;) {
        const delta = await queue.next();
        throwIfAborted(signal);
        if (delta === undefined) break;
        if (delta.length === 0) continue;
        text += delta;
        yield { delta, text };
      }
      const done = final as GenerateResult;
      const rest = done.text.startsWith(text) ? done.text.slice(text.length) : '';
      if (rest) text += rest;
      yield { delta: rest, text, finishReason: done.finishReason };
    } finally {
      // The consumer stopped early (break/return or abort): stop the native generation too.
      if (this.client.isPending(id))
        this.client.cancel(id, signal?.aborted ? abortError(signal) : AgentError.cancelled('The generation'));
    }
  }

  /**
   * Stops listening to the bridge and fails every pending call. After a handshake it tells the
   * native side (`detach`), which then cancels what this context started and sends nothing more
   * until a `ready`.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.readyPromise) {
      try {
        this.transport.send(encodeNotification('detach', {}));
      } catch {
        // A native side that cannot be reached has nothing to stop.
      }
    }
    this.client.dispose();
    this.events.all.clear();
  }

  private call(method: 'availability' | 'modelInfo' | 'countTokens' | 'warmup', params: object): Promise<unknown> {
    return this.client.request(method, params, { timeoutMs: this.requestTimeoutMs }).result;
  }

  private applyInfo(info: ModelInfoResult): void {
    this.info = info;
    this.caps = capabilitiesFrom(info, { maxInputTokens: this.maxInputTokens, prefixCaching: this.usePrefixCache });
    this.events.emit('capabilities', this.caps);
  }

  private buildParams(request: GenerationRequest, info: ModelInfoResult): GenerateParams {
    return generateParams(request, info, { prefixCaching: this.usePrefixCache, thinkingFor: this.thinkingFor });
  }
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && value > 0 ? value : fallback;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
