/**
 * ChromePromptModel's options and their checks, and how a request's temperature becomes one of
 * the Prompt API's sampling presets (web pages may not set topK or temperature themselves).
 */
import { AgentError } from '../../contract/errors';
import type { PromptApi, SamplingMode } from './prompt-api';

export interface ChromePromptModelOptions {
  /** The Prompt API's global; default `globalThis.LanguageModel`, read at every call (tests pass a stand-in). */
  api?: PromptApi;
  /** Languages of prompts and answers, sent as expectedInputs/expectedOutputs (Chrome 140+: en, es, ja). Default ["en"]. */
  languages?: string[];
  /** How many distinct stable prefixes keep a base session (each holds its prefilled prefix in memory). Default 4. */
  maxBaseSessions?: number;
  /** Input budget the core plans prompts for; default 4000, lowered to fit the browser's context window. */
  maxInputTokens?: number;
  /** One sampling mode for every request instead of the one derived from each request's temperature. */
  samplingMode?: SamplingMode;
  /**
   * Let Chrome add the response schema to the prompt (the spec's default). false sends
   * omitResponseConstraintInput: saves the schema's tokens when the prompt already describes
   * the format, as the core's prompts do. Default true.
   */
  schemaInPrompt?: boolean;
}

const SAMPLING_MODES: readonly SamplingMode[] = [
  'most-predictable',
  'predictable',
  'balanced',
  'creative',
  'most-creative',
];

/** temperature → the nearest sampling preset; undefined → the browser's default. */
export function samplingModeFor(temperature: number | undefined): SamplingMode | undefined {
  if (temperature === undefined) return undefined;
  if (temperature <= 0.15) return 'most-predictable';
  if (temperature <= 0.45) return 'predictable';
  if (temperature <= 0.9) return 'balanced';
  if (temperature <= 1.3) return 'creative';
  return 'most-creative';
}

/** Throws invalid_request for the first option that is not what ChromePromptModelOptions says. */
export function checkChromeOptions(options: ChromePromptModelOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new AgentError('invalid_request', 'ChromePromptModel options must be an object.');
  const opts = options;
  if (
    opts.api !== undefined &&
    ((typeof opts.api !== 'object' && typeof opts.api !== 'function') ||
      opts.api === null ||
      typeof opts.api.create !== 'function' ||
      typeof opts.api.availability !== 'function')
  ) {
    throw new AgentError(
      'invalid_request',
      "api must be the Prompt API's LanguageModel (with create() and availability()).",
    );
  }
  if (
    opts.languages !== undefined &&
    (!Array.isArray(opts.languages) ||
      opts.languages.length === 0 ||
      opts.languages.some((language) => typeof language !== 'string' || !language.trim()))
  ) {
    throw new AgentError('invalid_request', 'languages must be a non-empty list of language tags such as ["en"].');
  }
  if (opts.maxBaseSessions !== undefined && !(Number.isInteger(opts.maxBaseSessions) && opts.maxBaseSessions >= 1)) {
    throw new AgentError(
      'invalid_request',
      `maxBaseSessions must be a whole number ≥ 1, got ${String(opts.maxBaseSessions)}.`,
    );
  }
  if (opts.maxInputTokens !== undefined && !(typeof opts.maxInputTokens === 'number' && opts.maxInputTokens >= 256)) {
    throw new AgentError('invalid_request', `maxInputTokens must be at least 256, got ${String(opts.maxInputTokens)}.`);
  }
  if (opts.samplingMode !== undefined && SAMPLING_MODES.indexOf(opts.samplingMode) < 0) {
    throw new AgentError(
      'invalid_request',
      `samplingMode must be one of ${SAMPLING_MODES.join(', ')}; got ${JSON.stringify(opts.samplingMode)}.`,
    );
  }
}
