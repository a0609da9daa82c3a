/**
 * NPC profiles through the public API: the sample profiles load into NPC parts, every bad field
 * is refused with its name before any model call, the blacksmith's own tools run through the
 * NPC (a rule table over the world), and the stand-in speaks in the profile's persona's voice.
 */
import { AgentError, NPC, WorldState, loadNPCProfile, type NPCProfileParts } from '../../src';
import { Script, ScriptedLanguageModel, createProfileStandIn } from '../../src/testing';
import { readProfileFile, miraProfileParts, profileStandIn } from '../../demo/profiles/profile-file';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';

const HILDE_FILE = 'demo/profiles/hilde.npc-profile.json';

function npcOf(parts: NPCProfileParts, model: ScriptedLanguageModel | ReturnType<typeof profileStandIn>): NPC {
  const { persona, tools, world, options, memory } = parts;
  return new NPC({ persona, model, tools, world, options, memory });
}

const INLINE = { name: 'Hilde', greeting: 'Forge is hot.' };

function refusal(profile: unknown, options = {}): string {
  try {
    loadNPCProfile(profile, options);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    // A parameters schema that is not one is invalid_schema; everything else invalid_request.
    expect(['invalid_request', 'invalid_schema']).toContain((error as AgentError).code);
    return (error as AgentError).message;
  }
  throw new Error('the profile was not refused');
}

describe('loading a profile', () => {
  test('the sample profiles load: persona, tools in order, world, options', () => {
    const hilde = readProfileFile(HILDE_FILE);
    expect(hilde.persona.name).toBe('Hilde');
    expect(hilde.tools.map((tool) => [tool.name, tool.execution])).toEqual([
      ['show_wares', 'local'],
      ['forge_item', 'local'],
    ]);
    expect(hilde.world?.get('smithy.wares.sword')).toBe(40);
    expect(hilde.options).toMatchObject({
      memoryTools: 'change_relationship',
      worldReadable: [],
      worldContextPaths: ['player.silver'],
    });
    const guard = readProfileFile('demo/profiles/guard.npc-profile.json');
    expect(guard.persona.name).toBe('Brann');
    expect(guard.tools.map((tool) => tool.execution)).toEqual(['local', 'external']);
    const mira = readProfileFile('demo/profiles/mira.npc-profile.json');
    expect(mira.profile.standIn).toBe('tavern');
  });

  test("Mira's profile is the tavern set-up: the same tools, the same world, the same prompt", () => {
    const parts = miraProfileParts();
    const world = createTavernWorld();
    expect(parts.tools.map((tool) => tool.toJSON())).toEqual(tavernTools(world).map((tool) => tool.toJSON()));
    expect(parts.world?.get('')).toEqual(world.get(''));
    expect(parts.tools[0].snapshot?.()).toEqual(world.get('tavern.menu'));
  });

  test.each([
    ['not JSON', '{"persona": ', /^The NPC profile is not JSON/],
    ['a list', [], 'An NPC profile is a JSON object with at least a "persona"'],
    ['no persona', { tools: [] }, 'profile.persona: is required'],
    ['an unknown key', { persona: INLINE, tool: [] }, 'profile.tool: is not a field here'],
    ['a bad persona', { persona: { name: '' } }, 'profile.persona: persona.name: must not be empty'],
    [
      'a persona path with nothing to read it',
      { persona: 'hilde.persona.json' },
      'profile.persona names the file "hilde.persona.json", but nothing here reads files: inline it',
    ],
    [
      'a tool without an answer',
      { persona: INLINE, tools: [{ name: 'show_wares', description: 'x' }] },
      'profile.tools[0].answer: is required',
    ],
    [
      'a tool answer that is none of the three',
      { persona: INLINE, tools: [{ name: 'show_wares', description: 'x', answer: 'by hand' }] },
      'profile.tools[0].answer: must be "external", {"handler": "name"} or a rule table',
    ],
    [
      'a bad tool name',
      { persona: INLINE, tools: [{ name: 'show wares', description: 'x', answer: 'external' }] },
      'profile.tools[0].name: must match pattern',
    ],
    [
      'an unknown handler',
      { persona: INLINE, tools: [{ name: 'forge_item', description: 'x', answer: { handler: 'forge' } }] },
      'profile.tools[0] (forge_item): answer.handler "forge" is not a handler this host registers (it registers none)',
    ],
    [
      'a rule over the world without a world',
      { persona: INLINE, tools: [{ name: 'show_wares', description: 'x', answer: { result: '{{world.wares}}' } }] },
      'profile.tools[0] (show_wares): its answer reads or writes the world, but the profile has no "world"',
    ],
    [
      'an empty rule table',
      { persona: INLINE, tools: [{ name: 'show_wares', description: 'x', answer: {} }] },
      'profile.tools[0] (show_wares): answer needs a result, an error, set or cases',
    ],
    [
      'parameters that are not a schema',
      {
        persona: INLINE,
        tools: [{ name: 'forge_item', description: 'x', parameters: { type: 'nonsense' }, answer: 'external' }],
      },
      'profile.tools[0] (forge_item):',
    ],
    [
      'a tool named like a built-in one',
      { persona: INLINE, tools: [{ name: 'remember_fact', description: 'x', answer: { result: 'ok' } }] },
      'profile: Tool "remember_fact" clashes with a built-in NPC tool',
    ],
    [
      'two tools of one name',
      {
        persona: INLINE,
        tools: [
          { name: 'a', description: 'x', answer: { result: 1 } },
          { name: 'a', description: 'y', answer: { result: 2 } },
        ],
      },
      'profile:',
    ],
    [
      'a grounding tool it does not have',
      { persona: INLINE, options: { groundingTool: 'check_menu' } },
      'profile: groundingTool "check_menu" is not one of this NPC\'s tools',
    ],
    [
      'a bad option value',
      { persona: INLINE, options: { maxToolRounds: 99 } },
      'profile.options: maxToolRounds must be a whole number from 0 to 16; got 99.',
    ],
    [
      'an option of the wrong type',
      { persona: INLINE, options: { canEndConversation: 'yes' } },
      'profile.options.canEndConversation: must be boolean',
    ],
    [
      'world paths under options',
      { persona: INLINE, options: { worldWritable: ['a'] } },
      'profile.options.worldWritable: is not a field here',
    ],
    ['a bad world', { persona: INLINE, world: { initial: [] } }, 'profile.world.initial: must be object'],
    [
      'a relationship out of range',
      { persona: INLINE, memory: { relationship: 300 } },
      'profile.memory.relationship: must be <= 100',
    ],
  ])('%s is refused with the field named', (_what, profile, message) => {
    const text = refusal(profile);
    if (message instanceof RegExp) expect(text).toMatch(message);
    else expect(text).toContain(message);
  });

  test('a stand-in the host does not have is named', () => {
    const parts = loadNPCProfile({ persona: INLINE, standIn: 'tavern' });
    expect(() => createProfileStandIn(parts)).toThrow(
      'profile.standIn: "tavern" is not a stand-in this host has (none)',
    );
  });
});

