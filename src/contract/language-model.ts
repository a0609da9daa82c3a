/**
 * The model interface every backend implements: Gemini Nano over the native bridge, the
 * scripted model for tests and editor previews, an OpenAI-compatible server for development,
 * and the scheduler that sits in front of any of them.
 */
import type { SignalLike } from './abort';
import { AgentError } from './errors';
import { estimateTextTokens } from './token-estimate';
import { checkImages, checkImagesAccepted, type ImageAcceptance, type ImageInput } from './image-input';

/** What a model step is for; scripted models and the scheduler look at it. */
export type StepKind = 'decide' | 'toolArguments' | 'respond' | 'structured' | 'summary' | 'text';

/** Suggested values of `GenerationRequest.priority`: higher runs first. A player waiting on a reply beats everything else. */
export const Priority = {
  conversation: 100,
  decision: 50,
  content: 40,
  bark: 10,
  background: 0,
} as const;

export type FinishReason = 'stop' | 'max_tokens' | 'other';

export interface TokenUsage {
  inputTokens: number;
  /** Input tokens served from the device's prefix cache (0 when unknown). */
  cachedInputTokens: number;
  outputTokens: number;
}

export interface GenerationRequest {
  kind: StepKind;
  /** The changing part of the prompt. The full prompt is `promptPrefix + prompt`. */
  prompt: string;
  /** Byte-stable leading part of the prompt (persona, tool catalog, rules): prefix-cacheable. */
  promptPrefix?: string;
  systemInstruction?: string;
  temperature?: number;
  topK?: number;
  seed?: number;
  maxOutputTokens?: number;
  /** Scheduling hint, used by ModelScheduler: higher runs first. Ignored by backends. */
  priority?: number;
  /** Scheduling hint: a request not started by this time (ms since epoch, Date.now()) is dropped as stale. */
  deadline?: number;
  /** Free-form label for logs and previews (the NPC's name, "decision", …). */
  label?: string;
  /** True when this step repeats an invalid answer with a repair note. */
  isRepair?: boolean;
  /**
   * A JSON Schema the whole answer must match. Backends that constrain decoding (Chrome's
   * Prompt API: `responseConstraint`) enforce it; the others ignore it and the core's own
   * checks and repairs apply. The core fills it for steps answered in JSON (content, structured
   * replies without a spoken line, a tool's arguments), never for line-first answers.
   */
  responseSchema?: Record<string, unknown>;
  /**
   * Pictures that go with the prompt (PNG or JPEG as base64), for models whose capabilities say
   * `imageInput`; a backend without it refuses the request with invalid_request before sending.
   */
  images?: ImageInput[];
}

export interface GenerationChunk {
  /** New text since the previous chunk. */
  delta: string;
  /** All text so far. */
  text: string;
  /** Set on the last chunk only. */
  finishReason?: FinishReason;
  /** Usage when the backend reports it (usually on the last chunk). */
  usage?: TokenUsage;
}

export type ModelAvailability =
  | { status: 'available' }
  | { status: 'downloadable' }
  | {
      status: 'downloading';
      bytesDownloaded?: number;
      totalBytes?: number;
      /** 0…1 when known (Chrome reports only this). */ fraction?: number;
    }
  | { status: 'unavailable'; reason: UnavailableReason | string; detail?: string };

export type UnavailableReason =
  | 'device_not_eligible'
  | 'aicore_unavailable'
  | 'needs_system_update'
  | 'not_enough_disk_space'
  | 'model_not_ready'
  | 'unreachable'
  | 'not_native'
  /** Chrome: the runtime has no Prompt API (not Chrome 148+ on the desktop). */
  | 'no_prompt_api'
  /** Chrome: the page may not use the language-model feature (a cross-origin iframe without allow="language-model"). */
  | 'permissions_policy'
  | 'unknown';

