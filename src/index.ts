// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- deliberate: the bundle's globals for Cocos's native runtime (a script file of declarations, not a module to import)
/// <reference path="./globals.d.ts" />
/**
 * oam-cocos: on-device AI for Cocos Creator games. The engine-agnostic core; the Cocos
 * components in assets/ import this bundle.
 */
// The model contract: errors, cancellation, the LanguageModel interface.
export { AgentError, AGENT_ERROR_CODES, isAgentErrorCode, rpcCodeOf, codeOfRpc } from './contract/errors';
export type { AgentErrorCode } from './contract/errors';
export { Canceller, sleep } from './contract/abort';
export type { SignalLike } from './contract/abort';

// The agent: turns, tools, schemas, transcripts.
export { Agent, AgentRun, createAgentSetup, validateToolChoice, WALL_CLOCK } from './core/agent';
export type {
  AgentOptions,
  RunOptions,
  CompactOptions,
  AgentSetup,
  TurnAttempt,
  TurnFailure,
  RunStatus,
  AgentConfig,
  AgentConfigInput,
  ToolChoice,
  ToolPolicy,
  ContextPolicy,
  RetryPolicy,
  AgentLabels,
  AgentEvent,
  AgentEventType,
  AgentEventOf,
  AgentResponse,
  ModelStepInfo,
  StepRecord,
  ToolRecord,
  ToolCallingMode,
  ExternalToolHandler,
  ToolClock,
} from './core/agent';
export { transcriptFromJSON, transcriptToJSON } from './core/transcript';
export type { TranscriptData, TranscriptEntry } from './core/transcript';
export { AgentTool, ToolOutput, RESERVED_TOOL_NAMES } from './core/tools';
export type { ToolCall, ToolContext, ToolHandler, ToolDefinition, ToolApproval, ToolVerdict } from './core/tools';
export { JsonSchema } from './core/schema';
export type { Violation, CheckResult, JsonObjectSchema } from './core/schema';

export { DEFAULT_CAPABILITIES, estimateTokens, generateText } from './contract/language-model';
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
} from './contract/language-model';
export {
  checkImageInput,
  imageDataUrl,
  imageFromBytes,
  imageFromDataUrl,
  IMAGE_INPUT_TOKENS,
  MAX_IMAGE_BYTES,
} from './contract/image-input';
export type { ImageInput, ImageMimeType } from './contract/image-input';
export { encodePng, imageFromPixels } from './contract/png';
export type { RgbaPixels } from './contract/png';
export { ModelScheduler, Priority } from './models/scheduler';
export type { ModelSchedulerOptions, SchedulerEvent, SchedulerStats } from './models/scheduler';
export { OpenAICompatibleModel } from './models/openai-compatible';
export type { OpenAICompatibleOptions } from './models/openai-compatible';
export { GeminiNanoModel, BRIDGE_EVENT } from './models/gemini-nano';
export type { GeminiNanoModelOptions, DownloadProgress, DownloadOptions, BridgeTransport } from './models/gemini-nano';
export { ChromePromptModel, PreferAvailableModel } from './models/chrome-prompt';
export type {
  ChromePromptModelOptions,
  ChromeDownloadProgress,
  ChromeDownloadOptions,
  PromptApi,
  PromptSession,
  PromptAvailability,
  SamplingMode,
} from './models/chrome-prompt';

