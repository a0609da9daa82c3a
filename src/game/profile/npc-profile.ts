/**
 * An NPC profile (schemas/npc-profile.schema.json): everything an NPC in a scene has, in one
 * file: its persona (a path or inline), its tools, its world and its options. `loadNPCProfile`
 * turns one into the parts `new NPC({...})` takes, refusing a bad profile with an
 * `invalid_request` that names the field (`profile.tools[1].answer: …`) before any model call.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { AgentError } from '../../contract/errors';
import { readJsonInput } from '../../core/json';
import { checkToolSet, type AgentTool } from '../../core/tools';
import profileSchema from '../../../schemas/npc-profile.schema.json';
import { parsePersona, type Persona } from '../persona';
import { WorldState } from '../world';
import type { NPCMemoryState } from '../memory';
import { resolveNPCOptions, type NPCOptions } from '../npc/npc-options';
import { npcToolSet } from '../npc/agent-parts';
import { MemoryStage, NPCMemory } from '../memory';
import { profileTool, type ProfileToolDeclaration, type ProfileToolHandler } from './rule-tools';

export { profileSchema as NPC_PROFILE_SCHEMA };

export interface NPCProfile {
  $schema?: string;
  version?: 1;
  /** A path (relative to the profile) or the persona itself. */
  persona: string | Persona;
  tools?: ProfileToolDeclaration[];
  world?: { initial?: Record<string, unknown>; readable?: string[]; writable?: string[]; contextPaths?: string[] };
  memory?: { relationship?: number; facts?: string[]; summary?: string };
  options?: Omit<NPCOptions, 'worldReadable' | 'worldWritable' | 'worldContextPaths'>;
  /** Previews only: a keyword stand-in the host registers by name (default: one built from the persona and tools). */
  standIn?: string;
  /** Previews only: what the player says, in order, in the demo. */
  playerLines?: string[];
}

export interface LoadProfileOptions {
  /**
   * Reads the persona a profile names by path (the command line reads the file beside the
   * profile, the editor the asset). Without it, a profile must hold its persona inline.
   */
  readPersona?: (path: string) => unknown;
  /** Game code a tool may name (`"answer": {"handler": "take_order"}`), by name. */
  handlers?: Record<string, ProfileToolHandler>;
  /**
   * The world to use instead of a new one (a scene's shared state, as an NPCComponent has):
   * the profile's initial values are set only for the top-level keys it does not hold yet, so
   * the scene's own values win and two NPCs of one profile share one world.
   */
  world?: WorldState;
}

