/**
 * The JSON-RPC 2.0 messages exchanged with the Kotlin module (native-android/) over one
 * `jsbBridgeWrapper` event. docs/bridge-protocol.md describes them in prose; the fixtures in
 * fixtures/bridge/ are recorded exchanges both sides replay in their tests.
 */
import type { AgentErrorCode } from '../../contract/errors';

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
    const e = msg.error;
    if (!isRecord(e) || typeof e.code !== 'number') return undefined;
    if (id !== null && !isRequestId(id)) return undefined;
    return {
      kind: 'error',
      id,
      error: {
        code: e.code,
        message: typeof e.message === 'string' ? e.message : '',
        data: isRecord(e.data) ? (e.data as Partial<BridgeErrorData>) : undefined,
      },
    };
  }
  if ('result' in msg && isRequestId(id)) return { kind: 'result', id, result: msg.result };
  return undefined;
}

export function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || typeof v === 'number';
}

export function encodeRequest(id: RequestId, method: BridgeMethod, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

export function encodeNotification(method: BridgeMethod, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

export function isAvailabilityResult(v: unknown): v is AvailabilityResult {
  if (!isRecord(v)) return false;
  if (v.status === 'available' || v.status === 'downloadable' || v.status === 'downloading') return true;
  return v.status === 'unavailable' && typeof v.reason === 'string';
}

export function isModelInfoResult(v: unknown): v is ModelInfoResult {
  return (
    isRecord(v) &&
    typeof v.baseModelName === 'string' &&
    typeof v.tokenLimit === 'number' &&
    typeof v.systemInstructions === 'boolean' &&
    typeof v.prefixCaching === 'boolean' &&
    typeof v.thinking === 'boolean'
  );
}

export function isGenerateResult(v: unknown): v is GenerateResult {
  return (
    isRecord(v) &&
    typeof v.text === 'string' &&
    (v.finishReason === 'stop' || v.finishReason === 'max_tokens' || v.finishReason === 'other')
  );
}

export function isGenerateChunk(v: Record<string, unknown>): v is Record<string, unknown> & GenerateChunkParams {
  return isRequestId(v.id) && typeof v.delta === 'string' && typeof v.seq === 'number';
}

export function isDownloadProgress(v: Record<string, unknown>): v is Record<string, unknown> & DownloadProgressParams {
  return (
    isRequestId(v.id) &&
    typeof v.bytesDownloaded === 'number' &&
    (v.totalBytes === undefined || typeof v.totalBytes === 'number')
  );
}

export function isCountTokensResult(v: unknown): v is CountTokensResult {
  return isRecord(v) && typeof v.totalTokens === 'number' && v.totalTokens >= 0;
}
