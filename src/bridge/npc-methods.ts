/**
 * `npc/*` (reference §3.3): NPCs by id over the game layer's NPC, each with its own queue
 * (talk, update, reset and state in arrival order). The handlers are in npc-create.ts,
 * npc-talk.ts, npc-update.ts and npc-state.ts; this file assembles the table.
 */
import type { BridgeContext, MethodGroup, RequestInfo } from './context';
import { createNpc, restoreNpc } from './npc-create';
import type { NpcMethodContext, NpcRegistry } from './npc-registry';
import { cancelNpc, deleteNpc, listNpcs, npcState, resetNpc } from './npc-state';
import { barkFromNpc, talkToNpc } from './npc-talk';
import { updateNpc } from './npc-update';
import type { WorldRegistry } from './world-registry';

export function npcMethods(bridge: BridgeContext, worlds: WorldRegistry, registry: NpcRegistry): MethodGroup {
  worlds.npcsUsing = (world) => registry.using(world);
  const context: NpcMethodContext = { bridge, worlds, registry };
  return {
    methods: {
      'npc/create': (raw: unknown) => createNpc(context, raw),
      'npc/restore': (raw: unknown) => restoreNpc(context, raw),
      'npc/talk': (raw: unknown, request: RequestInfo) => talkToNpc(context, raw, request),
      'npc/update': (raw: unknown) => updateNpc(context, raw),
      'npc/bark': (raw: unknown) => barkFromNpc(context, raw),
      'npc/state': (raw: unknown) => npcState(context, raw),
      'npc/reset': (raw: unknown) => resetNpc(context, raw),
      'npc/cancel': (raw: unknown) => cancelNpc(context, raw),
      'npc/delete': (raw: unknown) => deleteNpc(context, raw),
      'npc/list': () => listNpcs(context),
    },
    async shutdown() {
      for (const entry of registry.npcs.values()) {
        entry.queue.cancelAll('The bridge is shutting down.');
        entry.npc.close();
      }
    },
  };
}
