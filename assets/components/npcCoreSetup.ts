/**
 * What an NPCComponent's NPC is built from: the persona asset read and checked, and the model,
 * tools, world and options of the Inspector's set-up (or of its profile).
 */
import type { JsonAsset } from 'cc';
import {
  AgentError,
  NPC,
  validatePersona,
  formatPersonaProblems,
  npcSetupFromInspector,
  isSameCharacter,
} from '../runtime/oam-core.js';
import type {
  AgentTool,
  LanguageModel,
  NPCSaveState,
  NPCInspectorProperties,
  NPCOptions,
  NPCProfileParts,
  Persona,
  ToolCall,
  ToolVerdict,
  WorldState,
} from '../runtime/oam-core.js';
import { DEV } from 'cc/env';
import { OamRuntime } from './OamRuntime';
import { GAME_TIME_CLOCK } from './gameTimeClock';
import { characterModel, type Answerer } from './characterModel';

/** The persona asset as a checked persona; throws what is wrong with it. */
export function readPersonaAsset(asset: JsonAsset | null): Persona {
  if (!asset)
    throw new AgentError('invalid_request', 'no persona asset; set the Persona property to a persona JSON asset.');
  const check = validatePersona(asset.json);
  if (!check.ok)
    throw new AgentError(
      'invalid_request',
      `the persona asset "${asset.name}" is not a valid persona: ${formatPersonaProblems(check.problems)}`,
    );
  return check.persona;
}

export interface CoreSetupInput {
  persona: Persona;
  /** The profile's parts, when the component has a profile asset (they win over the Inspector). */
  parts?: NPCProfileParts;
  /** The WorldStateStore's world, if the component has one. */
  world?: WorldState;
  inspector: NPCInspectorProperties;
  lineBank: JsonAsset | null;
  /** The tools added with registerTool(), after the set-up's own. */
  localTools: AgentTool[];
  nodeName: string;
  approve: (call: ToolCall) => ToolVerdict | Promise<ToolVerdict>;
}

export interface CoreSetup {
  /** What `new NPC({...})` and `NPC.restore()` take besides the persona and the memory. */
  npc: {
    model: LanguageModel;
    tools: AgentTool[];
    world?: WorldState;
    options: NPCOptions;
    toolClock: typeof GAME_TIME_CLOCK;
    approveToolCall: (call: ToolCall) => ToolVerdict | Promise<ToolVerdict>;
  };
  /** The set-up's own tools (the Inspector's declarations or the profile's). */
  setupTools: AgentTool[];
  /** Who answers the character once an NPC of this set-up exists. */
  answers: () => Answerer;
}

export function coreSetup(input: CoreSetupInput): CoreSetup {
  const { parts, inspector } = input;
  let world: WorldState | undefined;
  if (parts) world = parts.world;
  else if (input.world) world = input.world;
  else if ((inspector.worldWritable ?? []).length > 0 || (inspector.worldContextPaths ?? []).length > 0) {
    console.warn(
      `[oam] NPCComponent on "${input.nodeName}" has world paths but no WorldStateStore; it talks without world tools.`,
    );
  }
  const { options, tools } = parts ?? npcSetupFromInspector(inspector);
  // In a shipped build a player without an on-device model hears the line bank (or the
  // persona's own lines), never the built-in stand-in's developer text.
  const chosen = characterModel({
    place: DEV ? 'preview' : 'shipped',
    shared: OamRuntime.model,
    sharedKind: () => OamRuntime.kind,
    gameStandIn: () => OamRuntime.config.standIn !== undefined,
    bank: input.lineBank ? input.lineBank.json : undefined,
    persona: input.persona,
  });
  return {
    npc: {
      model: chosen.model,
      tools: tools.concat(input.localTools),
      world,
      options,
      toolClock: GAME_TIME_CLOCK,
      approveToolCall: input.approve,
    },
    setupTools: tools,
    answers: () => chosen.answers(),
  };
}

/** The Inspector properties the shared mapping reads (the editor's preview and meter read the same ones). */
export function inspectorPropertiesOf(source: NPCInspectorProperties): NPCInspectorProperties {
  return {
    worldReadable: source.worldReadable,
    worldWritable: source.worldWritable,
    worldContextPaths: source.worldContextPaths,
    groundingTool: source.groundingTool,
    replyFormat: source.replyFormat,
    rememberFacts: source.rememberFacts,
    trackRelationship: source.trackRelationship,
    secretsUnlockAt: source.secretsUnlockAt,
    secretsAlwaysGuarded: source.secretsAlwaysGuarded,
    emotions: source.emotions,
    playerOptionCount: source.playerOptionCount,
    canEndConversation: source.canEndConversation,
    fallbackLines: source.fallbackLines,
    externalTools: source.externalTools,
    extraInstructions: source.extraInstructions,
    externalToolTimeoutMs: source.externalToolTimeoutMs,
    toolTimeoutMs: source.toolTimeoutMs,
    priority: source.priority,
  };
}

/** Loads the model ahead of the first reply; a failure only makes that reply slower, so it is logged, never thrown. */
export function prewarmQuietly(npc: NPC, name: string): void {
  npc
    .prewarm()
    .catch((error: unknown) =>
      console.warn(
        `[oam] ${name}: the model could not be warmed up (${error instanceof Error ? error.message : String(error)}).`,
      ),
    );
}

/**
 * The NPC a rebuild makes. Memory and conversation stay with the character: an updated asset of
 * the same name keeps the previous NPC's, an asset of another character starts fresh (as
 * restore() refuses such a save).
 */
export function rebuiltNPC(input: {
  persona: Persona;
  parts?: NPCProfileParts;
  setup: CoreSetup;
  saved?: NPCSaveState;
}): NPC {
  const { persona, parts, saved } = input;
  const kept = saved && isSameCharacter(saved.persona.name, persona.name) ? saved : undefined;
  const memory = kept ? kept.memory : parts ? parts.memory : undefined;
  return new NPC({ persona, ...input.setup.npc, memory, transcript: kept ? kept.transcript : undefined });
}

/**
 * The NPC a restore() makes from a save, with the assets' persona when they give one (an updated
 * asset in a patched game wins over the saved one), else the save's own.
 */
export function restoredNPC(input: {
  saved: unknown;
  persona?: Persona;
  setupFor: (persona: Persona) => CoreSetup;
  acceptOtherPersona: boolean;
  nodeName: string;
}): NPC {
  const savedPersona = (input.saved as { persona?: Persona } | null)?.persona;
  const persona = (input.persona ?? savedPersona ?? { name: input.nodeName }) as Persona;
  const options = {
    ...input.setupFor(persona).npc,
    persona: input.persona,
    acceptOtherPersona: input.acceptOtherPersona,
  };
  return NPC.restore(input.saved, options);
}