/** How the keyword stand-in may call one of the profile's tools. */
export interface ProfileStandInTool {
  name: string;
  description: string;
  /** Words of the player's line that call it (default: the words of its name). */
  words?: string[];
  /** Its arguments; one with an enum takes the value the player names. */
  args?: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

/** What `new NPC({...})` takes, from one profile. */
export interface NPCProfileParts {
  persona: Persona;
  tools: AgentTool[];
  world?: WorldState;
  options: NPCOptions;
  memory?: NPCMemoryState;
  /** The profile's own tools as the persona stand-in calls them. */
  standInTools: ProfileStandInTool[];
  /** The profile as checked (its persona still as written: a path or an object). */
  profile: NPCProfile;
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(profileSchema as object);
  return compiled;
}

function fieldOf(instancePath: string): string {
  return `profile${instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
}

/** One sentence per problem, the one under `answer` said once in words (ajv's oneOf says it three ways). */
function schemaProblems(errors: readonly ErrorObject[]): string[] {
  const out: string[] = [];
  const push = (text: string) => {
    if (out.indexOf(text) < 0) out.push(text);
  };
  for (const error of errors) {
    const answer = /^(\/tools\/\d+\/answer)(\/|$)/.exec(error.instancePath);
    if (answer) {
      push(
        `${fieldOf(answer[1])}: must be "external", {"handler": "name"} or a rule table {"result", "error", "set", "cases": [{"when": {…}, "result": …}]}`,
      );
      continue;
    }
    const params = error.params as Record<string, unknown>;
    const field = fieldOf(error.instancePath);
    if (error.keyword === 'additionalProperties')
      push(`${field}.${String(params.additionalProperty)}: is not a field here`);
    else if (error.keyword === 'required') push(`${field}.${String(params.missingProperty)}: is required`);
    else push(`${field}: ${error.message ?? 'is not valid'}`);
  }
  return out;
}

function refuse(message: string): never {
  throw new AgentError('invalid_request', message);
}

/** Checks a profile (an object or its JSON text) against the schema; throws naming every bad field. */
export function readNPCProfile(input: unknown): NPCProfile {
  const value = readJsonInput(input, 'The NPC profile');
  if (!value || typeof value !== 'object' || Array.isArray(value))
    refuse('An NPC profile is a JSON object with at least a "persona" (a path or the persona itself).');
  const validate = validator();
  if (!validate(value)) refuse(schemaProblems(validate.errors ?? []).join('; '));
  return value as NPCProfile;
}

function loadPersona(profile: NPCProfile, options: LoadProfileOptions): Persona {
  const source = profile.persona;
  if (typeof source !== 'string') {
    try {
      return parsePersona(source);
    } catch (error) {
      return refuse(`profile.persona: ${AgentError.from(error).message}`);
    }
  }
  if (!source.trim()) refuse('profile.persona: give the path of the persona file, or the persona itself');
  if (!options.readPersona)
    refuse(`profile.persona names the file ${JSON.stringify(source)}, but nothing here reads files: inline it`);
  let read: unknown;
  try {
    read = options.readPersona(source);
  } catch (error) {
    return refuse(`profile.persona (${source}): ${AgentError.from(error).message}`);
  }
  try {
    return parsePersona(read);
  } catch (error) {
    return refuse(`profile.persona (${source}): ${AgentError.from(error).message}`);
  }
}

function initialValues(profile: NPCProfile): Record<string, unknown> {
  return JSON.parse(JSON.stringify(profile.world?.initial ?? {})) as Record<string, unknown>;
}

/** A new world of the profile's initial values, or the shared one given (seeded once all checks pass). */
function loadWorld(profile: NPCProfile, shared: WorldState | undefined): WorldState | undefined {
  if (shared || !profile.world) return shared;
  try {
    return new WorldState(initialValues(profile));
  } catch (error) {
    return refuse(`profile.world.initial: ${AgentError.from(error).message}`);
  }
}

/** The profile's initial values for the top-level keys a shared world does not hold yet. */
function seedSharedWorld(profile: NPCProfile, shared: WorldState): void {
  const initial = initialValues(profile);
  const held = shared.keys() ?? [];
  for (const key of Object.keys(initial)) if (held.indexOf(key) < 0) shared.set(key, initial[key]);
}

function loadOptions(profile: NPCProfile): NPCOptions {
  const options: NPCOptions = { ...(profile.options ?? {}) };
  const world = profile.world;
  if (world?.readable) options.worldReadable = world.readable.slice();
  if (world?.writable) options.worldWritable = world.writable.slice();
  if (world?.contextPaths) options.worldContextPaths = world.contextPaths.slice();
  try {
    resolveNPCOptions(options);
  } catch (error) {
    const message = AgentError.from(error).message.replace(/^NPC option /, '');
    refuse(`profile.options: ${message}`);
  }
  return options;
}

function loadMemory(profile: NPCProfile): NPCMemoryState | undefined {
  if (!profile.memory) return undefined;
  return new NPCMemory({
    relationship: profile.memory.relationship ?? 0,
    facts: (profile.memory.facts ?? []).slice(),
    summary: profile.memory.summary ?? '',
  }).snapshot();
}

function standInOf(declaration: ProfileToolDeclaration, tool: AgentTool): ProfileStandInTool {
  const out: ProfileStandInTool = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters.json as Record<string, unknown>,
  };
  if (declaration.standIn?.words) out.words = declaration.standIn.words.slice();
  if (declaration.standIn?.args) out.args = { ...declaration.standIn.args };
  return out;
}

/**
 * The NPC parts of a profile: its persona, tools, world, options and starting memory, checked
 * together as the NPC checks them (a tool named like a built-in one, a grounding tool it does
 * not have, two tools of one name), so a profile that loads makes an NPC that starts.
 */
export function loadNPCProfile(input: unknown, options: LoadProfileOptions = {}): NPCProfileParts {
  const profile = readNPCProfile(input);
  const persona = loadPersona(profile, options);
  const world = loadWorld(profile, options.world);
  const npcOptions = loadOptions(profile);
  const handlers = options.handlers ?? {};
  const declarations = profile.tools ?? [];
  const tools = declarations.map((declaration, index) =>
    profileTool(declaration, { world, handlers, where: `profile.tools[${index}] (${declaration.name})` }),
  );
  try {
    const resolved = resolveNPCOptions(npcOptions);
    const memory = new NPCMemory();
    checkToolSet(
      npcToolSet({
        gameTools: tools,
        world,
        options: resolved,
        stage: new MemoryStage({ maxFacts: resolved.maxFacts }),
        memory: () => memory.snapshot(),
      }),
    );
  } catch (error) {
    refuse(`profile: ${AgentError.from(error).message}`);
  }
  // Only a profile that loads changes the scene's world.
  if (options.world && profile.world) seedSharedWorld(profile, options.world);
  const parts: NPCProfileParts = {
    persona,
    tools,
    options: npcOptions,
    standInTools: declarations.map((declaration, index) => standInOf(declaration, tools[index])),
    profile,
  };
  if (world) parts.world = world;
  const memory = loadMemory(profile);
  if (memory) parts.memory = memory;
  return parts;
}
