/** An evening at Mira's recorded as a replay bundle: her stand-in model, the tavern's tools and world. */
import { NPC, SessionRecorder, type NPCOptions, type ReplayBundle } from '../../src';
import { createMiraModel } from '../../demo/tavern/mira-model';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';
import miraPersona from '../../demo/tavern/mira.persona.json';

export const EVENING = [
  'Evening!',
  "What's on the menu?",
  'Two ales, please.',
  'Any rumours?',
  'Thanks, love.',
  'Goodbye',
];

export const OPTIONS: NPCOptions = {
  memoryTools: 'all',
  secretsUnlockAtRelationship: 10,
  worldContextPaths: ['player.gold'],
};

export function mira() {
  const world = createTavernWorld();
  const tools = tavernTools(world);
  const npc = new NPC({ persona: miraPersona, model: createMiraModel(), world, tools, options: OPTIONS });
  return { npc, world, tools };
}

export async function recordEvening(lines: string[] = EVENING): Promise<{ bundle: ReplayBundle; said: string[] }> {
  const { npc, world, tools } = mira();
  const recorder = new SessionRecorder({
    persona: miraPersona,
    options: OPTIONS,
    tools,
    world,
    answeredBy: () => 'stand-in',
    source: { place: 'test', platform: 'node' },
  });
  recorder.tap(npc.model);
  const said: string[] = [];
  for (const line of lines) said.push((await recorder.talk(npc, line)).line);
  recorder.close();
  npc.close();
  return { bundle: recorder.bundle(), said };
}
