/**
 * What an NPC hands its agent besides the turn: every tool its model sees, and the rules its
 * instructions are rendered with. The NPC builds its agent from these; the persona inspector's
 * token meter measures the same, so the two cannot drift.
 */
import { AgentError } from '../../contract/errors';
import type { AgentTool } from '../../core/tools';
import { memoryTools, MEMORY_TOOL_NAMES, type MemoryStage, type NPCMemoryState } from '../memory';
import { worldStateTools, READ_WORLD_STATE_TOOL, UPDATE_WORLD_STATE_TOOL, type WorldState } from '../world';
import type { ResolvedNPCOptions } from './npc-options';
import { textFormatRule } from './reply-format';

/** The names an NPC's own tools take; a game tool may not use them. */
export const BUILT_IN_TOOLS = [READ_WORLD_STATE_TOOL, UPDATE_WORLD_STATE_TOOL, ...MEMORY_TOOL_NAMES];

export interface NPCToolSetInput {
  gameTools: readonly AgentTool[];
  world?: WorldState;
  options: ResolvedNPCOptions;
  /** Where this turn's memory changes wait for the commit. */
  stage: MemoryStage;
  /** The committed memory the memory tools read. */
  memory: () => NPCMemoryState;
}

/**
 * The game's tools, then the world tools its world paths enable, then the memory tools its
 * options enable; refused as the NPC refuses a set-up (a game tool named like a built-in one, a
 * grounding tool it does not have).
 */
export function npcToolSet(input: NPCToolSetInput): AgentTool[] {
  const { gameTools, world, options } = input;
  for (const tool of gameTools) {
    if (BUILT_IN_TOOLS.indexOf(tool.name) >= 0) {
      throw new AgentError(
        'invalid_request',
        `Tool "${tool.name}" clashes with a built-in NPC tool (${BUILT_IN_TOOLS.join(', ')}); rename it.`,
      );
    }
  }
  const tools = gameTools.slice();
  if (world)
    tools.push(...worldStateTools(world, { readable: options.worldReadable, writable: options.worldWritable }));
  // The tools add what this turn staged themselves, so they get the committed memory.
  tools.push(
    ...memoryTools(input.stage, input.memory, {
      facts: options.memoryTools.facts,
      relationship: options.memoryTools.relationship,
      maxRelationshipChange: options.maxRelationshipChange,
    }),
  );
  if (options.groundingTool !== undefined && !tools.some((tool) => tool.name === options.groundingTool)) {
    throw new AgentError(
      'invalid_request',
      `groundingTool "${options.groundingTool}" is not one of this NPC's tools (${tools.map((tool) => tool.name).join(', ') || 'none'}).`,
    );
  }
  return tools;
}

/** How `renderPersonaInstructions` renders an NPC's instructions for these options and tools. */
export function npcInstructionRules(
  options: ResolvedNPCOptions,
  tools: readonly AgentTool[],
): { usesTools: boolean; toolRulesInPrefix: boolean; secretsInPrefix: boolean; extra: string | undefined } {
  const extra = [
    options.extraInstructions ?? '',
    options.replyFormat === 'text' ? textFormatRule(options.emotions) : '',
  ]
    .filter(Boolean)
    .join('\n');
  return {
    // The check-your-facts rule only when the NPC can look facts up (memory tools cannot), and
    // not twice: line-first reply rules say when to write a call first.
    usesTools: tools.some((tool) => MEMORY_TOOL_NAMES.indexOf(tool.name) < 0),
    toolRulesInPrefix: options.inlineReplies,
    secretsInPrefix: options.secretsUnlockAtRelationship === null,
    extra: extra || undefined,
  };
}
