/**
 * `npc/*` (reference §3.3): NPCs by id over the game layer's NPC, each with its own queue
 * (talk, update, reset and state in arrival order), `npc/event` streams whose line deltas and
 * resets add up exactly to `result.line`, and client tools over `tool/call`.
 */
import { setOwnKey } from '../core/json';
import type { LanguageModel } from '../contract/language-model';
import { parseToolChoice } from '../core/agent';
import { NPC, resolveNPCOptions, readSaveState, type NPCEvent, type NPCOptions, type DialogueTurn } from '../game/npc';
import { parsePersona, type Persona } from '../game/persona';
import { worldStateTools } from '../game/world';
import {
  CHANGE_RELATIONSHIP_TOOL,
  REMEMBER_FACT_TOOL,
  emptyMemory,
  parseMemoryState,
  type NPCMemoryState,
} from '../game/memory';
import { clientToolHandler, type BridgeContext, type MethodGroup, type RequestInfo } from './context';
import { BridgeError, invalidParams, readingParams } from './errors';
import { npcId } from './ids';
import { mergePatch } from './merge-patch';
import { resolveModel } from './models';
import { ObjectQueue } from './object-queue';
import { isRecord, ParamReader, type JsonRecord } from './params';
import { MANY_TOOLS, readWireTools, toAgentTool, type WireTool } from './tool-definitions';
import { callOnWire, toolRecordOnWire, usageOnWire } from './wire-shapes';
import type { WorldRegistry } from './world-methods';
import { shown } from './shown';

export const MAX_NPCS = 128;

/** NPCOptions the wire takes as they are; `toolTimeoutSeconds` is the bridge's own. */
const NPC_OPTION_KEYS = [
  'toolChoice',
  'groundingTool',
  'maxToolRounds',
  'maxToolCalls',
  'worldReadable',
  'worldWritable',
  'worldContextPaths',
  'memoryTools',
  'maxFacts',
  'maxRelationshipChange',
  'secretsUnlockAtRelationship',
  'replyFormat',
  'emotions',
  'playerOptionCount',
  'canEndConversation',
  'extraInstructions',
  'compactAfterTurns',
  'keepRecentTurns',
  'fallbackOnFailure',
  'fallbackLines',
  'temperature',
  'maxResponseTokens',
  'barkMaxTokens',
  'inlineReplies',
  'toolTimeoutMs',
  'priority',
  'toolTimeoutSeconds',
];

/** The seed's wire names for options ours names otherwise (reference §1.2), read as ours. */
const SEED_OPTION_NAMES: Record<string, string> = {
  fallbackOnGuardrail: 'fallbackOnFailure',
  maximumResponseTokens: 'maxResponseTokens',
  barkMaximumTokens: 'barkMaxTokens',
};

/** An option object with the seed's names read as ours (ours wins when both are sent). */
function withOurOptionNames(raw: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(raw)) {
    const ours = Object.prototype.hasOwnProperty.call(SEED_OPTION_NAMES, key) ? SEED_OPTION_NAMES[key] : undefined;
    // Own members only (a `__proto__` key stays a key the option check then warns about).
    if (ours === undefined) setOwnKey(out, key, value);
    else if (raw[ours] === undefined) setOwnKey(out, ours, value);
  }
  return out;
}

/**
 * A native script written for the seed's NPC replies (`player_options`, `ends_conversation`)
 * plays here too: its json steps are given our reply's keys (`options`, `end`).
 */
function withOurReplyKeys(spec: unknown): unknown {
  if (!isRecord(spec) || spec.type !== 'scripted') return spec;
  const step = (raw: unknown): unknown => {
    if (!isRecord(raw) || !isRecord(raw.json)) return raw;
    const json: JsonRecord = {};
    for (const [key, value] of Object.entries(raw.json)) {
      const ours = key === 'player_options' ? 'options' : key === 'ends_conversation' ? 'end' : key;
      if (ours === key || raw.json[ours] === undefined) setOwnKey(json, ours, value);
    }
    return { ...raw, json };
  };
  const out: JsonRecord = { ...spec };
  if (Array.isArray(spec.steps)) out.steps = spec.steps.map(step);
  if (spec.fallback !== undefined) out.fallback = step(spec.fallback);
  return out;
}

