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
import type { WorldState } from '../../src/game/world';
import { MemoryStage, NPCMemory } from '../../src/game/memory';
import { npcInstructionRules, npcToolSet } from '../../src/game/npc/agent-parts';
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

export type ToolPreset = 'none' | 'tavern' | 'custom' | 'npc';
/** 'over': the fixed prompt alone is past the usable budget, so every turn fails. */
export type MeterLevel = 'ok' | 'warn' | 'danger' | 'over';

/**
 * One slice of the bar. Persona fields are keyed by their field name; `rules` is the name and
 * the fixed rules every persona gets, `extra` the NPC's extra instructions (and the text-reply
 * rule), `secrets` the secrets once told (when they are not in the prefix).
 */
export type MeterPartKey =
  | 'rules'
  | 'role'
  | 'personality'
  | 'speakingStyle'
  | 'backstory'
  | 'goals'
  | 'knowledge'
  | 'secrets'
  | 'maxSentences'
  | 'sampleLines'
  | 'stages'
  | 'extra'
  | 'tools'
  | 'replyFormat';

export interface MeterPart {
  key: MeterPartKey;
  /** 'persona': a slice of the persona instructions row; the others are their own rows. */
  group: 'persona' | 'tools' | 'replyFormat' | 'secrets';
  tokens: number;
}

/**
 * An NPC set-up to measure the persona with, in the form `new NPC({...})` takes it: the game's
 * own tools, the world it is given and its options. The world and memory tools are added from
 * these the way the NPC adds them (`npcToolCatalog`).
 */
export interface MeterSetup {
  tools: AgentTool[];
  /** Without a world the NPC has no world tools, whatever its world paths say. */
  world?: WorldState;
  options: NPCOptions;
  /** The relationship to measure at (default 0): it picks the persona's stage. */
  relationship?: number;
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
  /**
   * The bar's slices in prompt order: the fixed rules, persona fields in schema order, the
   * NPC's extra instructions, tools, reply format, secrets once told. They add up to prefix +
   * secrets; empty ones are left out.
   */
  parts: MeterPart[];
  /** The part with the most tokens (the one to shorten first). */
  largestPart: MeterPart;
  /** The texts that were counted, for a "show prompt" view and for tests. */
  systemInstruction: string;
  promptPrefix: string;
  /** What each relationship stage's line costs in the prefix while the NPC is at it, lowest first. */
  stages: Array<{ name: string; from: number; to: number; tokens: number }>;
  /** The stage measured (its name), or '' for none. */
  stage: string;
  /** Sample lines in the prefix, and those past their token budget (left out). */
  sampleLinesShown: number;
  sampleLinesDropped: number;
}

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

/**
 * Measures a persona (valid or still being typed: odd fields count as absent) with an NPC
 * set-up, using the runtime's estimate of 4 characters per token. Throws, as the NPC would,
 * for a set-up a real NPC refuses (check with `setupProblem` first).
 */
export function measurePersona(personaValue: unknown, setup: MeterSetup): MeterFigures {
  const persona = asPersona(personaValue);
  const normalized = normalizePersona(persona);
  const options = resolveNPCOptions(setup.options);
  const tools = npcToolCatalog(setup, options);
  // The NPC's own rules: the check-your-facts rule only with a tool that looks facts up, secrets, extras.
  const rules = npcInstructionRules(options, tools);
  const secretsInPrefix = rules.secretsInPrefix;
  const extraRules = rules.extra;
  const relationship = setup.relationship ?? 0;
  const render = (shown: Persona, extra: string | undefined, withSecrets = secretsInPrefix): string =>
    npcCharacterInstructions({
      persona: shown,
      rules: { ...rules, secretsInPrefix: withSecrets, extra },
      options,
      relationship,
    }).text;
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
  const prefixTokens = estimateTokens(systemInstruction + promptPrefix);

  // Rows by cumulative texts (the persona, then the answer rules, then the tool catalog, the
  // section's first paragraph when there are tools), so they add up to the runtime's own count.
  const personaTokens = estimateTokens(systemInstruction);
  const catalogEnd = section.startsWith('Tools') ? section.indexOf('\n\n') : -1;
  const withoutCatalog = catalogEnd >= 0 ? section.slice(catalogEnd + 2) : section;
  const replyFormatTokens =
    estimateTokens(systemInstruction + (withoutCatalog ? `${withoutCatalog}\n\n` : '')) - personaTokens;
  const toolsTokens = prefixTokens - personaTokens - replyFormatTokens;

  let secretsTokens = 0;
  if (!secretsInPrefix && normalized.secrets.length > 0) {
    const guarded = render(persona, extraRules, true);
    secretsTokens = estimateTokens(guarded) - estimateTokens(instructions);
  }

  const parts = personaParts(persona, (variant, extra) => render(variant, extra).trim(), extraRules);
  parts.push(
    { key: 'tools', group: 'tools', tokens: toolsTokens },
    { key: 'replyFormat', group: 'replyFormat', tokens: replyFormatTokens },
  );
  if (secretsTokens > 0) parts.push({ key: 'secrets', group: 'secrets', tokens: secretsTokens });
  const shown = parts.filter((entry) => entry.tokens > 0);
  const largestPart = shown.reduce(
    (largest, candidate) => (candidate.tokens > largest.tokens ? candidate : largest),
    shown[0],
  );

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
    parts: shown,
    largestPart,
    systemInstruction,
    promptPrefix,
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

/** Persona fields that show in the instructions, in the schema's order (the others cost nothing). */
const PART_FIELDS = [
  'role',
  'personality',
  'speakingStyle',
  'backstory',
  'goals',
  'knowledge',
  'secrets',
  'maxSentences',
  'sampleLines',
  'stages',
] as const;

/**
 * The persona instructions split by field: rendered with the fields added one by one, each
 * field getting the tokens its addition costs (by cumulative texts, so the slices add up to
 * the instructions' own count). A field whose addition shortens the text (one sentence
 * instead of two) gives its difference back to the fixed rules.
 */
function personaParts(
  persona: Persona,
  render: (p: Persona, extra: string | undefined) => string,
  extra: string | undefined,
): MeterPart[] {
  const source = persona as unknown as Record<string, unknown>;
  const partial: Record<string, unknown> = { name: source.name };
  let before = estimateTokens(render(partial as unknown as Persona, undefined));
  const rules: MeterPart = { key: 'rules', group: 'persona', tokens: before };
  const parts: MeterPart[] = [rules];
  const add = (key: MeterPartKey, text: string): void => {
    const after = estimateTokens(text);
    const tokens = after - before;
    before = after;
    if (tokens < 0) rules.tokens += tokens;
    else parts.push({ key, group: 'persona', tokens });
  };
  for (const field of PART_FIELDS) {
    if (source[field] === undefined) continue;
    partial[field] = source[field];
    add(field, render(partial as unknown as Persona, undefined));
  }
  if (extra) add('extra', render(partial as unknown as Persona, extra));
  return parts;
}

export function levelOf(share: number): MeterLevel {
  if (share > 1) return 'over';
  if (share > DANGER_SHARE) return 'danger';
  if (share > WARN_SHARE) return 'warn';
  return 'ok';
}
