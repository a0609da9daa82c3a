/** Agent settings with the defaults the seed library established (and where this one is faster). */
import { AgentError } from '../../contract/errors';
import type { AgentLabels, ContextPolicy } from '../prompt/policy';
import { validateToolClock, type ToolClock } from './tool-clock';
import type { ToolApproval } from '../tools';

export type { AgentLabels, ContextPolicy } from '../prompt/policy';

/** Which tools the model may or must use on a turn. Wire forms: "auto", "none", "required", "explicit", {"tool": name}. */
export type ToolChoice = 'auto' | 'none' | 'required' | 'explicit' | { tool: string };

export interface ToolPolicy {
  choice: ToolChoice;
  /** Decide/tool rounds per turn before the reply is forced. */
  maxToolRounds: number;
  /** Tool calls per turn before the reply is forced. */
  maxToolCalls: number;
  /** Only these tools are offered (undefined = all). */
  enabledTools?: string[];
}

export interface RetryPolicy {
  /** Attempts per model step (1 = no retry). */
  maxAttempts: number;
  initialDelayMs: number;
  /** A rate limit asking to wait longer than this is not retried. */
  maxRetryAfterMs: number;
  /** Retry a step the safety filter blocked (as the seed: off; a blocked answer is rarely different the second time). */
  retriesGuardrailViolations: boolean;
}

export interface AgentConfig {
  toolPolicy: ToolPolicy;
  context: ContextPolicy;
  retry: RetryPolicy;
  labels: AgentLabels;
  /**
   * true (default): a decide step may carry the reply itself, streamed as it is written, so
   * small talk costs 1 model call and a one-tool turn 2. false: the seed's separate reply step.
   */
  inlineReplies: boolean;
  /**
   * true (default, with inlineReplies): a reply is written line first, as plain words, with the
   * reply's other keys and side-effect tool calls on lines after it, so the player's first word
   * is the model's first token. false: the reply is a JSON envelope (`{"reply": …}`).
   */
  lineFirst: boolean;
  /**
   * For structured replies: the key whose value is spoken text (an NPC's `line`). Line-first
   * mode writes it first, as plain words; without it a structured reply is written as JSON.
   */
  replyLineField?: string;
  temperature?: number;
  topK?: number;
  seed?: number;
  maxResponseTokens?: number;
  decisionTemperature: number;
  /** Output cap of decide and argument steps (an inline reply must fit in it). */
  decisionMaxTokens: number;
  /**
   * The most time one turn may spend in model steps, retries included (ms; 0 = no cap). A
   * silent or endlessly streaming server then fails the turn after this long, not after three
   * 120 s request timeouts. Tool time (a hand-answered tool waiting for the player) is not counted.
   */
  maxModelTimePerTurnMs: number;
  /** Local tool handlers are abandoned after this long (ms). */
  toolTimeoutMs: number;
  /** How long an external tool waits for the host by default (ms); 0 = forever. */
  externalToolTimeoutMs: number;
  /** What both tool timeouts count (default: wall time); a game passes one that stops while it is paused. */
  toolClock?: ToolClock;
  /** Looks at every model-chosen call before it runs, after the tool's own `approve` (tool-approval.ts). */
  approveToolCall?: ToolApproval;
  repairsInvalidOutput: boolean;
  /** An identical successful call repeated in a turn means "reply". */
  dedupesToolCalls: boolean;
  /** How an earlier structured reply appears in the conversation (default `key: value; …`). */
  structuredReplyRenderer?: (value: unknown) => string;
  /** Passed on every request, for a ModelScheduler in front of the model. */
  priority?: number;
  /** Free-form label for logs and the preview. */
  label?: string;
}

export type AgentConfigInput = Partial<Omit<AgentConfig, 'toolPolicy' | 'context' | 'retry' | 'labels'>> & {
  toolPolicy?: Partial<ToolPolicy>;
  context?: Partial<ContextPolicy>;
  retry?: Partial<RetryPolicy>;
  labels?: Partial<AgentLabels>;
};

