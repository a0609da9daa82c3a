/** Everything a turn reports while it runs, in order; `completed` is always last on success. */
import type { AgentError } from '../../contract/errors';
import type { GenerationRequest, StepKind, TokenUsage } from '../../contract/language-model';
import type { ToolCall, ToolOutput } from '../tools';

export type ToolCallingMode = 'allowed' | 'required' | 'disallowed';

export interface ModelStepInfo {
  /** 0-based index of the model step within the turn. */
  index: number;
  kind: StepKind;
  isRepair: boolean;
  /** Retry attempt of the same step after a transient failure (0 = first try). */
  attempt: number;
  completedToolRounds: number;
  toolCallingMode: ToolCallingMode;
  enabledTools: string[];
  /** Whole history turns left out to fit the input budget. */
  trimmedTurns: number;
}

export interface ToolRecord {
  call: ToolCall;
  output: ToolOutput;
  durationMs: number;
  /** The model asked for this call but its arguments stayed invalid: it was never run. */
  rejected?: boolean;
  /** The game's approval refused the call (this reason): it was never run; the model read the reason. */
  refused?: string;
}

export interface StepRecord {
  kind: StepKind;
  isRepair: boolean;
  promptTokens: number;
  cachedPromptTokens: number;
  outputTokens: number;
  /** The core's own CPU time for this step, excluding the model (ms). */
  coreMs: number;
  /** True when the stream was stopped early because the JSON answer was complete. */
  stoppedEarly: boolean;
}

export interface AgentResponse {
  /** The reply text; for a structured turn, the JSON text of `structured`. */
  text: string;
  structured?: unknown;
  toolCalls: ToolRecord[];
  usage: TokenUsage;
  steps: StepRecord[];
  /** Model calls this turn made (retries, repairs and failed attempts included). */
  modelCalls: number;
  /** True when every attempt failed and the run's `fallback` answered instead (kept out of the history). */
  isFallback?: boolean;
}

export type AgentEvent =
  | { type: 'step'; step: ModelStepInfo; request: GenerationRequest }
  | { type: 'stepFinished'; step: ModelStepInfo; output: string; usage: TokenUsage; stoppedEarly: boolean }
  | { type: 'text'; delta: string; text: string; isReset: boolean }
  | { type: 'partial'; value: unknown }
  | { type: 'toolStarted'; call: ToolCall }
  | { type: 'toolRequested'; call: ToolCall }
  | { type: 'toolCompleted'; record: ToolRecord }
  /** A failed attempt is followed by another try of the same turn (`RunOptions.retry`); `index` counts from 1. */
  | { type: 'attempt'; index: number; reason: AgentError }
  /** Every attempt failed; the run's `fallback` gives the answer. */
  | { type: 'fallback'; reason: AgentError }
  | { type: 'completed'; response: AgentResponse };

export type AgentEventType = AgentEvent['type'];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