export interface ModelCapabilities {
  modelName: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  systemInstructions: boolean;
  /** True when a `promptPrefix` is cached by the backend across calls. */
  prefixCaching: boolean;
  /** Always false for on-device Nano; the core brings its own tool calling. */
  nativeToolCalling: boolean;
  /**
   * True when the model already retries busy / rate_limited itself (a ModelScheduler does,
   * honouring retry-after), so the agent must not retry them again on top: that would multiply
   * the calls spent against the per-app quota.
   */
  retriesTransientErrors?: boolean;
  /** True when `GenerationRequest.images` are sent to the model; absent or false: requests with images are refused. */
  imageInput?: boolean;
  /** How many images one request may carry, when the backend has a limit (Gemini Nano: 1). */
  maxImagesPerRequest?: number;
}

export const DEFAULT_CAPABILITIES: ModelCapabilities = {
  modelName: 'unknown',
  maxInputTokens: 4000,
  maxOutputTokens: 4096,
  systemInstructions: true,
  prefixCaching: false,
  nativeToolCalling: false,
};

export interface LanguageModel {
  readonly capabilities: ModelCapabilities;
  /**
   * Streams the answer. Must stop promptly and throw AgentError('cancelled') when the signal
   * aborts; every other failure is an AgentError with one of the 12 codes.
   */
  generate(request: GenerationRequest, signal?: SignalLike): AsyncIterable<GenerationChunk>;
  availability(): Promise<ModelAvailability>;
  /** Exact token count, or null/undefined when the backend cannot count. */
  countTokens?(text: string): Promise<number | null>;
  /** Loads the model ahead of the first request (optional). */
  prewarm?(systemInstruction?: string, promptPrefix?: string): Promise<void>;
}

/**
 * The request that fills a backend's prefix cache ahead of the first turn: the stable prefix and
 * a one-token answer, at background priority (a player's turn goes first).
 */
export function prefixWarmUpRequest(systemInstruction: string | undefined, promptPrefix: string): GenerationRequest {
  return {
    kind: 'text',
    systemInstruction,
    promptPrefix,
    prompt: 'OK',
    maxOutputTokens: 1,
    label: 'prefix warm-up',
    priority: Priority.background,
  };
}

/**
 * Refuses a request no backend can send, before anything is sent: a backend calls this first,
 * so bad input from a host that builds requests by hand gets the same words on every backend.
 * With the backend's capabilities, images it cannot take are refused too (naming `backend`).
 */
export function checkGenerationRequest(
  request: GenerationRequest,
  capabilities?: ImageAcceptance,
  backend?: string,
): void {
  if (typeof request !== 'object' || request === null || typeof request.prompt !== 'string') {
    throw new AgentError('invalid_request', 'generate() needs a request with a string prompt.');
  }
  if (request.promptPrefix !== undefined && typeof request.promptPrefix !== 'string')
    throw new AgentError('invalid_request', 'promptPrefix must be a string when given.');
  if (request.systemInstruction !== undefined && typeof request.systemInstruction !== 'string')
    throw new AgentError('invalid_request', 'systemInstruction must be a string when given.');
  if (
    request.maxOutputTokens !== undefined &&
    !(Number.isInteger(request.maxOutputTokens) && request.maxOutputTokens > 0)
  ) {
    throw new AgentError(
      'invalid_request',
      `maxOutputTokens must be a positive integer, got ${String(request.maxOutputTokens)}.`,
    );
  }
  const schema = request.responseSchema;
  if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    throw new AgentError(
      'invalid_schema',
      'responseSchema must be a JSON Schema object such as {"type":"object","properties":{…}}.',
    );
  }
  checkImages(request.images, 'images');
  if (capabilities) checkImagesAccepted(request.images, capabilities, backend);
}

/** The runtime's token estimate (token-estimate.ts: calibrated against Gemma 3, erring high). */
export function estimateTokens(text: string): number {
  return estimateTextTokens(text);
}

/** Collects a whole generation into one string (for callers that do not stream). */
export async function generateText(
  model: LanguageModel,
  request: GenerationRequest,
  signal?: SignalLike,
): Promise<{ text: string; finishReason?: FinishReason; usage?: TokenUsage }> {
  let text = '';
  let finishReason: FinishReason | undefined;
  let usage: TokenUsage | undefined;
  for await (const chunk of model.generate(request, signal)) {
    text = chunk.text;
    if (chunk.finishReason) finishReason = chunk.finishReason;
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, finishReason, usage };
}
