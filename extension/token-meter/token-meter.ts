/**
 * How much of Gemini Nano's input budget a persona's prompt takes. The prompt's stable prefix
 * is built from the NPC's own parts (persona instructions, the tool catalog, the reply format),
 * laid out as the runtime sends it to Gemini Nano (instructions as the system instruction, the
 * rest as the prompt prefix), and counted with the runtime's estimate: 4 characters a token.
 */
import { estimateTokens } from '../../src/models/types';
import { renderPersonaInstructions, normalizePersona } from '../../src/game/persona';
import type { Persona } from '../../src/game/persona';
import { renderToolSection } from '../../src/core/prompt/stable-prefix';
import { npcReplySchema } from '../../src/game/npc/reply-format';
import { resolveNPCOptions } from '../../src/game/npc/npc-options';
import type { NPCOptions } from '../../src/game/npc/npc-options';
import { AgentTool } from '../../src/core/tools';
import { worldStateTools } from '../../src/game/world';
import { MemoryStage, NPCMemory, memoryTools } from '../../src/game/memory';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';

/** Gemini Nano's input limit on current devices, in tokens. */
export const NANO_INPUT_BUDGET = 4000;
/** Kept free by the runtime's prompt builder (context.reservedTokens). */
export const RESERVED_TOKENS = 256;
/** What the prompt may use: the budget minus the reserve. */
export const USABLE_TOKENS = NANO_INPUT_BUDGET - RESERVED_TOKENS;
/** Shares of the usable budget where the meter turns amber, then red. */
export const WARN_SHARE = 0.5;
export const DANGER_SHARE = 0.75;

export type ToolPreset = 'none' | 'tavern' | 'custom';
export type MeterLevel = 'ok' | 'warn' | 'danger';

/** An NPC set-up to measure the persona with: its tools and options. */
export interface MeterSetup {
  tools: AgentTool[];
  options: NPCOptions;
}

export interface MeterFigures {
  /** The persona's instructions (the system instruction). */
  personaTokens: number;
  /** The tool catalog and the rules for calling tools (0 without tools). */
  toolsTokens: number;
  /** The reply-format block (emotion, line, end). */
  replyFormatTokens: number;
  /** The whole stable prefix, as the runtime counts it; the three rows above add up to it. */
  prefixTokens: number;
  /** Extra tokens once the NPC tells its secrets (they are added to the turn's note then). */
  secretsTokens: number;
  /** Budget minus reserve. */
  usableTokens: number;
  /** What is left for memory, world notes and the conversation, after prefix and secrets. */
  conversationTokens: number;
  /** (prefix + secrets) / usable, from 0; above 1 the persona alone does not fit. */
  share: number;
  level: MeterLevel;
  /** The texts that were counted, for a "show prompt" view and for tests. */
  systemInstruction: string;
  promptPrefix: string;
}

/** The demo tavern's NPC set-up (Mira): check_menu, take_order, the world read tool and both memory tools. */
export function tavernSetup(): MeterSetup {
  const world = createTavernWorld();
  const options: NPCOptions = { memoryTools: 'all', secretsUnlockAtRelationship: 10, worldContextPaths: ['player.gold', 'time'] };
  const resolved = resolveNPCOptions(options);
  const memory = new NPCMemory();
  const tools = [
    ...tavernTools(world),
    ...worldStateTools(world, { readable: resolved.worldReadable, writable: resolved.worldWritable }),
    ...memoryTools(new MemoryStage({ maxFacts: resolved.maxFacts }), () => memory.snapshot(), {
      facts: resolved.memoryTools.facts,
      relationship: resolved.memoryTools.relationship,
      maxRelationshipChange: resolved.maxRelationshipChange,
    }),
  ];
  return { tools, options };
}

export function noToolsSetup(): MeterSetup {
  return { tools: [], options: {} };
}

export type CustomToolsResult = { ok: true; setup: MeterSetup } | { ok: false; message: string };