// The game layer.
export {
  NPC,
  DialogueStream,
  resolveNPCOptions,
  npcReplySchema,
  NPC_SAVE_VERSION,
  DEFAULT_FALLBACK_LINES,
  BUILT_IN_TOOLS,
  readPersonaTest,
  runPersonaTest,
  npcSetupFromInspector,
} from './game/npc';
export type { NPCInspectorProperties, ToolDeclarationProperties } from './game/npc';
export type {
  NPCConfig,
  NPCRestoreConfig,
  TalkOptions,
  BarkOptions,
  DialogueTurn,
  NPCEvent,
  NPCEventType,
  NPCEventOf,
  NPCOptions,
  NPCReplyFormat,
  MemoryToolsOption,
  NPCSaveState,
  PersonaTestFile,
  PersonaTestTurn,
  PersonaTurnExpectations,
  PersonaTestReport,
  PersonaTurnReport,
  PersonaCheck,
  RunPersonaTestInput,
} from './game/npc';
export { WorldState, WorldPath, WorldStateError, worldStateTools } from './game/world';
export type { WorldStateChange, WorldStateListener, WorldStateToolOptions, JsonValue, JsonObject } from './game/world';
export { DecisionEngine, chooseByWeight } from './game/decision';
export type { OptionConditions, WeightedOption } from './game/decision';
export type { Decision, DecisionOption, DecisionRequest, DecisionEngineOptions, DecisionResult } from './game/decision';
export { ContentGenerator } from './game/content';
export type { ContentRequest, ContentResult, ContentGeneratorOptions } from './game/content';
export {
  parsePersona,
  validatePersona,
  findJsonSyntaxError,
  normalizePersona,
  renderPersonaInstructions,
  isSameCharacter,
  formatPersonaProblems,
  PERSONA_SCHEMA,
  PERSONA_FIELDS,
  PERSONA_STRUCTURED_FIELDS,
  renderCharacterInstructions,
  renderSampleLines,
  stageIndexAt,
  DEFAULT_SAMPLE_LINE_TOKENS,
} from './game/persona';
export type {
  Persona,
  NormalizedPersona,
  PersonaProblem,
  PersonaValidation,
  RelationshipStage,
  NormalizedStage,
  SampleLine,
} from './game/persona';
// NPC profiles (src/game/profile): persona, tools, world and options in one file.
export { loadNPCProfile, readNPCProfile, NPC_PROFILE_SCHEMA } from './game/profile';
export type {
  NPCProfile,
  NPCProfileParts,
  LoadProfileOptions,
  ProfileStandInTool,
  ProfileToolDeclaration,
  ProfileToolHandler,
  ProfileHandlerContext,
} from './game/profile';
export { EMOTIONS, matchEmotion, isEmotion } from './game/emotion';
export type { Emotion } from './game/emotion';
export { NPCMemory, MemoryStage, memoryTools, attitude, MEMORY_TOOL_NAMES } from './game/memory';
export type { NPCMemoryState, Attitude } from './game/memory';
export { KeywordModel } from './scripted/keyword-model';
export type { KeywordModelOptions, KeywordRule, KeywordReply, KeywordContext } from './scripted/keyword-model';
export { BankModel } from './scripted/bank-model';
export type { BankModelOptions, BankChoice } from './scripted/bank-model';
export { parseLineBank, lineBankProblems, LINE_BANK_SCHEMA } from './game/bank/line-bank';
export type { LineBank, BankLine, WorldCondition } from './game/bank/line-bank';
export { IntentMatcher } from './game/bank/intent-matcher';
export { bakeLineBank } from './game/bank/bake';
export type { BakeInput } from './game/bank/bake';
export type { IntentMatch } from './game/bank/intent-matcher';
export * from './game/replay';

// Sessions by id (src/core/sessions).
export { AgentRunner, AgentSession, DEFAULT_MAX_SESSIONS, DEFAULT_MAX_TURNS } from './core/sessions';
export type { AgentRunnerOptions, SessionOptions, WhenFull, OnMaxTurns, TurnLimit } from './core/sessions';
export { ML_KIT_MAX_TURNS_EXCEEDED, reasonOf } from './contract/errors';
export type { AgentErrorOptions, AgentErrorDetails, AgentErrorJSON } from './contract/errors';

// The JSON-RPC protocol (src/bridge).
export {
  BridgeEngine,
  BridgeError,
  BRIDGE_CODES,
  PROTOCOL_VERSION,
  SERVER_NAME,
  LineSplitter,
  MAX_LINE_BYTES,
  ExtensionError,
  EXTENSION_CODE_MIN,
  EXTENSION_CODE_MAX,
} from './bridge';
export type {
  BridgeEngineOptions,
  BridgeExtension,
  ExtensionCall,
  ExtensionHandle,
  ExtensionHandler,
  ExtensionParams,
  ExtensionWorld,
  BridgeTimers,
  ModelFactory,
  BridgeErrorName,
  RpcErrorObject,
  RequestId,
  LineSplitterOptions,
} from './bridge';
