/**
 * How an OpenAI-compatible server's failures become AgentErrors. llama.cpp, Ollama, LM Studio
 * and OpenAI itself disagree on the error body, so the mapping looks at the HTTP status, the
 * error object's `code`/`type` and, for context overflows, the message text.
 */
import { AgentError, type AgentErrorCode } from '../contract/errors';

/** The `error` object of an OpenAI-style error body (all fields optional in practice). */
export interface ServerErrorObject {
  message?: unknown;
  code?: unknown;
  type?: unknown;
}

/**
 * Retry-After is either delay-seconds or an HTTP date. Returns milliseconds from `nowMs`, or
 * undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(parseFloat(value) * 1000);
  const at = Date.parse(value);
  if (isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Reads `{error: {...}}`, `{error: "text"}` or a bare error object from a body text. */
export function errorObjectOf(bodyText: string): ServerErrorObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return bodyText.trim() ? { message: bodyText.trim().slice(0, 300) } : undefined;
  }
  return errorObjectOfValue(parsed);
}

export function errorObjectOfValue(value: unknown): ServerErrorObject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error === 'string') return { message: error };
  if (typeof error === 'object' && error !== null) return error as ServerErrorObject;
  return undefined;
}

const CONTEXT_PATTERN =
  /context_length_exceeded|context length|context size|exceed_context_size|too many tokens|maximum context/i;

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Maps one server failure. `status` is the HTTP status, or undefined for an error that arrived
 * inside a 200 stream (then a numeric `code`, as llama.cpp sends, stands in for it).
 */
export function agentErrorFromServer(
  where: string,
  error: ServerErrorObject | undefined,
  http: { status?: number; retryAfterMs?: number } = {},
): AgentError {
  const { status, retryAfterMs } = http;
  const message = textOf(error?.message);
  const codeText = textOf(error?.code);
  const typeText = textOf(error?.type);
  const effectiveStatus = status ?? (typeof error?.code === 'number' ? error.code : undefined);
  const detail = message || (effectiveStatus !== undefined ? `HTTP ${effectiveStatus}` : 'unknown error');
  const prefix =
    effectiveStatus !== undefined ? `${where} answered HTTP ${effectiveStatus}: ` : `${where} reported an error: `;

  let code: AgentErrorCode;
  let hint = '';
  if (codeText === 'content_filter' || typeText === 'content_filter') {
    code = 'guardrail_violation';
  } else if (CONTEXT_PATTERN.test(`${codeText} ${typeText} ${message}`)) {
    code = 'context_size_exceeded';
    hint = " Shorten the prompt or raise the server's context size (llama.cpp -c, Ollama num_ctx).";
  } else if (
    effectiveStatus === 429 ||
    (effectiveStatus === undefined && /rate_limit/i.test(`${codeText} ${typeText}`))
  ) {
    code = 'rate_limited';
  } else if (effectiveStatus === 503) {
    code = 'busy';
  } else if (effectiveStatus === 401 || effectiveStatus === 403 || effectiveStatus === 404) {
    code = 'model_unavailable';
    hint = ' Check the model name, the base URL (it usually ends in /v1) and the API key.';
  } else if (effectiveStatus !== undefined && effectiveStatus >= 400 && effectiveStatus < 500) {
    code = 'invalid_request';
  } else {
    code = 'generation_failed';
  }

  const options: { retryAfterMs?: number; nativeCode?: number } = {};
  if (retryAfterMs !== undefined && (code === 'rate_limited' || code === 'busy')) options.retryAfterMs = retryAfterMs;
  if (effectiveStatus !== undefined) options.nativeCode = effectiveStatus;
  return new AgentError(code, prefix + detail + hint, options);
}
