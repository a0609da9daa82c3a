/**
 * The agent setup of an NPC, built whole from its persona, options and game tools: its
 * instructions for the relationship stage it is in, every tool it has (the game's, the world's
 * and the memory's) and all its settings resolved from the defaults. Building checks all of it,
 * so the NPC applies a new persona, options or tools only once the whole set-up is valid.
 */
import { createAgentSetup, type AgentSetup, type ToolClock } from '../../core/agent';
import type { AgentTool, ToolApproval } from '../../core/tools';
import type { JsonSchema } from '../../core/schema';
import type { MemoryStage, NPCMemory } from '../memory';
import { normalizePersona, type NormalizedPersona, type Persona } from '../persona';
import type { WorldState } from '../world';
import { npcInstructionRules, npcToolSet } from './agent-parts';
import type { ResolvedNPCOptions } from './npc-options';
import { NPC_LINE_FIELD, npcReplySchema } from './reply-format';
import { npcCharacterInstructions } from './stage-parts';
import { spokenLineOf } from './text-reply';

/** What a setup is built from: nothing of it is applied unless all of it is valid. */
export interface NPCSetupParts {
  persona: Persona;
  options: ResolvedNPCOptions;
  tools: AgentTool[];
}

/** What the NPC itself brings to every setup it builds. */
export interface NPCSetupContext {
  world?: WorldState;
  /** The running turn's memory changes, which the memory tools write to. */
  stage: MemoryStage;
  memory: NPCMemory;
  toolClock?: ToolClock;
  approveToolCall?: ToolApproval;
}

export interface NPCBuiltSetup {
  setup: AgentSetup;
  persona: NormalizedPersona;
  replySchema: JsonSchema;
  /** The relationship stage the instructions were rendered for (-1: none). */
  stageIndex: number;
}

export function buildNPCSetup(parts: NPCSetupParts, npc: NPCSetupContext): NPCBuiltSetup {
  const { persona: raw, options, tools: gameTools } = parts;
  const persona = normalizePersona(raw);
  const tools = npcToolSet({
    gameTools,
    world: npc.world,
    options,
    stage: npc.stage,
    memory: () => npc.memory.snapshot(),
  });
  const character = npcCharacterInstructions({
    persona: raw,
    rules: npcInstructionRules(options, tools),
    options,
    relationship: npc.memory.relationship,
  });
  const setup = createAgentSetup({
    instructions: character.text,
    tools,
    config: {
      labels: { user: 'Player', assistant: labelOf(persona.name) },
      inlineReplies: options.inlineReplies,
      replyLineField: NPC_LINE_FIELD,
      toolPolicy: {
        choice: options.toolChoice,
        maxToolRounds: options.maxToolRounds,
        maxToolCalls: options.maxToolCalls,
      },
      structuredReplyRenderer: spokenLineOf,
      temperature: options.temperature,
      maxResponseTokens: options.maxResponseTokens,
      toolTimeoutMs: options.toolTimeoutMs,
      externalToolTimeoutMs: options.externalToolTimeoutMs,
      toolClock: npc.toolClock,
      approveToolCall: npc.approveToolCall,
      priority: options.priority,
      label: persona.name,
    },
  });
  return {
    setup,
    persona,
    replySchema: npcReplySchema(options, persona.maxSentences),
    stageIndex: character.stageIndex,
  };
}

/** The NPC's name as a conversation label: one line, no colon. */
function labelOf(name: string): string {
  const clean = name
    .replace(/[:\n\r]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean || 'NPC';
}
