/**
 * `session/create` options (reference §3.2, the Android column): tool policy, sampling,
 * limits and labels, read into the agent's settings with the warnings Android gives.
 */
import { parseToolChoice, type AgentConfigInput } from '../core/agent';
import { invalidParams, readingParams } from './errors';
import { ParamReader } from './params';

/** Android caps the output at 4096 tokens and clamps the temperature to 0–1. */
const MAX_RESPONSE_TOKENS = 4096;

export interface SessionOptions {
  config: AgentConfigInput;
  toolTimeoutSeconds: number;
  warnings: string[];
}

export function readSessionOptions(raw: unknown, defaultToolTimeoutSeconds: number): SessionOptions {
  const options = new ParamReader(raw, 'params.options');
  const warnings: string[] = [];
  const toolPolicy: NonNullable<AgentConfigInput['toolPolicy']> = {};
  const context: NonNullable<AgentConfigInput['context']> = {};
  const config: AgentConfigInput = { toolPolicy, context, externalToolTimeoutMs: 0 };
  const choice = options.any('toolChoice');
  if (choice !== undefined) toolPolicy.choice = readingParams(() => parseToolChoice(choice));
  const rounds = options.number('maxToolRounds', { integer: true, min: 0, max: 64 });
  if (rounds !== undefined) toolPolicy.maxToolRounds = rounds;
  const calls = options.number('maxToolCalls', { integer: true, min: 0, max: 256 });
  if (calls !== undefined) toolPolicy.maxToolCalls = calls;
  const enabled = readNames(options, 'enabledTools');
  if (enabled !== undefined) toolPolicy.enabledTools = enabled;
  const temperature = options.number('temperature', { min: 0 });
  if (temperature !== undefined) {
    if (temperature > 1) warnings.push(`params.options.temperature ${temperature} was clamped to 1.`);
    config.temperature = Math.min(1, temperature);
  }
  const maxTokens = options.number('maxResponseTokens', { integer: true, min: 1 });
  if (maxTokens !== undefined) {
    if (maxTokens > MAX_RESPONSE_TOKENS)
      warnings.push(`params.options.maxResponseTokens was capped at ${MAX_RESPONSE_TOKENS}.`);
    config.maxResponseTokens = Math.min(MAX_RESPONSE_TOKENS, maxTokens);
  }
  readSampling(options.any('sampling'), config, warnings);
  const timeout = options.number('toolTimeoutSeconds', { min: 0, max: 86400 });
  const trim = options.boolean('trimHistory');
  if (trim !== undefined) context.trimsHistory = trim;
  const reserved = options.number('reservedResponseTokens', { integer: true, min: 0, max: 4000 });
  if (reserved !== undefined) context.reservedTokens = reserved;
  const attempts = options.number('maxAttempts', { integer: true, min: 1, max: 10 });
  if (attempts !== undefined) config.retry = { maxAttempts: attempts };
  const user = options.string('userLabel');
  const assistant = options.string('assistantLabel');
  if (user !== undefined || assistant !== undefined) {
    config.labels = {};
    if (user !== undefined) config.labels.user = user;
    if (assistant !== undefined) config.labels.assistant = assistant;
  }
  warnings.push(...options.unknownWarnings());
  return { config, toolTimeoutSeconds: timeout ?? defaultToolTimeoutSeconds, warnings };
}

export function readNames(reader: ParamReader, name: string): string[] | undefined {
  const list = reader.array(name);
  if (list === undefined) return undefined;
  if (list.some((item) => typeof item !== 'string')) {
    throw invalidParams(`${name} must be a list of tool names.`);
  }
  return list as string[];
}

function readSampling(raw: unknown, config: AgentConfigInput, warnings: string[]): void {
  if (raw === undefined) return;
  if (raw === 'greedy') {
    config.topK = 1;
    return;
  }
  const sampling = new ParamReader(raw, 'params.options.sampling');
  const topK = sampling.number('topK', { integer: true, min: 1, max: 1000 });
  const topP = sampling.number('topP', { min: 0, max: 1 });
  const seed = sampling.number('seed', { integer: true });
  if (topK === undefined && topP === undefined) {
    throw invalidParams('params.options.sampling must be "greedy", {topK, seed?} or {topP, seed?}.');
  }
  if (topK !== undefined) config.topK = topK;
  if (topP !== undefined)
    warnings.push('params.options.sampling.topP is not supported on this backend and was ignored (its seed is kept).');
  if (seed !== undefined) config.seed = seed;
  warnings.push(...sampling.unknownWarnings());
}
