/**
 * NPCComponent given an NPC profile asset, on the real engine: the profile is the set-up (its
 * persona, its own rule-answered and game-answered tools, its world paths and options), the
 * scene's WorldStateStore is its world, and a broken profile is refused before any model call
 * without touching the store.
 */
import { Node } from 'cc';
import { readFileSync } from 'fs';
import { join } from 'path';
import { freshScene, jsonAsset, mount } from './harness/scene';
import { guard } from './harness/guards';
import { loadOam, say as sayWith, useModel as useModelWith, type LoadedOam } from './harness/oam';
import { readManifest } from './harness/pack';

// The suite runs from a copy inside the engine's checkout; the sample profiles stay in the repository.
const PROFILES = join(readManifest().repo, 'demo/profiles');
const HILDE_PROFILE = JSON.parse(readFileSync(join(PROFILES, 'hilde.npc-profile.json'), 'utf8'));
const HILDE = JSON.parse(readFileSync(join(PROFILES, 'hilde.persona.json'), 'utf8'));

let oam: LoadedOam;
let components: LoadedOam['C'];
let Script: LoadedOam['core']['Script'];
beforeAll(async () => {
  oam = await loadOam();
  components = oam.C;
  ({ Script } = oam.core);
});
const quiet = guard(() => components.OamRuntime.reset());
beforeEach(() => freshScene());

const say = (line: string, emotion?: string) => sayWith(oam, line, emotion);
const useModel = (steps: Parameters<typeof useModelWith>[1]) => useModelWith(oam, steps);

function store(json: unknown) {
  return mount(components.WorldStateStore, { initialJson: JSON.stringify(json) }, new Node('world'));
}

describe('NPCComponent with an NPC profile', () => {
  test("Hilde's profile: her persona, her own tool answered by its rules from the scene's world", async () => {
    const model = useModel([Script.call('show_wares'), say('Horseshoes four, daggers fifteen.', 'annoyed')]);
    const world = store({ player: { name: 'Ada', silver: 12 } });
    const npc = mount(components.NPCComponent, {
      profile: jsonAsset(HILDE_PROFILE, 'hilde.npc-profile'),
      persona: jsonAsset(HILDE, 'hilde.persona'),
      worldStore: world,
    });
    const turn = await npc.talk('What do you sell?');
    expect(npc.core?.persona.name).toBe('Hilde');
    expect(turn.toolCalls.map((record) => record.call.name)).toEqual(['show_wares']);
    expect(turn.toolCalls[0].output).toEqual({ kind: 'json', value: { horseshoe: 4, dagger: 15, sword: 40 } });
    // The profile's initial values fill what the store lacks; the scene's own player stays.
    expect(world.get('smithy.wares.dagger')).toBe(15);
    expect(world.get('player.silver')).toBe(12);
    // Its world paths and tools, none of the Inspector's defaults (the read tool reads "" by default).
    const prefix = model.requests[0].promptPrefix ?? '';
    expect(prefix).toMatch(/show_wares\(\)/);
    expect(prefix).toMatch(/forge_item\(item: horseshoe\|dagger\|sword\)/);
    expect(prefix).not.toMatch(/read_world_state|remember_fact/);
    expect(model.requests[0].prompt).toMatch(/player\.silver: 12/);
  });

  test('a profile tool answered by game code registered on the component', async () => {
    useModel([Script.call('open_gate', { gate: 'north' }), say('Gate is open.')]);
    const opened: string[] = [];
    const npc = mount(components.NPCComponent, {}, new Node('warden'));
    npc.registerProfileHandler('open_gate', (args: Record<string, unknown>) => {
      opened.push(String(args.gate));
      return 'opened';
    });
    npc.profile = jsonAsset(
      {
        persona: { name: 'Warden' },
        tools: [
          {
            name: 'open_gate',
            description: 'Opens a gate.',
            parameters: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] },
            answer: { handler: 'open_gate' },
          },
        ],
      },
      'warden.npc-profile',
    );
    const turn = await npc.talk('Open the north gate.');
    expect(opened).toEqual(['north']);
    expect(turn.toolCalls[0].output).toEqual({ kind: 'text', text: 'opened' });
  });

  test('a profile naming its persona by path needs the Persona property', async () => {
    const model = useModel([say('never said')]);
    const npc = mount(components.NPCComponent, { profile: jsonAsset(HILDE_PROFILE, 'hilde.npc-profile') });
    expect(npc.setupError?.code).toBe('invalid_request');
    expect(npc.setupError?.message).toMatch(/hilde\.npc-profile.*"hilde\.persona\.json": set the Persona property/);
    await expect(npc.talk('Hello')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(model.requests).toHaveLength(0);
    expect(quiet.error).toHaveBeenCalled();
  });

  test('a broken profile is refused naming its field, and the scene world is left as it was', async () => {
    const model = useModel([say('never said')]);
    const world = store({ player: { silver: 3 } });
    const broken = { ...HILDE_PROFILE, persona: HILDE, options: { memoryTools: 'everything' } };
    const npc = mount(components.NPCComponent, {
      profile: jsonAsset(broken, 'broken.npc-profile'),
      worldStore: world,
    });
    expect(npc.setupError?.message).toMatch(/broken\.npc-profile.*profile\.options/);
    expect(world.get('smithy')).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });
});
