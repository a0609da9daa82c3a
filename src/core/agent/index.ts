export { Agent, createAgentSetup } from './agent';
export type { AgentOptions, RunOptions, CompactOptions, AgentSetup, TurnAttempt, TurnFailure } from './agent';
export { AgentRun } from './run';
export type { RunStatus } from './run';
export {
  resolveConfig,
  parseToolChoice,
  validateToolChoice,
  DEFAULT_TOOL_POLICY,
  DEFAULT_CONTEXT_POLICY,
  DEFAULT_RETRY_POLICY,
} from './config';
export type {
  AgentConfig,
  AgentConfigInput,
  ToolChoice,
  ToolPolicy,
  ContextPolicy,
  RetryPolicy,
  AgentLabels,
} from './config';
export type {
  AgentEvent,
  AgentEventType,
  AgentEventOf,
  AgentResponse,
  ModelStepInfo,
  StepRecord,
  ToolRecord,
  ToolCallingMode,
} from './events';
export type { ExternalToolHandler } from './tool-runner';
export { WALL_CLOCK, validateToolClock } from './tool-clock';
export type { ToolClock } from './tool-clock';
export { EventStream } from './event-stream';
export type { StreamStatus } from './event-stream';
