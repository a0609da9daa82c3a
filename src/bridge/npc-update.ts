/**
 * `npc/update`: persona, options and memory as merge patches, and a new tool list, applied in the
 * NPC's queue all or nothing (everything is checked on a scratch NPC first).
 */
import { NPC } from '../game/npc';
import { parsePersona } from '../game/persona';
import { emptyMemory, parseMemoryState, type NPCMemoryState } from '../game/memory';
import { readingParams } from './errors';
import { mergePatch } from './merge-patch';
import { readNpcOptions } from './npc-options';
import type { NpcMethodContext } from './npc-registry';
import { ParamReader, type JsonRecord } from './params';
import { readWireTools, toAgentTool } from './tool-definitions';

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

export function updateNpc(context: NpcMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const entry = context.registry.find(params);
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
    const { npcOptions, toolTimeoutSeconds } = readNpcOptions(options, warnings);
    const memory = memoryPatch === undefined ? undefined : mergeMemory(entry.npc.memory.snapshot(), memoryPatch);
    const world = entry.world === undefined ? undefined : context.worlds.worlds.get(entry.world)?.state;
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
    entry.toolTimeoutSeconds = toolTimeoutSeconds ?? context.bridge.defaultToolTimeoutSeconds;
    return { npc: entry.id, warnings };
  });
}
