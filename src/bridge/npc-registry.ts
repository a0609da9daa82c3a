/**
 * NPCs by id for the `npc/*` methods, each with what the client sent (kept for `npc/update`
 * patches and `npc/state`), its model and its own queue; and the context every NPC handler gets.
 */
import type { LanguageModel } from '../contract/language-model';
import type { NPC } from '../game/npc';
import type { Persona } from '../game/persona';
import type { BridgeContext } from './context';
import { BridgeError } from './errors';
import { npcId } from './ids';
import type { ObjectQueue } from './object-queue';
import type { JsonRecord, ParamReader } from './params';
import type { WireTool } from './tool-definitions';
import type { WorldRegistry } from './world-registry';

export const MAX_NPCS = 128;

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
  /** The wait for its client tools: its toolTimeoutSeconds option, else the engine's. */
  toolTimeoutSeconds: number;
}

export class NpcRegistry {
  readonly npcs = new Map<string, BridgeNpc>();
  private counter = 0;

  get(id: string): BridgeNpc {
    const npc = this.npcs.get(npcId(id));
    if (!npc) throw new BridgeError('npc_not_found', `No NPC "${id}".`, { npc: id });
    return npc;
  }

  /** The NPC a request's `npc` member names. */
  find(params: ParamReader): BridgeNpc {
    return this.get(params.requiredString('npc'));
  }

  nextId(): string {
    let id: string;
    do id = `npc${++this.counter}`;
    while (this.npcs.has(id));
    return id;
  }

  /** Refuses a taken id or a full registry before anything is built for the NPC. */
  checkRoom(id: string): void {
    if (this.npcs.has(id)) throw new BridgeError('npc_exists', `NPC "${id}" exists already.`, { npc: id });
    if (this.npcs.size >= MAX_NPCS)
      throw new BridgeError('limit_reached', `At most ${MAX_NPCS} NPCs.`, { limit: MAX_NPCS });
  }

  /** The ids of the NPCs in a world. */
  using(world: string): string[] {
    return Array.from(this.npcs.values())
      .filter((entry) => entry.world === world)
      .map((entry) => entry.id);
  }
}

/** What every `npc/*` handler is given. */
export interface NpcMethodContext {
  bridge: BridgeContext;
  worlds: WorldRegistry;
  registry: NpcRegistry;
}