export const DEFAULT_TOOL_POLICY: ToolPolicy = { choice: 'auto', maxToolRounds: 4, maxToolCalls: 12 };
export const DEFAULT_CONTEXT_POLICY: ContextPolicy = {
  trimsHistory: true,
  reservedTokens: 256,
  maxToolOutputChars: 1500,
  minimumRecentTurns: 1,
};
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  initialDelayMs: 300,
  maxRetryAfterMs: 5000,
  retriesGuardrailViolations: false,
};

const DEFAULT_CONFIG: AgentConfig = {
  toolPolicy: DEFAULT_TOOL_POLICY,
  context: DEFAULT_CONTEXT_POLICY,
  retry: DEFAULT_RETRY_POLICY,
  labels: { user: 'User', assistant: 'Assistant' },
  inlineReplies: true,
  lineFirst: true,
  decisionTemperature: 0,
  decisionMaxTokens: 256,
  maxModelTimePerTurnMs: 60_000,
  toolTimeoutMs: 60_000,
  externalToolTimeoutMs: 60_000,
  repairsInvalidOutput: true,
  dedupesToolCalls: true,
};

/**
 * The settings `input` gives, over `base` (the defaults when there is none). A key `input`
 * leaves out keeps its base value; a key given as `undefined` goes back to its default (an
 * optional setting such as `temperature` is unset), so settings can be taken back.
 */
export function resolveConfig(input: AgentConfigInput = {}, base?: AgentConfig): AgentConfig {
  const baseConfig = base ?? DEFAULT_CONFIG;
  const config = overlay(
    baseConfig as unknown as Record<string, unknown>,
    input as Record<string, unknown>,
    DEFAULT_CONFIG as unknown as Record<string, unknown>,
  ) as unknown as AgentConfig;
  config.toolPolicy = overlay(
    baseConfig.toolPolicy,
    input.toolPolicy,
    DEFAULT_TOOL_POLICY,
  ) as AgentConfig['toolPolicy'];
  config.context = overlay(baseConfig.context, input.context, DEFAULT_CONTEXT_POLICY) as AgentConfig['context'];
  config.retry = overlay(baseConfig.retry, input.retry, DEFAULT_RETRY_POLICY) as AgentConfig['retry'];
  config.labels = overlay(baseConfig.labels, input.labels, DEFAULT_CONFIG.labels) as AgentConfig['labels'];
  validateConfig(config);
  return config;
}

/** `base` with the keys of `input` applied; an `undefined` value restores `defaults`' value, or removes the key. */
function overlay<T extends object>(base: T, input: Partial<T> | undefined, defaults: T): T {
  const out = { ...base } as Record<string, unknown>;
  if (!input) return out as T;
  const given = input as Record<string, unknown>;
  const fallback = defaults as unknown as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (given[key] !== undefined) out[key] = given[key];
    else if (fallback[key] !== undefined) out[key] = fallback[key];
    else delete out[key];
  }
  return out as T;
}

export function validateToolChoice(choice: unknown): ToolChoice {
  if (choice === 'auto' || choice === 'none' || choice === 'required' || choice === 'explicit') return choice;
  if (typeof choice === 'object' && choice !== null && typeof (choice as { tool?: unknown }).tool === 'string') {
    return { tool: (choice as { tool: string }).tool };
  }
  throw new AgentError(
    'invalid_request',
    `toolChoice must be "auto", "none", "required", "explicit" or {tool: name}; got ${JSON.stringify(choice)}.`,
  );
}

/** Reads the wire forms, including OpenAI's {"type":"function","function":{"name"}}, {"name"} and "any". */
export function parseToolChoice(value: unknown): ToolChoice {
  if (value === 'any') return 'required';
  if (typeof value === 'object' && value !== null) {
    const named = value as { tool?: unknown; name?: unknown; function?: { name?: unknown } };
    if (typeof named.tool === 'string') return { tool: named.tool };
    if (named.function && typeof named.function.name === 'string') return { tool: named.function.name };
    if (typeof named.name === 'string') return { tool: named.name };
  }
  return validateToolChoice(value);
}

