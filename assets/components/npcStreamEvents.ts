/**
 * A turn's stream as an NPCComponent's node events: words, emotion, tool calls and results,
 * fallbacks and the finished turn, and the external calls the game answers.
 */
import { AgentError } from '../runtime/oam-core.js';
import type { DialogueStream, ToolCall } from '../runtime/oam-core.js';
import { NPC_LINE, NPC_EMOTION, NPC_TOOL_CALL, NPC_TOOL_RESULT, NPC_TURN, NPC_FALLBACK, NPC_ERROR } from './npcEvents';

export type EmitNodeEvent = (type: string, payload: unknown) => unknown;

export function forwardStreamEvents(
  stream: DialogueStream,
  game: { emit: EmitNodeEvent; external: (call: ToolCall) => void },
): void {
  const { emit } = game;
  stream.on('line', (event) => emit(NPC_LINE, { delta: event.delta, line: event.line, isReset: event.isReset }));
  stream.on('emotion', (event) => emit(NPC_EMOTION, event.emotion));
  stream.on('toolCall', (event) => emit(NPC_TOOL_CALL, event.call));
  stream.on('externalToolCall', (event) => game.external(event.call));
  stream.on('toolResult', (event) => emit(NPC_TOOL_RESULT, event.record));
  stream.on('fallback', (event) => emit(NPC_FALLBACK, event.reason));
  stream.on('completed', (event) => emit(NPC_TURN, event.turn));
}

/** A failed talk()/bark(): reported as `npc-error` unless it was cancelled, then rethrown. */
export function reportFailure(emit: EmitNodeEvent): (reason: unknown) => never {
  return (reason) => {
    const error = AgentError.from(reason);
    if (error.code !== 'cancelled') emit(NPC_ERROR, error);
    throw error;
  };
}
