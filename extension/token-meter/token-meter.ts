/**
 * How much of Gemini Nano's input budget a persona's prompt takes. The prompt's stable prefix
 * is built from the NPC's own parts (persona instructions, the tool catalog, the reply format),
 * laid out as the runtime sends it to Gemini Nano (instructions as the system instruction, the
 * rest as the prompt prefix), and counted with the runtime's estimate: 4 characters a token.
 */
import { estimateTokens } from '../../src/contract/language-model';
import { normalizePersona, renderSampleLines } from '../../src/game/persona';
import { renderStage } from '../../src/game/persona/stages';
import { npcCharacterInstructions } from '../../src/game/npc/stage-parts';
import type { NPCProfileParts } from '../../src/game/profile';
import type { Persona } from '../../src/game/persona';
import { renderToolSection } from '../../src/core/prompt/stable-prefix';
import { NPC_LINE_FIELD, npcReplySchema } from '../../src/game/npc/reply-format';
import { resolveNPCOptions } from '../../src/game/npc/npc-options';
import type { NPCOptions, ResolvedNPCOptions } from '../../src/game/npc/npc-options';
import { AgentTool, checkToolSet } from '../../src/core/tools';
import { MemoryStage, NPCMemory } from '../../src/game/memory';
import { npcInstructionRules, npcToolSet } from '../../src/game/npc/agent-parts';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';
import { DANGER_SHARE, USABLE_TOKENS, WARN_SHARE } from './meter-types';
import type { MeterFigures, MeterLevel, MeterSetup } from './meter-types';
import { personaParts } from './persona-parts';

export { NANO_INPUT_BUDGET, RESERVED_TOKENS, USABLE_TOKENS, WARN_SHARE, DANGER_SHARE } from './meter-types';
export type { ToolPreset, MeterLevel, MeterPartKey, MeterPart, MeterSetup, MeterFigures } from './meter-types';

/**
 * The set-up of an NPC profile (loadNPCProfile's parts): its own tools, world, options and
 * starting relationship, so the meter counts what that NPC sends.
 */
export function profileSetup(parts: NPCProfileParts): MeterSetup {
  const setup: MeterSetup = { tools: parts.tools, options: parts.options };
  if (parts.world) setup.world = parts.world;
  if (parts.memory) setup.relationship = parts.memory.relationship;
  return setup;
}

/** The demo tavern's NPC set-up (Mira): check_menu, take_order, the world read tool and both memory tools. */
export function tavernSetup(): MeterSetup {
  const world = createTavernWorld();
  const options: NPCOptions = {
    memoryTools: 'all',
    secretsUnlockAtRelationship: 10,
    worldContextPaths: ['player.gold', 'time'],
  };
  return { tools: tavernTools(world), world, options };
}

/**
 * Every tool the NPC's prompt lists, in the NPC's order, from the NPC's own `npcToolSet`: the
 * game's tools, the world tools its world paths enable, the memory tools its options enable.
 * Throws the NPC's own complaints (a game tool named like a built-in one, a grounding tool it
 * does not have).
 */
export function npcToolCatalog(
  setup: MeterSetup,
  options: ResolvedNPCOptions = resolveNPCOptions(setup.options),
): AgentTool[] {
  // Only the catalog is rendered here, so an empty memory stands in for the NPC's.
  const memory = new NPCMemory();
  return npcToolSet({
    gameTools: setup.tools,
    world: setup.world,
    options,
    stage: new MemoryStage({ maxFacts: options.maxFacts }),
    memory: () => memory.snapshot(),
  });
}