/**
 * Tools from JSON a designer pastes: one tool or a list of `{name, description, parameters}`
 * (parameters: a JSON Schema object). They are measured as external tools.
 */
export function customToolsSetup(text: string): CustomToolsResult {
  if (typeof text !== 'string' || text.trim() === '') return { ok: true, setup: noToolsSetup() };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const list = Array.isArray(value) ? value : [value];
  const tools: AgentTool[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, message: `tool ${i + 1} must be an object with a name and a description` };
    }
    const def = item as Record<string, unknown>;
    try {
      tools.push(AgentTool.external({
        name: def.name as string,
        description: typeof def.description === 'string' ? def.description : '',
        parameters: def.parameters as Record<string, unknown> | undefined,
      }));
    } catch (error) {
      return { ok: false, message: `tool ${i + 1}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const names = tools.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) return { ok: false, message: `two tools are called "${twice}"` };
  return { ok: true, setup: { tools, options: {} } };
}

/** Same label the NPC gives itself in the prompt. */
function speakerLabel(name: string): string {
  const clean = name.replace(/[:\n\r]+/g, ' ').replace(/\s+/g, ' ').trim();
  return clean || 'NPC';
}

function asPersona(value: unknown): Persona {
  return (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Persona;
}

/**
 * Measures a persona (valid or still being typed: odd fields count as absent) with an NPC
 * set-up, using the runtime's estimate of 4 characters per token.
 */
export function measurePersona(personaValue: unknown, setup: MeterSetup): MeterFigures {
  const persona = asPersona(personaValue);
  const normalized = normalizePersona(persona);
  const options = resolveNPCOptions(setup.options);
  const usesTools = setup.tools.length > 0;
  const secretsInPrefix = options.secretsUnlockAtRelationship === null;
  const instructions = renderPersonaInstructions(persona, { usesTools, secretsInPrefix, extra: options.extraInstructions });
  const replySchema = npcReplySchema(options, normalized.maxSentences);
  const labels = { user: 'Player', assistant: speakerLabel(normalized.name) };
  const section = renderToolSection({ instructions, tools: setup.tools, labels, inlineReplies: options.inlineReplies, replySchema });
  const replyOnly = renderToolSection({ instructions, tools: [], labels, inlineReplies: options.inlineReplies, replySchema });

  // Gemini Nano takes system instructions, so the runtime splits the prefix this way.
  const systemInstruction = instructions.trim();
  const promptPrefix = section ? `${section}\n\n` : '';
  const prefixTokens = estimateTokens(systemInstruction + promptPrefix);

  // Rows by cumulative characters, so they add up to the runtime's own rounded count.
  const personaChars = systemInstruction.length;
  const toolChars = section.length - replyOnly.length;
  const personaTokens = estimateTokens(systemInstruction);
  const toolsTokens = Math.ceil((personaChars + toolChars) / 4) - personaTokens;
  const replyFormatTokens = prefixTokens - personaTokens - toolsTokens;

  let secretsTokens = 0;
  if (!secretsInPrefix && normalized.secrets.length > 0) {
    const guarded = renderPersonaInstructions(persona, { usesTools, secretsInPrefix: true, extra: options.extraInstructions });
    secretsTokens = estimateTokens(guarded) - estimateTokens(instructions);
  }

  const used = prefixTokens + secretsTokens;
  const share = used / USABLE_TOKENS;
  return {
    personaTokens,
    toolsTokens,
    replyFormatTokens,
    prefixTokens,
    secretsTokens,
    usableTokens: USABLE_TOKENS,
    conversationTokens: USABLE_TOKENS - used,
    share,
    level: levelOf(share),
    systemInstruction,
    promptPrefix,
  };
}

export function levelOf(share: number): MeterLevel {
  if (share > DANGER_SHARE) return 'danger';
  if (share > WARN_SHARE) return 'warn';
  return 'ok';
}
