/** What an NPC turn gives back, and the events it reports while it runs. */
import type { ToolCall } from '../../core/tools';
import type { ModelStepInfo, ToolRecord } from '../../core/agent';
import type { GenerationRequest, TokenUsage } from '../../contract/language-model';
import type { AgentError } from '../../contract/errors';
import type { Emotion } from '../emotion';

export interface DialogueTurn {
  line: string;
  emotion: Emotion;
  /** Suggested player replies (empty unless playerOptionCount > 0). */
  playerOptions: string[];
  endsConversation: boolean;
  /** Every tool call of the turn, including those made before a retry or a fallback. */
  toolCalls: ToolRecord[];
  /** The relationship after the turn (−100…100). */
  relationship: number;
  /** True when the line is an authored fallback because the model could not answer. */
  isFallback: boolean;
  usage: TokenUsage;
  modelCalls: number;
}

export type NPCEvent =
  | { type: 'emotion'; emotion: Emotion }
  | { type: 'line'; delta: string; line: string; isReset: boolean }
  | { type: 'toolCall'; call: ToolCall }
  | { type: 'externalToolCall'; call: ToolCall }
  | { type: 'toolResult'; record: ToolRecord }
  | { type: 'modelStep'; step: ModelStepInfo; request: GenerationRequest }
  | { type: 'modelStepFinished'; step: ModelStepInfo; output: string; usage: TokenUsage }
  | { type: 'fallback'; reason: AgentError }
  | { type: 'completed'; turn: DialogueTurn };

export type NPCEventType = NPCEvent['type'];
export type NPCEventOf<T extends NPCEventType> = Extract<NPCEvent, { type: T }>;
