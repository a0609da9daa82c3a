/**
 * The meter's set-up for an NPC node of the open scene: what NPCComponent hands `new NPC(...)`,
 * rebuilt from the node's dump (read by the preview panel's `readNpcNode`) with the component's
 * own mapping (`npcSetupFromInspector`): the same options and declared tools, refused with the
 * same words. Its WorldStateStore's initial state becomes the world (empty when the state cannot
 * be read, as the store starts then), so `measurePersona` adds the same world and memory tools
 * and the same reply format as the NPC.
 */
import { npcSetupFromInspector, type InspectorSetup } from '../../src/game/npc/inspector-setup';
import { WorldState } from '../../src/game/world';
import type { NpcNodeInfo } from '../panels/preview/npc-dump';
import { setupProblem } from './token-meter';
import type { MeterSetup } from './token-meter';

export type SceneNpcSetupResult = { ok: true; setup: MeterSetup; notes: string[] } | { ok: false; message: string };

/**
 * `initialWorld`: the referenced WorldStateStore's initial state, when it could be read. It is
 * used only when the NPC references a store: without one the NPC gets no world (and no world tools).
 */
export function sceneNpcSetup(npc: NpcNodeInfo, initialWorld?: Record<string, unknown> | null): SceneNpcSetupResult {
  const notes: string[] = [];
  let declared: InspectorSetup;
  try {
    declared = npcSetupFromInspector(npc.properties);
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
  let world: WorldState | undefined;
  if (npc.worldStoreUuid) {
    try {
      world = new WorldState(initialWorld ?? {});
    } catch (error) {
      notes.push(
        `the WorldStateStore's initial state was not usable (${messageOf(error)}); measured with an empty world`,
      );
      world = new WorldState({});
    }
  } else if (
    (declared.options.worldWritable?.length ?? 0) > 0 ||
    (declared.options.worldContextPaths?.length ?? 0) > 0
  ) {
    notes.push('the NPC has world paths but no WorldStateStore, so it has no world tools');
  }
  const setup: MeterSetup = { tools: declared.tools, options: declared.options };
  if (world) setup.world = world;
  const problem = setupProblem(setup);
  if (problem) return { ok: false, message: problem };
  return { ok: true, setup, notes };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