describe("the blacksmith's own tools, through the profile", () => {
  test('forge_item runs its rule table over the world; show_wares reads the world', async () => {
    const parts = readProfileFile(HILDE_FILE);
    const model = new ScriptedLanguageModel([
      Script.call('forge_item', { item: 'dagger' }),
      Script.reply({ emotion: 'annoyed', line: 'Dagger by dusk. Fifteen silver.' }),
      Script.call('forge_item', { item: 'Sword' }),
      Script.reply({ emotion: 'annoyed', line: 'Three days.' }),
      Script.call('show_wares'),
      Script.reply({ emotion: 'annoyed', line: 'Horseshoes, daggers, swords.' }),
    ]);
    const npc = npcOf(parts, model);
    const dagger = await npc.talk('Forge me a dagger.');
    expect(dagger.toolCalls[0].output).toEqual({
      kind: 'json',
      value: { item: 'dagger', ready: 'by dusk', price: 15 },
    });
    expect(parts.world?.get('smithy.order')).toBe('dagger');
    const sword = await npc.talk('And a sword.');
    expect(sword.toolCalls[0].output).toMatchObject({ value: { item: 'sword', ready: 'in three days', price: 40 } });
    expect(parts.world?.get('smithy.order')).toBe('sword');
    const wares = await npc.talk('What do you sell?');
    expect(wares.toolCalls[0].output).toMatchObject({ value: { horseshoe: 4, dagger: 15, sword: 40 } });
    // Her prompt lists her tools, never the tavern's.
    const prompt = `${model.requests[0].systemInstruction}${model.requests[0].promptPrefix}`;
    expect(prompt).toContain('show_wares');
    expect(prompt).not.toMatch(/check_menu|take_order|Crooked Lantern|menu/);
  });

  test('an argument outside the enum is refused by the schema before the rule runs', async () => {
    const parts = readProfileFile(HILDE_FILE);
    const model = new ScriptedLanguageModel([
      Script.call('forge_item', { item: 'cannon' }),
      Script.reply({ emotion: 'annoyed', line: 'No cannons.' }),
    ]);
    const turn = await npcOf(parts, model).talk('Forge a cannon.');
    expect(turn.toolCalls.filter((record) => !record.rejected && record.output.kind !== 'error')).toEqual([]);
    expect(parts.world?.get('smithy.order')).toBeNull();
  });

  test('the stand-in answers in her voice, calls her tools with the item named, and keeps her secret until confidant', async () => {
    const parts = readProfileFile(HILDE_FILE);
    const npc = npcOf(parts, profileStandIn(parts));
    const lines: string[] = [];
    for (const say of [
      'Hello!',
      'What do you sell?',
      'Can you forge me a sword?',
      'Nice weather today.',
      'Blah blah.',
      'Heard any rumours?',
    ]) {
      const turn = await npc.talk(say);
      lines.push(turn.line);
      expect(turn.emotion).toBe('annoyed');
    }
    expect(lines[0]).toBe('Forge is hot. Buy something or move along.');
    expect(lines[1]).toContain('sword 40');
    expect(lines[2]).toContain('item sword, ready in three days');
    expect(lines[3]).toBe("Weather doesn't shoe horses.");
    expect(lines[4]).toBe('Hrmph. Say it plainly.');
    expect(lines.join(' ')).not.toMatch(/Speak up, love|seal/);
    const trusted = readProfileFile(HILDE_FILE);
    const confidant = new NPC({
      ...trusted,
      model: profileStandIn(trusted),
      memory: { facts: [], relationship: 60, summary: '' },
    });
    expect(confidant.greeting).toBe('Shut the door. Sit.');
    expect((await confidant.talk('Hello!')).line).toBe('Shut the door. Sit.');
    expect((await confidant.talk('Heard any rumours?')).line).toContain('Between us? I forged the royal seal');
  });

  test('a hand-answered tool waits for the game', async () => {
    const parts = readProfileFile('demo/profiles/guard.npc-profile.json');
    const model = new ScriptedLanguageModel([
      Script.call('ring_bell'),
      Script.reply({ emotion: 'angry', line: 'Weapons down!' }),
    ]);
    const turn = await npcOf(parts, model).talk('I draw my sword.', { externalTools: () => 'The watch is coming.' });
    expect(turn.toolCalls[0].output).toEqual({ kind: 'text', text: 'The watch is coming.' });
  });
});

