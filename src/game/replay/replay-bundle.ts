/**
 * A replay bundle (schemas/replay-bundle.schema.json): one recorded NPC session as one JSON file.
 * It holds what rebuilds the NPC (persona, options, memory, world, the game's tools) and, per
 * turn, every prompt sent and every raw model output returned, so replayBundle() can play the
 * outputs back in order and show where today's prompts differ from the recorded ones.
 */
import type { AgentErrorCode } from '../../contract/errors';
import type { StepKind, TokenUsage } from '../../contract/language-model';
import type { ToolOutput } from '../../core/tools';
import type { NPCMemoryState } from '../memory';

export const REPLAY_BUNDLE_FORMAT = 'oam-cocos.ReplayBundle';
export const REPLAY_BUNDLE_VERSION = 1;

export interface RecordedError {
  code: AgentErrorCode;
  message: string;
}

/** One model call as sent, and the raw text that came back (or how it failed). */
export interface RecordedStep {
  kind: StepKind;
  label?: string;
  systemInstruction?: string;
  promptPrefix?: string;
  prompt: string;
  output?: string;
  error?: RecordedError;
  usage?: TokenUsage;
  firstChunkMs?: number;
  ms?: number;
}

export interface RecordedToolCall {
  name: string;
  args: Record<string, unknown>;
  output: ToolOutput;
  ms?: number;
  rejected?: boolean;
  refused?: string;
}

export interface RecordedTurn {
  said: string;
  situation?: string;
  /** The game state when the turn started. */
  world?: Record<string, unknown>;
  /** What each tool with a snapshot said in advance when the turn started, by tool name. */
  snapshots?: Record<string, unknown>;
  /** gemini-nano, chrome-nano, line-bank, persona, stand-in, openai-compatible, custom… */
  answeredBy: string;
  steps: RecordedStep[];
  toolCalls: RecordedToolCall[];
  line: string;
  emotion: string;
  isFallback: boolean;
  endsConversation?: boolean;
  relationship?: number;
  /** The turn failed (nothing said): its error. */
  error?: RecordedError;
  usage?: TokenUsage;
  modelCalls?: number;
  ms?: number;
}

export interface RecordedTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  sideEffect?: boolean;
  /** The tool says in advance what it returns (the turn's `snapshots` hold its values). */
  snapshot?: boolean;
}

export interface ReplayBundle {
  format: typeof REPLAY_BUNDLE_FORMAT;
  version: typeof REPLAY_BUNDLE_VERSION;
  recordedAt?: string;
  source?: { place?: string; platform?: string; node?: string; note?: string };
  persona: Record<string, unknown>;
  profile?: Record<string, unknown>;
  options: Record<string, unknown>;
  memory: NPCMemoryState;
  /** The conversation before the recording started (a saved transcript). */
  transcript?: Record<string, unknown>;
  world?: {
    initial: Record<string, unknown>;
    paths?: { readable?: string[]; writable?: string[]; context?: string[] };
  };
  tools: RecordedTool[];
  turns: RecordedTurn[];
}