export interface BridgeNpc {
  id: string;
  npc: NPC;
  /** What the client sent, kept for `npc/update` patches and `npc/state`. */
  persona: Persona;
  options: JsonRecord;
  tools: WireTool[];
  world?: string;
  model: LanguageModel;
  modelName: string;
  queue: ObjectQueue;
  createdAt: string;
}

export class NpcRegistry {
  readonly npcs = new Map<string, BridgeNpc>();
  private counter = 0;

  get(id: string): BridgeNpc {
    const npc = this.npcs.get(npcId(id));
    if (!npc) throw new BridgeError('npc_not_found', `No NPC "${id}".`, { npc: id });
    return npc;
  }

  nextId(): string {
    let id: string;
    do id = `npc${++this.counter}`;
    while (this.npcs.has(id));
    return id;
  }
}

interface NpcSetup {
  persona: Persona;
  options: JsonRecord;
  tools: WireTool[];
  world?: string;
  memory?: NPCMemoryState;
  transcript?: unknown;
  model: unknown;
}

function readOptions(sent: JsonRecord, warnings: string[]): { npcOptions: NPCOptions; toolTimeoutSeconds?: number } {
  const raw = withOurOptionNames(sent);
  for (const key of Object.keys(raw)) {
    if (NPC_OPTION_KEYS.indexOf(key) < 0)
      warnings.push(`params.options.${shown(key)} is not a known NPC option and was ignored.`);
  }
  const known: JsonRecord = {};
  for (const key of NPC_OPTION_KEYS) if (raw[key] !== undefined && raw[key] !== null) known[key] = raw[key];
  const timeout = new ParamReader(known, 'params.options').number('toolTimeoutSeconds', { min: 0, max: 86400 });
  delete known.toolTimeoutSeconds;
  if (known.toolChoice !== undefined) known.toolChoice = readingParams(() => parseToolChoice(known.toolChoice));
  // The bridge waits for client tools on its own timer (toolTimeoutSeconds), so the NPC waits forever.
  const npcOptions = { ...(known as NPCOptions), externalToolTimeoutMs: 0 };
  readingParams(() => resolveNPCOptions(npcOptions));
  return timeout === undefined ? { npcOptions } : { npcOptions, toolTimeoutSeconds: timeout };
}

/** Every tool the model sees: the client's, the world's, the memory tools. */
function visibleTools(npcOptions: NPCOptions, tools: WireTool[], worldTools: string[]): string[] {
  const memory = resolveNPCOptions(npcOptions).memoryTools;
  const names = tools.map((tool) => tool.name).concat(worldTools);
  if (memory.facts) names.push(REMEMBER_FACT_TOOL);
  if (memory.relationship) names.push(CHANGE_RELATIONSHIP_TOOL);
  return names;
}

function eventOnWire(event: NPCEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'emotion':
      return { type: 'emotion', emotion: event.emotion };
    case 'line':
      return event.isReset ? { type: 'lineReset', line: event.line } : { type: 'lineDelta', delta: event.delta };
    case 'toolCall':
      return { type: 'toolCallStarted', call: callOnWire(event.call), execution: 'local' };
    case 'externalToolCall':
      return { type: 'toolCallStarted', call: callOnWire(event.call), execution: 'client' };
    case 'toolResult':
      return { type: 'toolCallCompleted', record: toolRecordOnWire(event.record) };
    default:
      return undefined;
  }
}

function turnOnWire(id: string, turn: DialogueTurn): Record<string, unknown> {
  return {
    npc: id,
    line: turn.line,
    emotion: turn.emotion,
    playerOptions: turn.playerOptions,
    endsConversation: turn.endsConversation,
    toolCalls: turn.toolCalls.map(toolRecordOnWire),
    relationship: turn.relationship,
    isFallback: turn.isFallback,
    usage: usageOnWire(turn.usage),
  };
}

