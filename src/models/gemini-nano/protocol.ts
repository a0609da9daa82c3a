/**
 * The JSON-RPC 2.0 messages exchanged with the Kotlin module (native-android/) over one
 * `jsbBridgeWrapper` event. docs/bridge-protocol.md describes them in prose; the fixtures in
 * fixtures/bridge/ are recorded exchanges both sides replay in their tests.
 */
import type { AgentErrorCode } from '../../contract/errors';
import type { ImageInput } from '../../contract/image-input';

/** The one jsbBridgeWrapper event name used in both directions (JS→native and native→JS). */
export const BRIDGE_EVENT = 'oam-cocos';
/** Bumped when a message changes shape incompatibly; sent in `ready`. */
export const BRIDGE_PROTOCOL_VERSION = 1;

/**
 * A request id. JS sends strings unique to one BridgeClient ("<client>-<n>"), so two clients on
 * one event never take each other's answers; native echoes any string or number unchanged.
 */
export type RequestId = string | number;

export type BridgeMethod =
  'ready' | 'availability' | 'download' | 'modelInfo' | 'generate' | 'countTokens' | 'warmup' | 'cancel' | 'detach';

export interface ReadyParams {
  protocol: number;
  /** ML Kit ModelPreference; absent = ML Kit's default (FULL on stable, FAST on preview). */
  preference?: 'fast' | 'full';
  /** ML Kit ModelReleaseStage; absent = stable. */
  releaseStage?: 'stable' | 'preview';
}
export interface ReadyResult {
  protocol: number;
  platform?: string;
}

export type AvailabilityResult =
  | { status: 'available' }
  | { status: 'downloadable' }
  | { status: 'downloading' }
  | { status: 'unavailable'; reason: string; mlkitCode?: number };

export interface DownloadProgressParams {
  id: RequestId;
  bytesDownloaded: number;
  totalBytes?: number;
}

export interface ModelInfoResult {
  baseModelName: string;
  tokenLimit: number;
  systemInstructions: boolean;
  prefixCaching: boolean;
  thinking: boolean;
  /** True when this native module sends images to ML Kit (`ImagePart`); absent from modules older than image input. */
  imageInput?: boolean;
}

/** An image on the wire: the encoded file as base64; Kotlin decodes it with BitmapFactory into ML Kit's ImagePart. */
export interface WireImage {
  data: string;
  mimeType: string;
  width?: number;
  height?: number;
}

export interface GenerateParams {
  systemInstruction?: string;
  promptPrefix?: string;
  prompt: string;
  temperature?: number;
  topK?: number;
  seed?: number;
  maxOutputTokens?: number;
  /** ML Kit thinking mode; sent only where modelInfo.thinking is true. */
  thinking?: boolean;
  /** At most one (ML Kit takes a single image per request); never with `promptPrefix`. */
  images?: WireImage[];
}

/** The request's images as the bridge sends them (the label stays on this side). */
export function wireImages(images: readonly ImageInput[]): WireImage[] {
  return images.map((image) => {
    const wire: WireImage = { data: image.data, mimeType: image.mimeType };
    if (image.width !== undefined) wire.width = image.width;
    if (image.height !== undefined) wire.height = image.height;
    return wire;
  });
}

export interface GenerateChunkParams {
  id: RequestId;
  delta: string;
  seq: number;
}
export interface GenerateResult {
  text: string;
  finishReason: 'stop' | 'max_tokens' | 'other';
}

export interface CountTokensParams {
  text: string;
}
export interface CountTokensResult {
  totalTokens: number;
}

export interface CancelParams {
  id: RequestId;
}

export interface BridgeErrorData {
  code: AgentErrorCode;
  mlkitCode?: number;
  retryAfterMs?: number;
  detail?: string;
}

export interface BridgeErrorObject {
  code: number;
  message: string;
  data?: Partial<BridgeErrorData>;
}

export type IncomingMessage =
  | { kind: 'result'; id: RequestId; result: unknown }
  | { kind: 'error'; id: RequestId | null; error: BridgeErrorObject }
  | { kind: 'notification'; method: string; params: Record<string, unknown> };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one native→JS message. Returns undefined for anything that is not a JSON-RPC 2.0
 * response or notification this side understands (malformed JSON, batches, requests).
 */
export function parseIncoming(raw: unknown): IncomingMessage | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return undefined;
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(msg) || msg.jsonrpc !== '2.0') return undefined;
  if (typeof msg.method === 'string') {
    if (msg.id !== undefined) return undefined; // native never sends requests
    return { kind: 'notification', method: msg.method, params: isRecord(msg.params) ? msg.params : {} };
  }
  const id = msg.id;
  if ('error' in msg) {
    const wireError = msg.error;
    if (!isRecord(wireError) || typeof wireError.code !== 'number') return undefined;
    if (id !== null && !isRequestId(id)) return undefined;
    return {
      kind: 'error',
      id,
      error: {
        code: wireError.code,
        message: typeof wireError.message === 'string' ? wireError.message : '',
        data: isRecord(wireError.data) ? (wireError.data as Partial<BridgeErrorData>) : undefined,
      },
    };
  }
  if ('result' in msg && isRequestId(id)) return { kind: 'result', id, result: msg.result };
  return undefined;
}

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}

export function encodeRequest(id: RequestId, method: BridgeMethod, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

export function encodeNotification(method: BridgeMethod, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

export function isAvailabilityResult(value: unknown): value is AvailabilityResult {
  if (!isRecord(value)) return false;
  if (value.status === 'available' || value.status === 'downloadable' || value.status === 'downloading') return true;
  return value.status === 'unavailable' && typeof value.reason === 'string';
}

export function isModelInfoResult(value: unknown): value is ModelInfoResult {
  return (
    isRecord(value) &&
    typeof value.baseModelName === 'string' &&
    typeof value.tokenLimit === 'number' &&
    typeof value.systemInstructions === 'boolean' &&
    typeof value.prefixCaching === 'boolean' &&
    typeof value.thinking === 'boolean' &&
    (value.imageInput === undefined || typeof value.imageInput === 'boolean')
  );
}

export function isGenerateResult(value: unknown): value is GenerateResult {
  return (
    isRecord(value) &&
    typeof value.text === 'string' &&
    (value.finishReason === 'stop' || value.finishReason === 'max_tokens' || value.finishReason === 'other')
  );
}

export function isGenerateChunk(
  value: Record<string, unknown>,
): value is Record<string, unknown> & GenerateChunkParams {
  return isRequestId(value.id) && typeof value.delta === 'string' && typeof value.seq === 'number';
}

export function isDownloadProgress(
  value: Record<string, unknown>,
): value is Record<string, unknown> & DownloadProgressParams {
  return (
    isRequestId(value.id) &&
    typeof value.bytesDownloaded === 'number' &&
    (value.totalBytes === undefined || typeof value.totalBytes === 'number')
  );
}

export function isCountTokensResult(value: unknown): value is CountTokensResult {
  return isRecord(value) && typeof value.totalTokens === 'number' && value.totalTokens >= 0;
}
