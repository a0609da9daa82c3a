/** What a GeminiNanoModel is made with (checked here), and what following a download gives and takes. */
import type { SignalLike } from '../../contract/abort';
import type { StepKind } from '../../contract/language-model';
import { AgentError } from '../../contract/errors';
import type { BridgeTransport } from './bridge-transport';
import { BRIDGE_PROTOCOL_VERSION, type ReadyParams } from './protocol';

export interface GeminiNanoModelOptions {
  transport: BridgeTransport;
  /** Timeout of every plain call (availability, modelInfo, countTokens, warmup). Default 30 s. */
  requestTimeoutMs?: number;
  /** Timeout of the `ready` handshake; a native module missing from the build shows up here. Default 5 s. */
  readyTimeoutMs?: number;
  /** Time allowed until a generation's first chunk (prefill plus queueing). Default 60 s. */
  firstChunkTimeoutMs?: number;
  /** Time allowed between two chunks of a generation. Default 30 s. */
  idleTimeoutMs?: number;
  /** Time allowed between two download progress messages. Default 10 min. */
  downloadIdleTimeoutMs?: number;
  /** Send the stable prompt prefix as ML Kit's cached prefix when the device supports it. Default true. */
  prefixCaching?: boolean;
  /** Input budget to report instead of the device's token limit (at least 256). */
  maxInputTokens?: number;
  /** ML Kit model preference ("fast" = Nano 4 Fast, "full"); default: ML Kit's (full on stable, fast on preview). */
  modelPreference?: 'fast' | 'full';
  /** ML Kit release stage; "preview" needs the AICore Developer Preview. Default: stable. */
  releaseStage?: 'stable' | 'preview';
  /** Request kinds that use ML Kit's thinking mode where the device supports it. Default: none. */
  thinkingFor?: readonly StepKind[];
}

export interface DownloadProgress {
  bytesDownloaded: number;
  totalBytes?: number;
  /** 0…1 when the total is known. */
  fraction?: number;
}

export interface DownloadOptions {
  onProgress?: (progress: DownloadProgress) => void;
  /** Stops waiting (AICore may finish the download anyway). */
  signal?: SignalLike;
}

/** Checks the ML Kit choices and the input budget (invalid_request naming them); the `ready` handshake's parameters. */
export function readyParamsOf(options: GeminiNanoModelOptions): ReadyParams {
  if (options.maxInputTokens !== undefined && !(options.maxInputTokens >= 256)) {
    throw new AgentError('invalid_request', 'maxInputTokens must be at least 256.');
  }
  if (
    options.modelPreference !== undefined &&
    options.modelPreference !== 'fast' &&
    options.modelPreference !== 'full'
  ) {
    throw new AgentError(
      'invalid_request',
      `modelPreference must be "fast" or "full", not ${JSON.stringify(options.modelPreference)}.`,
    );
  }
  if (options.releaseStage !== undefined && options.releaseStage !== 'stable' && options.releaseStage !== 'preview') {
    throw new AgentError(
      'invalid_request',
      `releaseStage must be "stable" or "preview", not ${JSON.stringify(options.releaseStage)}.`,
    );
  }
  const params: ReadyParams = { protocol: BRIDGE_PROTOCOL_VERSION };
  if (options.modelPreference) params.preference = options.modelPreference;
  if (options.releaseStage) params.releaseStage = options.releaseStage;
  return params;
}