/** Why a real NPC would refuse this set-up (bad options, clashing tools), or null when it would start. */
export function setupProblem(setup: MeterSetup): string | null {
  try {
    // The whole set as the NPC's agent takes it: unique names too.
    checkToolSet(npcToolCatalog(setup));
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function noToolsSetup(): MeterSetup {
  return { tools: [], options: {} };
}

/**
 * What a new NPCComponent sends before anything is set in its Inspector: the options its
 * coreSetup() builds from the property defaults, no declared tools and no WorldStateStore (so
 * no world tools). tests/editor/token-meter.test.ts checks these against NPCComponent's source.
 */
export const NPC_COMPONENT_DEFAULT_OPTIONS: Readonly<NPCOptions> = Object.freeze({
  worldReadable: [''],
  worldWritable: [],
  worldContextPaths: [],
  memoryTools: { facts: false, relationship: false },
  replyFormat: 'automatic',
  playerOptionCount: 0,
  canEndConversation: true,
  secretsUnlockAtRelationship: 50,
  externalToolTimeoutMs: 30000,
  toolTimeoutMs: 10000,
  priority: 100,
} as NPCOptions);

export function componentDefaultsSetup(): MeterSetup {
  const defaults = NPC_COMPONENT_DEFAULT_OPTIONS;
  return {
    tools: [],
    options: {
      ...defaults,
      worldReadable: defaults.worldReadable!.slice(),
      worldWritable: [],
      worldContextPaths: [],
      memoryTools: { facts: false, relationship: false },
    },
  };
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
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, message: `tool ${index + 1} must be an object with a name and a description` };
    }
    const def = item as Record<string, unknown>;
    try {
      tools.push(
        AgentTool.external({
          name: def.name as string,
          description: typeof def.description === 'string' ? def.description : '',
          parameters: def.parameters as Record<string, unknown> | undefined,
        }),
      );
    } catch (error) {
      return { ok: false, message: `tool ${index + 1}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const names = tools.map((tool) => tool.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) return { ok: false, message: `two tools are called "${twice}"` };
  const setup: MeterSetup = { tools, options: {} };
  const problem = setupProblem(setup);
  return problem ? { ok: false, message: problem } : { ok: true, setup };
}

/** Same label the NPC gives itself in the prompt. */
function speakerLabel(name: string): string {
  const clean = name
    .replace(/[:\n\r]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean || 'NPC';
}

function asPersona(value: unknown): Persona {
  return (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Persona;
}

/** The NPC's stable prefix for one persona and set-up, as the runtime lays it out for Gemini Nano. */
interface NpcPrefix {
  persona: Persona;
  normalized: ReturnType<typeof normalizePersona>;
  options: ResolvedNPCOptions;
  rules: ReturnType<typeof npcInstructionRules>;
  relationship: number;
  character: ReturnType<typeof npcCharacterInstructions>;
  /** The tool section: the catalog's paragraph (when there are tools), then the reply rules. */
  section: string;
  systemInstruction: string;
  promptPrefix: string;
}

function npcPrefix(persona: Persona, setup: MeterSetup): NpcPrefix {
  const normalized = normalizePersona(persona);
  const options = resolveNPCOptions(setup.options);
  const tools = npcToolCatalog(setup, options);
  // The NPC's own rules: the check-your-facts rule only with a tool that looks facts up, secrets, extras.
  const rules = npcInstructionRules(options, tools);
  const relationship = setup.relationship ?? 0;
  const character = npcCharacterInstructions({ persona, rules, options, relationship });
  const instructions = character.text;
  // Text replies carry no reply schema: the emotion tag rule above replaces it.
  const replySchema = options.replyFormat === 'text' ? undefined : npcReplySchema(options, normalized.maxSentences);
  const labels = { user: 'Player', assistant: speakerLabel(normalized.name) };
  const section = renderToolSection({
    instructions,
    tools,
    labels,
    inlineReplies: options.inlineReplies,
    lineFirst: true,
    replyLineField: NPC_LINE_FIELD,
    replySchema,
  });
  // Gemini Nano takes system instructions, so the runtime splits the prefix this way.
  const systemInstruction = instructions.trim();
  const promptPrefix = section ? `${section}\n\n` : '';
  return { persona, normalized, options, rules, relationship, character, section, systemInstruction, promptPrefix };
}

/** The character instructions for another persona (a field left out) or other rules. */
function instructionsWith(
  prefix: NpcPrefix,
  variant: { persona: Persona; extra: string | undefined; secretsInPrefix?: boolean },
): string {
  const { rules, options, relationship } = prefix;
  return npcCharacterInstructions({
    persona: variant.persona,
    rules: { ...rules, secretsInPrefix: variant.secretsInPrefix ?? rules.secretsInPrefix, extra: variant.extra },
    options,
    relationship,
  }).text;
}

/**
 * Rows by cumulative texts (the persona, then the answer rules, then the tool catalog, the
 * section's first paragraph when there are tools), so they add up to the runtime's own count.
 */
function prefixRows({ systemInstruction, promptPrefix, section }: NpcPrefix): {
  prefixTokens: number;
  personaTokens: number;
  replyFormatTokens: number;
  toolsTokens: number;
} {
  const prefixTokens = estimateTokens(systemInstruction + promptPrefix);
  const personaTokens = estimateTokens(systemInstruction);
  const catalogEnd = section.startsWith('Tools') ? section.indexOf('\n\n') : -1;
  const withoutCatalog = catalogEnd >= 0 ? section.slice(catalogEnd + 2) : section;
  const replyFormatTokens =
    estimateTokens(systemInstruction + (withoutCatalog ? `${withoutCatalog}\n\n` : '')) - personaTokens;
  const toolsTokens = prefixTokens - personaTokens - replyFormatTokens;
  return { prefixTokens, personaTokens, replyFormatTokens, toolsTokens };
}

/** Secrets kept out of the prefix until the relationship unlocks them: what telling them adds. */
function secretsToldTokens(prefix: NpcPrefix): number {
  if (prefix.rules.secretsInPrefix || prefix.normalized.secrets.length === 0) return 0;
  const guarded = instructionsWith(prefix, {
    persona: prefix.persona,
    extra: prefix.rules.extra,
    secretsInPrefix: true,
  });
  return estimateTokens(guarded) - estimateTokens(prefix.character.text);
}

/** The bar's parts with tokens (persona fields, tools, reply format, secrets told) and the largest. */
function meterParts(
  prefix: NpcPrefix,
  tokens: { toolsTokens: number; replyFormatTokens: number; secretsTokens: number },
): Pick<MeterFigures, 'parts' | 'largestPart'> {
  const extraRules = prefix.rules.extra;
  const parts = personaParts(
    prefix.persona,
    (variant, extra) => instructionsWith(prefix, { persona: variant, extra }).trim(),
    extraRules,
  );
  parts.push(
    { key: 'tools', group: 'tools', tokens: tokens.toolsTokens },
    { key: 'replyFormat', group: 'replyFormat', tokens: tokens.replyFormatTokens },
  );
  if (tokens.secretsTokens > 0) parts.push({ key: 'secrets', group: 'secrets', tokens: tokens.secretsTokens });
  const shown = parts.filter((entry) => entry.tokens > 0);
  const largestPart = shown.reduce(
    (largest, candidate) => (candidate.tokens > largest.tokens ? candidate : largest),
    shown[0],
  );
  return { parts: shown, largestPart };
}

/**
 * Measures a persona (valid or still being typed: odd fields count as absent) with an NPC
 * set-up, using the runtime's estimate of 4 characters per token. Throws, as the NPC would,
 * for a set-up a real NPC refuses (check with `setupProblem` first).
 */
export function measurePersona(personaValue: unknown, setup: MeterSetup): MeterFigures {
  const prefix = npcPrefix(asPersona(personaValue), setup);
  const { normalized, character } = prefix;
  const { prefixTokens, personaTokens, replyFormatTokens, toolsTokens } = prefixRows(prefix);
  const secretsTokens = secretsToldTokens(prefix);
  const { parts, largestPart } = meterParts(prefix, { toolsTokens, replyFormatTokens, secretsTokens });
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
    parts,
    largestPart,
    systemInstruction: prefix.systemInstruction,
    promptPrefix: prefix.promptPrefix,
    stages: normalized.stages.map((stage) => ({
      name: stage.name,
      from: stage.from,
      to: stage.to,
      tokens: estimateTokens(renderStage(stage)),
    })),
    stage: character.stageIndex >= 0 ? normalized.stages[character.stageIndex].name : '',
    sampleLinesShown: character.sampleLinesShown,
    sampleLinesDropped: character.sampleLinesDropped,
  };
}

/** The sample lines' block as the prefix holds it (within the NPC's budget), for a "show" view. */
export function sampleLinesText(personaValue: unknown, setup: MeterSetup): string {
  const options = resolveNPCOptions(setup.options);
  return renderSampleLines(normalizePersona(asPersona(personaValue)).sampleLines, options.sampleLineTokens).text;
}

export function levelOf(share: number): MeterLevel {
  if (share > 1) return 'over';
  if (share > DANGER_SHARE) return 'danger';
  if (share > WARN_SHARE) return 'warn';
  return 'ok';
}