describe("a profile on a scene's shared world", () => {
  const profile = {
    persona: { name: 'Hilde' },
    tools: [{ name: 'show_wares', description: 'Lists the wares.', answer: { result: '{{world.smithy.wares}}' } }],
    world: { initial: { smithy: { wares: { dagger: 15 } }, player: { silver: 30 } }, readable: [] },
  };

  test('its initial values fill only the keys the world lacks, and its tools read that world', async () => {
    const world = new WorldState({ player: { silver: 2 } });
    const parts = loadNPCProfile(profile, { world });
    expect(parts.world).toBe(world);
    expect(world.get('player.silver')).toBe(2);
    expect(world.get('smithy.wares.dagger')).toBe(15);
    const npc = new NPC({
      ...parts,
      model: new ScriptedLanguageModel([
        Script.call('show_wares'),
        Script.reply({ emotion: 'neutral', line: 'Daggers, fifteen.' }),
      ]),
    });
    const turn = await npc.talk('Wares?');
    expect(turn.toolCalls[0].output).toEqual({ kind: 'json', value: { dagger: 15 } });
  });

  test('a profile that does not load leaves the world as it was', () => {
    const world = new WorldState({ player: { silver: 2 } });
    expect(() => loadNPCProfile({ ...profile, options: { groundingTool: 'nope' } }, { world })).toThrow(AgentError);
    expect(world.keys()).toEqual(['player']);
  });
});