export function npcMethods(context: BridgeContext, worlds: WorldRegistry, registry: NpcRegistry): MethodGroup {
  worlds.npcsUsing = (world) =>
    Array.from(registry.npcs.values())
      .filter((entry) => entry.world === world)
      .map((entry) => entry.id);
  const find = (params: ParamReader) => registry.get(params.requiredString('npc'));
  /** Each NPC's wait for its client tools (its toolTimeoutSeconds option, else the engine's). */
  const timeouts = new WeakMap<BridgeNpc, number>();

  /** Builds (but does not register) an NPC; everything is checked before it exists. */
  const build = (id: string, setup: NpcSetup, warnings: string[]): BridgeNpc => {
    const { npcOptions, toolTimeoutSeconds } = readOptions(setup.options, warnings);
    const world = setup.world === undefined ? undefined : worlds.get(setup.world);
    const model = resolveModel(withOurReplyKeys(setup.model), context.models);
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
      id,
      npc,
      persona: setup.persona,
      options: setup.options,
      tools: setup.tools,
      model: model.model,
      modelName: model.name,
      queue: new ObjectQueue(),
      createdAt: context.createdAt(),
    };
    if (setup.world !== undefined) entry.world = setup.world;
    timeouts.set(entry, toolTimeoutSeconds ?? context.defaultToolTimeoutSeconds);
    return entry;
  };

  const checkRoom = (id: string) => {
    if (registry.npcs.has(id)) throw new BridgeError('npc_exists', `NPC "${id}" exists already.`, { npc: id });
    if (registry.npcs.size >= MAX_NPCS)
      throw new BridgeError('limit_reached', `At most ${MAX_NPCS} NPCs.`, { limit: MAX_NPCS });
  };

  const register = (entry: BridgeNpc, warnings: string[]) => {
    registry.npcs.set(entry.id, entry);
    const { npcOptions } = readOptions(entry.options, []);
    const resolved = resolveNPCOptions(npcOptions);
    const worldTools =
      entry.world === undefined
        ? []
        : worldStateTools(worlds.get(entry.world).state, {
            readable: resolved.worldReadable,
            writable: resolved.worldWritable,
          }).map((tool) => tool.name);
    const visible = visibleTools(npcOptions, entry.tools, worldTools);
    // As for sessions, counting every tool the model sees (the world's and memory's too).
    if (visible.length > MANY_TOOLS && !warnings.some((warning) => warning.startsWith(`${visible.length} tools:`)))
      warnings.push(`${visible.length} tools: more than ${MANY_TOOLS} make a small on-device model choose worse.`);
    return { npc: entry.id, tools: visible, warnings };
  };

  const readMemory = (raw: unknown): NPCMemoryState | undefined =>
    raw === undefined ? undefined : readingParams(() => parseMemoryState(raw));

  const create = (raw: unknown) => {
    const params = new ParamReader(raw);
    const id = npcId(params.string('npc') ?? registry.nextId());
    checkRoom(id);
    const personaRaw = params.any('persona');
    if (personaRaw === undefined) throw invalidParams('params.persona is required (at least {"name": …}).');
    const persona = readingParams(() => parsePersona(personaRaw));
    const { tools, warnings } = readWireTools(params.any('tools'));
    const setup: NpcSetup = {
      persona,
      options: params.object('options') ?? {},
      tools,
      world: params.string('world'),
      memory: readMemory(params.any('memory')),
      model: params.any('model'),
    };
    warnings.push(...params.unknownWarnings());
    return register(build(id, setup, warnings), warnings);
  };

  const restore = (raw: unknown) => {
    const params = new ParamReader(raw);
    const sent = params.any('state');
    // The whole npc/state result ({npc, state}) is accepted too, as the seed does.
    const stateRaw = isRecord(sent) && isRecord(sent.state) && sent.persona === undefined ? sent.state : sent;
    if (!isRecord(stateRaw)) throw invalidParams("params.state is required (an npc/state result's state).");
    const saved = readingParams(() => readSaveState(stateRaw));
    const warnings: string[] = [];
    const id = npcId(params.string('npc') ?? (typeof stateRaw.npc === 'string' ? stateRaw.npc : registry.nextId()));
    checkRoom(id);
    const toolsRaw = params.has('tools') ? params.any('tools') : stateRaw.tools;
    const { tools, warnings: toolWarnings } = readWireTools(toolsRaw);
    warnings.push(...toolWarnings);
    let world = params.string('world');
    if (world === undefined && !params.has('world') && typeof stateRaw.world === 'string') {
      if (worlds.worlds.has(stateRaw.world)) world = stateRaw.world;
      else
        warnings.push(`The saved world "${shown(stateRaw.world)}" no longer exists; the NPC was restored without it.`);
    }
    const options = params.has('options')
      ? (params.object('options') ?? {})
      : isRecord(stateRaw.options)
        ? stateRaw.options
        : {};
    const setup: NpcSetup = {
      persona: saved.persona,
      options,
      tools,
      world,
      memory: saved.memory,
      transcript: saved.transcript,
      model: params.any('model'),
    };
    warnings.push(...params.unknownWarnings());
    return register(build(id, setup, warnings), warnings);
  };

  const talk = (raw: unknown, request: RequestInfo) => {
    const params = new ParamReader(raw);
    const entry = find(params);
    const line = params.requiredString('line');
    const contextRaw = params.any('context');
    const situation =
      contextRaw === undefined ? undefined : typeof contextRaw === 'string' ? contextRaw : JSON.stringify(contextRaw);
    const stream = params.boolean('stream') ?? false;
    const choiceRaw = params.any('toolChoice');
    const toolChoice = choiceRaw === undefined ? undefined : readingParams(() => parseToolChoice(choiceRaw));
    const warnings = params.unknownWarnings();
    return entry.queue.add(async (signal) => {
      const turn = entry.npc.talkStream(line, {
        situation,
        toolChoice,
        signal,
        externalTools: clientToolHandler(context, {
          owner: { npc: entry.id },
          requestId: request.id,
          tools: entry.tools,
          timeoutSeconds: timeouts.get(entry) ?? context.defaultToolTimeoutSeconds,
        }),
      });
      if (stream) {
        for (const type of ['emotion', 'line', 'toolCall', 'externalToolCall', 'toolResult'] as const) {
          turn.on(type, (event: NPCEvent) => {
            const wire = eventOnWire(event);
            if (wire) context.notify('npc/event', { npc: entry.id, requestId: request.id, event: wire });
          });
        }
      }
      const result = turnOnWire(entry.id, await turn.turn());
      return warnings.length > 0 ? { ...result, warnings } : result;
    });
  };

  const update = (raw: unknown) => {
    const params = new ParamReader(raw);
    const entry = find(params);
    const personaPatch = params.any('persona');
    const optionsPatch = params.object('options');
    const memoryPatch = params.object('memory');
    const toolsRaw = params.any('tools');
    const warnings = params.unknownWarnings();
    return entry.queue.add(() => {
      // Everything is checked on a scratch NPC first, so the update is all or nothing.
      const persona =
        personaPatch === undefined
          ? entry.persona
          : readingParams(() => parsePersona(mergePatch(entry.persona, personaPatch)));
      const options =
        optionsPatch === undefined ? entry.options : (mergePatch(entry.options, optionsPatch) as JsonRecord);
      const { tools, warnings: toolWarnings } =
        toolsRaw === undefined ? { tools: entry.tools, warnings: [] } : readWireTools(toolsRaw);
      warnings.push(...toolWarnings);
      const { npcOptions, toolTimeoutSeconds } = readOptions(options, warnings);
      const memory = memoryPatch === undefined ? undefined : mergeMemory(entry.npc.memory.snapshot(), memoryPatch);
      const world = entry.world === undefined ? undefined : worlds.worlds.get(entry.world)?.state;
      const agentTools = tools.map((tool) => toAgentTool(tool));
      const scratch = readingParams(
        () => new NPC({ persona, model: entry.model, world, options: npcOptions, tools: agentTools }),
      );
      scratch.close();
      // An order in which every step is valid: no grounding tool while the tools change.
      const { groundingTool: _grounding, ...withoutGrounding } = npcOptions;
      entry.npc.setOptions(withoutGrounding);
      entry.npc.setTools(agentTools);
      entry.npc.setOptions(npcOptions);
      entry.npc.setPersona(persona);
      if (memory) entry.npc.memory.replace(memory);
      entry.persona = persona;
      entry.options = options;
      entry.tools = tools;
      timeouts.set(entry, toolTimeoutSeconds ?? context.defaultToolTimeoutSeconds);
      return { npc: entry.id, warnings };
    });
  };

  const methods = {
    'npc/create': create,
    'npc/restore': restore,
    'npc/talk': talk,
    'npc/update': update,
    'npc/bark': (raw: unknown) => {
      const params = new ParamReader(raw);
      const entry = find(params);
      const situation = params.string('situation');
      // In the NPC's queue like every request on it, so npc/cancel, npc/delete and shutdown stop it.
      return entry.queue.add((signal) =>
        entry.npc
          .bark(situation && situation.trim() ? situation : 'Nothing in particular is happening.', { signal })
          .then((line) => ({ npc: entry.id, line })),
      );
    },
    'npc/state': (raw: unknown) => {
      const params = new ParamReader(raw);
      const entry = find(params);
      const settle = params.boolean('settle') ?? true;
      return entry.queue.add(async () => {
        const saved = settle ? await entry.npc.settledState() : entry.npc.saveState();
        const state: Record<string, unknown> = {
          ...saved,
          npc: entry.id,
          options: entry.options,
          tools: entry.tools.map((tool) => tool.wire),
        };
        if (entry.world !== undefined) state.world = entry.world;
        return { npc: entry.id, state };
      });
    },
    'npc/reset': (raw: unknown) => {
      const params = new ParamReader(raw);
      const entry = find(params);
      const clearMemory = params.boolean('clearMemory') ?? false;
      return entry.queue.add(async () => {
        await entry.npc.resetConversation(clearMemory);
        return { npc: entry.id };
      });
    },
    'npc/cancel': (raw: unknown) => {
      const entry = find(new ParamReader(raw));
      return {
        npc: entry.id,
        cancelled: entry.queue.cancelAll(`${entry.npc.persona.name}'s requests were cancelled.`),
      };
    },
    'npc/delete': (raw: unknown) => {
      const entry = find(new ParamReader(raw));
      entry.queue.cancelAll(`${entry.npc.persona.name} was deleted.`);
      entry.npc.close();
      registry.npcs.delete(entry.id);
      return { npc: entry.id, deleted: true };
    },
    'npc/list': () => ({
      npcs: Array.from(registry.npcs.values()).map((entry) => ({
        npc: entry.id,
        name: entry.npc.persona.name,
        role: entry.npc.persona.role,
        world: entry.world ?? null,
        model: entry.modelName,
        tools: entry.tools.map((tool) => tool.name),
        turnCount: entry.npc.turnCount,
        relationship: entry.npc.memory.relationship,
        busy: entry.queue.busy,
        pendingOperations: entry.queue.pendingOperations,
        createdAt: entry.createdAt,
      })),
    }),
  };

  return {
    methods,
    async shutdown() {
      for (const entry of registry.npcs.values()) {
        entry.queue.cancelAll('The bridge is shutting down.');
        entry.npc.close();
      }
    },
  };
}

/** Memory as a merge patch: a member sent as null goes back to its default. */
function mergeMemory(current: NPCMemoryState, patch: JsonRecord): NPCMemoryState {
  const defaults = emptyMemory();
  const next: NPCMemoryState = { ...current };
  for (const key of ['facts', 'relationship', 'summary'] as const) {
    if (!(key in patch)) continue;
    (next as unknown as JsonRecord)[key] = patch[key] === null ? defaults[key] : patch[key];
  }
  return readingParams(() => parseMemoryState(next));
}