function nonNegativeInt(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0)
    throw new AgentError('invalid_request', `${name} must be a whole number ≥ 0; got ${value}.`);
}

export function validateConfig(config: AgentConfig): void {
  validateToolChoice(config.toolPolicy.choice);
  if (typeof config.lineFirst !== 'boolean')
    throw new AgentError('invalid_request', 'lineFirst must be true or false.');
  if (config.replyLineField !== undefined && (typeof config.replyLineField !== 'string' || !config.replyLineField)) {
    throw new AgentError('invalid_request', 'replyLineField must be the name of a string key of the reply schema.');
  }
  nonNegativeInt('toolPolicy.maxToolRounds', config.toolPolicy.maxToolRounds);
  nonNegativeInt('toolPolicy.maxToolCalls', config.toolPolicy.maxToolCalls);
  nonNegativeInt('context.reservedTokens', config.context.reservedTokens);
  nonNegativeInt('context.minimumRecentTurns', config.context.minimumRecentTurns);
  if (typeof config.retry.retriesGuardrailViolations !== 'boolean')
    throw new AgentError('invalid_request', 'retry.retriesGuardrailViolations must be true or false.');
  if (!(config.context.maxToolOutputChars >= 50))
    throw new AgentError('invalid_request', 'context.maxToolOutputChars must be at least 50.');
  if (config.context.maxInputTokens !== undefined && !(config.context.maxInputTokens >= 256)) {
    throw new AgentError('invalid_request', 'context.maxInputTokens must be at least 256.');
  }
  if (!(config.retry.maxAttempts >= 1))
    throw new AgentError('invalid_request', 'retry.maxAttempts must be at least 1.');
  if (!(config.retry.initialDelayMs >= 0)) throw new AgentError('invalid_request', 'retry.initialDelayMs must be ≥ 0.');
  if (!(config.retry.maxRetryAfterMs >= 0))
    throw new AgentError('invalid_request', 'retry.maxRetryAfterMs must be ≥ 0.');
  for (const [key, value] of [
    ['temperature', config.temperature],
    ['decisionTemperature', config.decisionTemperature],
  ] as const) {
    if (value !== undefined && !(value >= 0 && value <= 2))
      throw new AgentError('invalid_request', `${key} must be from 0 to 2; got ${value}.`);
  }
  if (config.topK !== undefined && !(Number.isInteger(config.topK) && config.topK >= 1))
    throw new AgentError('invalid_request', `topK must be a whole number ≥ 1; got ${config.topK}.`);
  if (!(config.decisionMaxTokens >= 16))
    throw new AgentError('invalid_request', 'decisionMaxTokens must be at least 16.');
  if (!(config.toolTimeoutMs > 0)) throw new AgentError('invalid_request', 'toolTimeoutMs must be positive.');
  if (!(config.externalToolTimeoutMs >= 0))
    throw new AgentError('invalid_request', 'externalToolTimeoutMs must be 0 (forever) or positive.');
  validateToolClock(config.toolClock);
  if (config.approveToolCall !== undefined && typeof config.approveToolCall !== 'function')
    throw new AgentError('invalid_request', 'approveToolCall must be a function (call, { signal }) => verdict.');
  for (const [key, value] of [
    ['labels.user', config.labels.user],
    ['labels.assistant', config.labels.assistant],
    ...(config.labels.writes !== undefined ? ([['labels.writes', config.labels.writes]] as const) : []),
  ] as const) {
    if (typeof value !== 'string' || !value.trim() || /[\n:]/.test(value)) {
      throw new AgentError(
        'invalid_request',
        `${key} must be a short name without ":" or line breaks; got ${JSON.stringify(value)}.`,
      );
    }
  }
}
