/**
 * `npc/state`, `npc/reset`, `npc/cancel`, `npc/delete` and `npc/list`: what an NPC is (its saved
 * state, as `npc/restore` takes it back), and ending what it does or is.
 */
import type { NpcMethodContext } from './npc-registry';
import { ParamReader } from './params';

export function npcState(context: NpcMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const entry = context.registry.find(params);
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
}

export function resetNpc(context: NpcMethodContext, raw: unknown) {
  const params = new ParamReader(raw);
  const entry = context.registry.find(params);
  const clearMemory = params.boolean('clearMemory') ?? false;
  return entry.queue.add(async () => {
    await entry.npc.resetConversation(clearMemory);
    return { npc: entry.id };
  });
}

export function cancelNpc(context: NpcMethodContext, raw: unknown) {
  const entry = context.registry.find(new ParamReader(raw));
  return {
    npc: entry.id,
    cancelled: entry.queue.cancelAll(`${entry.npc.persona.name}'s requests were cancelled.`),
  };
}

export function deleteNpc(context: NpcMethodContext, raw: unknown) {
  const entry = context.registry.find(new ParamReader(raw));
  entry.queue.cancelAll(`${entry.npc.persona.name} was deleted.`);
  entry.npc.close();
  context.registry.npcs.delete(entry.id);
  return { npc: entry.id, deleted: true };
}

export function listNpcs(context: NpcMethodContext) {
  return {
    npcs: Array.from(context.registry.npcs.values()).map((entry) => ({
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
  };
}
