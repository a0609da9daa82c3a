/**
 * The Cocos side of oam-cocos: `import { NPCComponent } from 'db://oam-cocos/index'`.
 * The engine-agnostic core (NPC, AgentTool, WorldState…) comes from the runtime bundle.
 */
export { OamRuntime } from './components/OamRuntime';
export type { OamRuntimeConfig, OamModelKind } from './components/OamRuntime';
export { OamRuntimeSettings } from './components/OamRuntimeSettings';
export { WorldStateStore, WORLD_CHANGED } from './components/WorldStateStore';
export { ToolDeclaration } from './components/ToolDeclaration';
export {
  NPCComponent,
  ReplyFormat,
  NPC_EVENTS,
  NPC_LINE,
  NPC_EMOTION,
  NPC_TOOL_CALL,
  NPC_EXTERNAL_TOOL,
  NPC_TOOL_RESULT,
  NPC_TURN,
  NPC_BARK,
  NPC_FALLBACK,
  NPC_ERROR,
  NPC_TOOL_APPROVAL,
} from './components/NPCComponent';
export type {
  ExternalToolRequest,
  ToolApprovalRequest,
  NPCLineEvent,
  NPCTalkOptions,
  NPCRestoreOptions,
} from './components/NPCComponent';
export { DecisionOptionEntry } from './components/DecisionOptionEntry';
export { DecisionComponent, DECISION, DECISION_ERROR } from './components/DecisionComponent';
export type { DecisionEvent } from './components/DecisionComponent';
export { NanoStatus, NANO_AVAILABILITY, NANO_PROGRESS, availabilityMessage } from './components/NanoStatus';
export type { NanoAvailabilityEvent, NanoStatusValue } from './components/NanoStatus';
export { QAOverlay, QA_TURN } from './components/QAOverlay';
export { noModelHere } from './components/noModelHere';
export { JsbBridgeTransport } from './bridge/JsbBridgeTransport';
export { imageFromRenderTexture, imageFromTexture, imageFromCanvas } from './components/imageCapture';
export type { ImageCaptureOptions } from './components/imageCapture';
export {
  AgentTool,
  AgentError,
  ToolOutput,
  JsonSchema,
  WorldState,
  NPC,
  DecisionEngine,
  ContentGenerator,
  Priority,
  imageFromPixels,
  imageFromDataUrl,
} from './runtime/oam-core.js';
export type {
  DialogueTurn,
  Decision,
  ToolCall,
  ToolRecord,
  Persona,
  LanguageModel,
  WorldStateChange,
  ImageInput,
} from './runtime/oam-core.js';
