/**
 * oam-cocos: on-device AI for Cocos Creator games. The engine-agnostic core; the Cocos
 * components in assets/ import this bundle.
 */
export { AgentError, AGENT_ERROR_CODES, isAgentErrorCode, rpcCodeOf, codeOfRpc } from './core/errors';
export type { AgentErrorCode } from './core/errors';
export { Canceller, linkSignal, sleep } from './core/abort';
export type { SignalLike } from './core/abort';

export * from './core/agent';
export { AgentTool, ToolOutput, RESERVED_TOOL_NAMES } from './core/tools';
export type { ToolCall, ToolContext, ToolHandler, ToolDefinition } from './core/tools';
export { JsonSchema, formatViolations } from './core/schema';
export type { Violation, CheckResult, JsonObjectSchema } from './core/schema';
export { parseLenient, extractJson, hasCompleteObject } from './core/json';
export { parseEnvelope, InlineReplyReader } from './core/envelope';
export type { EnvelopeParse, EnvelopeContext } from './core/envelope';

export { DEFAULT_CAPABILITIES, estimateTokens, generateText } from './models/types';
export type {
  LanguageModel,
  GenerationRequest,
  GenerationChunk,
  ModelAvailability,
  ModelCapabilities,
  StepKind,
  FinishReason,
  TokenUsage,
  UnavailableReason,
} from './models/types';
export { ScriptedLanguageModel, Script } from './models/scripted';
export type { ScriptStep, ScriptedModelOptions } from './models/scripted';
