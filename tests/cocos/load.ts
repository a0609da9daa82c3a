/**
 * Loads the mounted components for a test. They are required, not imported: importing them
 * would pull them into the root type check (tsconfig.json), which reads decorators in the TC39
 * form, while Creator and tsconfig.assets.json use legacy decorators. Their own type check is
 * `npx tsc -p tsconfig.assets.json`; these interfaces cover what the tests touch.
 *
 * Call after `jest.mock('cc', …)`, `jest.mock('cc/env', …)` and the runtime mock.
 */
import type {
  ChromePromptModel,
  AgentError,
  AgentTool,
  Decision,
  DialogueTurn,
  LanguageModel,
  ModelScheduler,
  NPC,
  ToolCall,
  WorldState,
  GeminiNanoModel,
  BridgeTransport,
  ModelAvailability,
  KeywordModelOptions,
  ModelSchedulerOptions,
  SchedulerStats,
} from '../../src';
import type { Component, JsonAsset } from './cc-double';

export interface OamRuntimeConfigLike {
  languageModel?: LanguageModel;
  openaiUrl?: string;
  model?: string;
  apiKey?: string;
  standIn?: KeywordModelOptions;
  chromeNano?: boolean;
  scheduler?: ModelSchedulerOptions;
}

/** OamRuntime.model: one object for the whole game, forwarding to the scheduler in force. */
export interface OamSharedModelLike extends LanguageModel {
  readonly inner: LanguageModel;
  stats(): SchedulerStats;
}

export interface OamRuntimeStatic {
  configure(config: OamRuntimeConfigLike): void;
  readonly config: OamRuntimeConfigLike;
  readonly model: OamSharedModelLike;
  readonly scheduler: ModelScheduler;
  readonly kind: 'gemini-nano' | 'chrome-nano' | 'openai-compatible' | 'stand-in' | 'custom';
  readonly nano: GeminiNanoModel | null;
  readonly chromeNano: ChromePromptModel | null;
  readonly onDevice: { download(): Promise<void> } | null;
  reset(): void;
}

export interface WorldStateStoreLike extends Component {
  initialState: JsonAsset | null;
  initialJson: string;
  readonly world: WorldState;
  get<T = unknown>(path?: string): T | undefined;
  set(path: string, value: unknown): boolean;
  save(): Record<string, unknown>;
  restore(saved: object | string): void;
}

export interface ToolDeclarationLike {
  name: string;
  description: string;
  parametersSchema: string;
  timeoutMs: number;
}

export interface ExternalToolRequestLike {
  call: ToolCall;
  answer(output: unknown): boolean;
  fail(message: string): boolean;
}

export interface NPCComponentLike extends Component {
  persona: JsonAsset | null;
  worldStore: WorldStateStoreLike | null;
  worldReadable: string[];
  worldWritable: string[];
  worldContextPaths: string[];
  groundingTool: string;
  replyFormat: number;
  rememberFacts: boolean;
  trackRelationship: boolean;
  emotions: string[];
  playerOptionCount: number;
  fallbackLines: string[];
  externalTools: ToolDeclarationLike[];
  externalToolTimeoutMs: number;
  toolTimeoutMs: number;
  priority: number;
  readonly setupError: AgentError | null;
  readonly core: NPC | null;
  readonly isTalking: boolean;
  readonly pendingToolCalls: ToolCall[];
  rebuild(): boolean;
  registerTool(tool: AgentTool): void;
  unregisterTool(name: string): boolean;
  talk(line: string, options?: { situation?: string }): Promise<DialogueTurn>;
  bark(situation: string): Promise<string>;
  cancel(reason?: string): void;
  answerTool(callId: string, output: unknown): boolean;
  save(): unknown;
  restore(saved: unknown): void;
}

export interface DecisionComponentLike extends Component {
  options: Array<{ id: string; description: string }>;
  actor: JsonAsset | null;
  fallbackOption: string;
  timeBudgetMs: number;
  withReason: boolean;
  decide(situation: string, facts?: unknown): Promise<Decision>;
  cancel(): void;
}

export interface NanoStatusLike extends Component {
  refreshOnLoad: boolean;
  autoDownload: boolean;
  status: string;
  progress: number;
  message: string;
  refresh(): Promise<ModelAvailability>;
  download(): Promise<void>;
}

export interface JsbBridgeTransportLike extends BridgeTransport {
  dispose(): void;
}

type Ctor<T> = new () => T;

export interface Components {
  OamRuntime: OamRuntimeStatic;
  emitSafely(node: unknown, type: string, payload: unknown): { emitted: boolean; threw: boolean; error?: unknown };
  WorldStateStore: Ctor<WorldStateStoreLike>;
  NPCComponent: Ctor<NPCComponentLike>;
  ToolDeclaration: Ctor<ToolDeclarationLike>;
  DecisionComponent: Ctor<DecisionComponentLike>;
  DecisionOptionEntry: Ctor<{ id: string; description: string }>;
  NanoStatus: Ctor<NanoStatusLike>;
  JsbBridgeTransport: { new (eventName?: string): JsbBridgeTransportLike; isSupported(): boolean };
  OamRuntimeSettings: Ctor<Component & { openaiUrl: string; openaiModel: string; callsPerMinute: number }>;
  NPC_EVENTS: Record<
    'line' | 'emotion' | 'toolCall' | 'externalTool' | 'toolResult' | 'turn' | 'bark' | 'fallback' | 'error',
    string
  >;
  WORLD_CHANGED: string;
  DECISION: string;
  DECISION_ERROR: string;
  NANO_AVAILABILITY: string;
  NANO_PROGRESS: string;
  ReplyFormat: { Automatic: number; Structured: number; Text: number };
}

/** The public surface of assets/index.ts, loaded through the module mocks. */
export function loadComponents(): Components {
  return {
    ...require('../../assets/index'),
    emitSafely: require('../../assets/components/emitSafely').emitSafely,
  } as Components;
}
