/**
 * `npc/create` and `npc/restore`: an NPC is built and checked in full (persona, options, tools,
 * world, memory, model) before it is registered, so a refused request leaves nothing behind.
 */
import { setOwnKey } from '../core/json';
import { NPC, resolveNPCOptions, readSaveState } from '../game/npc';
import { parsePersona, type Persona } from '../game/persona';
import { worldStateTools } from '../game/world';
import { parseMemoryState, type NPCMemoryState } from '../game/memory';
import { invalidParams, readingParams } from './errors';
import { npcId } from './ids';
import { resolveModel } from './models';
import { ObjectQueue } from './object-queue';
import { readNpcOptions, visibleTools } from './npc-options';
import type { BridgeNpc, NpcMethodContext } from './npc-registry';
import { isRecord, ParamReader, type JsonRecord } from './params';
import { shown } from './shown';
import { MANY_TOOLS, readWireTools, toAgentTool, type WireTool } from './tool-definitions';

interface NpcSetup {
  id: string;
  persona: Persona;
  options: JsonRecord;
  tools: WireTool[];
  world?: string;
  memory?: NPCMemoryState;
  transcript?: unknown;
  model: unknown;
}

/**
 * A native script written for the seed's NPC replies (`player_options`, `ends_conversation`)
 * plays here too: its json steps are given our reply's keys (`options`, `end`).
 */
function withOurReplyKeys(spec: unknown): unknown {
  if (!isRecord(spec) || spec.type !== 'scripted') return spec;
  const out: JsonRecord = { ...spec };
  if (Array.isArray(spec.steps)) out.steps = spec.steps.map(stepWithOurReplyKeys);
  if (spec.fallback !== undefined) out.fallback = stepWithOurReplyKeys(spec.fallback);
  return out;
}

function stepWithOurReplyKeys(raw: unknown): unknown {
  if (!isRecord(raw) || !isRecord(raw.json)) return raw;
  const json: JsonRecord = {};
  for (const [key, value] of Object.entries(raw.json)) {
    const ours = key === 'player_options' ? 'options' : key === 'ends_conversation' ? 'end' : key;
    if (ours === key || raw.json[ours] === undefined) setOwnKey(json, ours, value);
  }
  return { ...raw, json };
}

/** Builds (but does not register) an NPC; everything is checked before it exists. */
function buildNpc(context: NpcMethodContext, setup: NpcSetup, warnings: string[]): BridgeNpc {
  const { bridge, worlds } = context;
  const { npcOptions, toolTimeoutSeconds } = readNpcOptions(setup.options, warnings);
  const world = setup.world === undefined ? undefined : worlds.get(setup.world);
  const model = resolveModel(withOurReplyKeys(setup.model), bridge.models);
  warnings.push(...model.warnings);
  const npc = readingParams(
    () =>
      new NPC({
        persona: setup.persona,
        model: model.model,
        world: world?.state,
        options: npcOptions,
        tools: setup.tools.map((tool) => toAgentTool(tool)),
        memory: setup.memory,
        transcript: setup.transcript,
      }),
  );
  const entry: BridgeNpc = {
    id: setup.id,
    npc,
    persona: setup.persona,
    options: setup.options,
    tools: setup.tools,
    model: model.model,
    modelName: model.name,
    queue: new ObjectQueue(),
    createdAt: bridge.createdAt(),
    toolTimeoutSeconds: toolTimeoutSeconds ?? bridge.defaultToolTimeoutSeconds,
  };
  if (setup.world !== undefined) entry.world = setup.world;
  return entry;
}

/** Registers a built NPC; the result names every tool its model sees. */
function registerNpc(context: NpcMethodContext, entry: BridgeNpc, warnings: string[]) {
  context.registry.npcs.set(entry.id, entry);
  const { npcOptions } = readNpcOptions(entry.options, []);
  const resolved = resolveNPCOptions(npcOptions);
  const worldTools =
    entry.world === undefined
      ? []
      : worldStateTools(context.worlds.get(entry.world).state, {
          readable: resolved.worldReadable,
          writable: resolved.worldWritable,
        }).map((tool) => tool.name);
  const visible = visibleTools(npcOptions, entry.tools, worldTools);
  // As for sessions, counting every tool the model sees (the world's and memory's too).
  if (visible.length > MANY_TOOLS && !warnings.some((warning) => warning.startsWith(`${visible.length} tools:`)))
    warnings.push(`${visible.length} tools: more than ${MANY_TOOLS} make a small on-device model choose worse.`);
  return { npc: entry.id, tools: visible, warnings };
}

function readMemory(raw: unknown): NPCMemoryState | undefined {
  return raw === undefined ? undefined : readingParams(() => parseMemoryState(raw));
}

export function createNpc(context: NpcMethodContext, raw: unknown) {
  const { registry } = context;
  const params = new ParamReader(raw);
  const id = npcId(params.string('npc') ?? registry.nextId());
  registry.checkRoom(id);
  const personaRaw = params.any('persona');
  if (personaRaw === undefined) throw invalidParams('params.persona is required (at least {"name": …}).');
  const persona = readingParams(() => parsePersona(personaRaw));
  const { tools, warnings } = readWireTools(params.any('tools'));
  const setup: NpcSetup = {
    id,
    persona,
    options: params.object('options') ?? {},
    tools,
    world: params.string('world'),
    memory: readMemory(params.any('memory')),
    model: params.any('model'),
  };
  warnings.push(...params.unknownWarnings());
  return registerNpc(context, buildNpc(context, setup, warnings), warnings);
}

export function restoreNpc(context: NpcMethodContext, raw: unknown) {
  const { registry, worlds } = context;
  const params = new ParamReader(raw);
  const sent = params.any('state');
  // The whole npc/state result ({npc, state}) is accepted too, as the seed does.
  const stateRaw = isRecord(sent) && isRecord(sent.state) && sent.persona === undefined ? sent.state : sent;
  if (!isRecord(stateRaw)) throw invalidParams("params.state is required (an npc/state result's state).");
  const saved = readingParams(() => readSaveState(stateRaw));
  const warnings: string[] = [];
  const id = npcId(params.string('npc') ?? (typeof stateRaw.npc === 'string' ? stateRaw.npc : registry.nextId()));
  registry.checkRoom(id);
  const toolsRaw = params.has('tools') ? params.any('tools') : stateRaw.tools;
  const { tools, warnings: toolWarnings } = readWireTools(toolsRaw);
  warnings.push(...toolWarnings);
  // What the request sends wins (even null); else the saved world, if it still exists.
  let world = params.string('world');
  if (world === undefined && !params.has('world') && typeof stateRaw.world === 'string') {
    if (worlds.worlds.has(stateRaw.world)) world = stateRaw.world;
    else warnings.push(`The saved world "${shown(stateRaw.world)}" no longer exists; the NPC was restored without it.`);
  }
  const options = params.has('options')
    ? (params.object('options') ?? {})
    : isRecord(stateRaw.options)
      ? stateRaw.options
      : {};
  const setup: NpcSetup = {
    id,
    persona: saved.persona,
    options,
    tools,
    world,
    memory: saved.memory,
    transcript: saved.transcript,
    model: params.any('model'),
  };
  warnings.push(...params.unknownWarnings());
  return registerNpc(context, buildNpc(context, setup, warnings), warnings);
}
