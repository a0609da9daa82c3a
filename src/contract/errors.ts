/**
 * The one error type users see. Every failure carries one of the 12 wire codes shared with
 * the seed library and the native bridge, a message that says what to do, and, for rate
 * limits, how long to wait.
 */
export type AgentErrorCode =
  | 'model_unavailable'
  | 'guardrail_violation'
  | 'refusal'
  | 'context_size_exceeded'
  | 'rate_limited'
  | 'unsupported_language'
  | 'invalid_schema'
  | 'tool_failed'
  | 'cancelled'
  | 'busy'
  | 'invalid_request'
  | 'generation_failed';

/** Wire names in a fixed order, with their JSON-RPC error numbers (−32001 … −32012). */
export const AGENT_ERROR_CODES: readonly AgentErrorCode[] = [
  'model_unavailable',
  'guardrail_violation',
  'refusal',
  'context_size_exceeded',
  'rate_limited',
  'unsupported_language',
  'invalid_schema',
  'tool_failed',
  'cancelled',
  'busy',
  'invalid_request',
  'generation_failed',
];

export function isAgentErrorCode(value: unknown): value is AgentErrorCode {
  return typeof value === 'string' && (AGENT_ERROR_CODES as readonly string[]).indexOf(value) >= 0;
}

/** JSON-RPC error number for a code: model_unavailable → −32001 … generation_failed → −32012. */
export function rpcCodeOf(code: AgentErrorCode): number {
  return -32001 - AGENT_ERROR_CODES.indexOf(code);
}

export function codeOfRpc(rpc: number): AgentErrorCode | undefined {
  const index = -32001 - rpc;
  return index >= 0 && index < AGENT_ERROR_CODES.length ? AGENT_ERROR_CODES[index] : undefined;
}

/** What a player-facing game should do about each code, appended when a message has no hint. */
const HINTS: Record<AgentErrorCode, string> = {
  model_unavailable: 'Check availability() and offer download(), or use another model.',
  guardrail_violation: "The model's safety filter blocked this; rephrase or use a fallback line.",
  refusal: 'The model declined; rephrase or use a fallback line.',
  context_size_exceeded: 'Shorten the instructions, tools or history (compactHistory()).',
  rate_limited: 'Wait for retryAfterMs and try again; keep the app in the foreground.',
  unsupported_language: 'Use a language the on-device model supports.',
  invalid_schema: 'Fix the JSON Schema named in the message.',
  tool_failed: 'Check the tool handler named in the message.',
  cancelled: 'The turn was cancelled; nothing of it was kept.',
  busy: 'The model is busy; try again shortly.',
  invalid_request: 'Fix the argument named in the message.',
  generation_failed: 'Try again; if it persists, simplify the prompt or schema.',
};

/** What an AgentError may carry besides its code and message. */
export interface AgentErrorOptions {
  retryAfterMs?: number;
  nativeCode?: number;
  cause?: unknown;
  unexpected?: boolean;
  details?: AgentErrorDetails;
}

/** `reason` says which case of the code this is; the other keys belong to that reason. */
export interface AgentErrorDetails {
  reason: string;
  [key: string]: unknown;
}

export interface AgentErrorJSON {
  code: AgentErrorCode;
  message: string;
  retryAfterMs?: number;
  nativeCode?: number;
  details?: AgentErrorDetails;
}

/**
 * ML Kit genai-agent's MAX_TURNS_EXCEEDED: a turn needed more steps than the agent's maxTurns.
 * It maps to generation_failed (the request was valid; the model did not finish in budget, as
 * with ML Kit's -106, out of tokens), with `details.reason` 'max_turns_exceeded'.
 */
export const ML_KIT_MAX_TURNS_EXCEEDED = -112;

/** The reason of an error, when it has one (`session_limit`, `max_turns_exceeded`, …). */
export function reasonOf(error: unknown): string | undefined {
  return error instanceof AgentError ? error.details?.reason : undefined;
}

export class AgentError extends Error {
  readonly code: AgentErrorCode;
  /** Milliseconds the caller should wait before retrying, when the backend said so. */
  readonly retryAfterMs?: number;
  /** Raw backend code (ML Kit's GenAiException code, HTTP status…), when there is one. */
  readonly nativeCode?: number;
  readonly cause?: unknown;
  /**
   * True when this wraps something thrown that no backend reported (a TypeError in a model
   * adapter, a throwing hook): a bug, not a model failure, so it is never retried and never
   * hidden behind a fallback line.
   */
  readonly unexpected: boolean = false;
  /**
   * Machine-readable facts about the failure beyond its code, for hosts that branch on them:
   * `reason` names a case one code covers (`session_limit` and `limit` for a full AgentRunner,
   * which the protocol answers as -32022; `max_turns_exceeded` for ML Kit's -112).
   */
  readonly details?: Readonly<AgentErrorDetails>;

  constructor(code: AgentErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message);
    this.name = 'AgentError';
    this.code = code;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.nativeCode !== undefined) this.nativeCode = options.nativeCode;
    if (options.cause !== undefined) this.cause = options.cause;
    if (options.unexpected) this.unexpected = true;
    if (options.details !== undefined) this.details = Object.freeze({ ...options.details });
    Object.setPrototypeOf(this, AgentError.prototype);
  }

  /** A short suggestion of what to do next, for logs and UIs. */
  get hint(): string {
    return HINTS[this.code];
  }

  override toString(): string {
    return `${this.code}: ${this.message}`;
  }

  toJSON(): AgentErrorJSON {
    const out: AgentErrorJSON = { code: this.code, message: this.message };
    if (this.retryAfterMs !== undefined) out.retryAfterMs = this.retryAfterMs;
    if (this.nativeCode !== undefined) out.nativeCode = this.nativeCode;
    if (this.details !== undefined) out.details = { ...this.details };
    return out;
  }

  /**
   * Normalises anything thrown into an AgentError: an AgentError stays as it is, an AbortError
   * is a cancel, anything else is `fallbackCode` marked `unexpected`, with the original as its
   * cause.
   */
  static from(error: unknown, fallbackCode: AgentErrorCode = 'generation_failed'): AgentError {
    if (error instanceof AgentError) return error;
    if (isAbortLike(error)) return new AgentError('cancelled', 'The operation was cancelled.', { cause: error });
    const message = error instanceof Error ? error.message : String(error);
    return new AgentError(fallbackCode, message || 'Unknown error.', { cause: error, unexpected: true });
  }

  static cancelled(what = 'The turn'): AgentError {
    return new AgentError('cancelled', `${what} was cancelled.`);
  }
}

/** Errors a model step passed on from its backend after its own retries (see isFromBackend). */
const fromBackend = new WeakSet<AgentError>();

/** @internal Marks an error as the backend's own, passed on by a model step. */
export function markFromBackend(error: AgentError): AgentError {
  fromBackend.add(error);
  return error;
}

/**
 * Whether the error is the backend's, passed on after the step's retries: trying the same
 * backend again in another format (an NPC's text retry) would only repeat those calls.
 */
export function isFromBackend(error: AgentError): boolean {
  return fromBackend.has(error);
}

function isAbortLike(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
