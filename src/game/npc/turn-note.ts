/**
 * The part of an NPC's prompt that changes every turn, kept out of the cached prefix: what it
 * remembers (and the secrets the relationship has unlocked), the game state it watches, and the
 * situation the game gave for this turn.
 */
import { renderMemoryNote, type NPCMemoryState } from '../memory';
import type { NormalizedPersona } from '../persona';
import type { ResolvedNPCOptions } from './npc-options';
import { unlockedSecrets } from './stage-parts';

export function renderTurnNote(turn: {
  /** The memory as the turn starts. */
  memory: NPCMemoryState;
  /** The summary of the world paths in `worldContextPaths` ('' for none). */
  world: string;
  options: ResolvedNPCOptions;
  persona: NormalizedPersona;
  situation?: string;
}): string {
  const { memory: state, world, options, persona, situation } = turn;
  const unlocked = unlockedSecrets({ persona, options, relationship: state.relationship });
  const parts = [
    renderMemoryNote(state, {
      showRelationship: options.memoryTools.relationship || state.relationship !== 0,
      secretsUnlocked: unlocked,
    }),
  ];
  if (world) parts.push(`Game state:\n${world}`);
  if (situation && situation.trim()) parts.push(`Situation: ${situation.trim()}`);
  return parts.filter(Boolean).join('\n');
}
