/**
 * The node events an NPCComponent emits, with their payloads. The game listens with
 * `node.on(NPC_TURN, (turn) => …)`; the two that ask the game something carry the way to
 * answer (ExternalToolRequest, ToolApprovalRequest). The full contract: docs/components.md.
 * The payloads take the component's type as a parameter, so this file does not import the
 * component (NPCComponent.ts exports them with it filled in).
 */
import type { ToolCall } from '../runtime/oam-core.js';

/** Node events of an NPCComponent, with their payload. */
export const NPC_LINE = 'npc-line'; // NPCLineEvent: the line grows as the model writes it
export const NPC_EMOTION = 'npc-emotion'; // Emotion
export const NPC_TOOL_CALL = 'npc-tool-call'; // ToolCall (a local or world/memory tool starts)
export const NPC_EXTERNAL_TOOL = 'npc-external-tool'; // ExternalToolRequest: answer it
export const NPC_TOOL_RESULT = 'npc-tool-result'; // ToolRecord
export const NPC_TURN = 'npc-turn'; // DialogueTurn (completed, fallbacks included)
export const NPC_BARK = 'npc-bark'; // string
export const NPC_FALLBACK = 'npc-fallback'; // AgentError: why an authored line was used
export const NPC_ERROR = 'npc-error'; // AgentError: a failed talk()/bark() or a set-up problem (never a cancel)
export const NPC_TOOL_APPROVAL = 'npc-tool-approval'; // ToolApprovalRequest: allow or refuse a call before it runs

export const NPC_EVENTS = {
  line: NPC_LINE,
  emotion: NPC_EMOTION,
  toolCall: NPC_TOOL_CALL,
  externalTool: NPC_EXTERNAL_TOOL,
  toolResult: NPC_TOOL_RESULT,
  turn: NPC_TURN,
  bark: NPC_BARK,
  fallback: NPC_FALLBACK,
  error: NPC_ERROR,
  toolApproval: NPC_TOOL_APPROVAL,
};

export interface NPCLineEvent {
  /** New text since the last event. */
  delta: string;
  /** The whole line so far. */
  line: string;
  /** True when the line restarted (a retry): replace what is shown. */
  isReset: boolean;
}

/** Payload of `npc-external-tool`: the call and the way to answer it. */
export interface ExternalToolRequest<Npc> {
  call: ToolCall;
  npc: Npc;
  /** A string, a JSON value or a ToolOutput. False when the turn no longer waits (answered, timed out, cancelled). */
  answer(output: unknown): boolean;
  /** Tells the model the action failed (it says so in character). Same return value as answer(). */
  fail(message: string): boolean;
}

/**
 * A call the model chose, before it runs: the game's rules decide (no more gold than the player
 * has). Answer now or later; the turn waits, and a cancelled turn stops waiting. Without a
 * listener every call runs.
 */
export interface ToolApprovalRequest<Npc> {
  call: ToolCall;
  npc: Npc;
  /** Runs the call, with other arguments if given (checked against the tool's schema). */
  allow(args?: Record<string, unknown>): void;
  /** Does not run it; the NPC reads the reason and answers in character. */
  refuse(reason: string): void;
}
