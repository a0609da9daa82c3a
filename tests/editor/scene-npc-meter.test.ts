/**
 * The token meter with an NPC of the open scene: finding NPC nodes in a `query-node-tree`
 * result, reading the chosen one through stubbed editor messages, and the figure a real NPC
 * built from the same options sends.
 */
import {
  npcCandidatesOfTree,
  orderSceneNpcs,
  sceneNpcSource,
  MAX_NODES_QUERIED,
} from '../../extension/inspector/scene-npcs';
import type { EditorRequest } from '../../extension/inspector/scene-npcs';
import { sceneNpcSetup } from '../../extension/token-meter/npc-setup';
import { measurePersona, noToolsSetup, npcToolCatalog } from '../../extension/token-meter/token-meter';
import type { MeterSetup } from '../../extension/token-meter/token-meter';
import { readNpcNode } from '../../extension/panels/preview/npc-dump';
import type { NpcNodeInfo } from '../../extension/panels/preview/npc-dump';
import { NPC, npcSetupFromInspector } from '../../src/game/npc';
import { WorldState } from '../../src/game/world';
import { estimateTokens } from '../../src/contract/language-model';
import type { GenerationRequest } from '../../src/contract/language-model';
import { MIRA, recordingModel } from './meter-support';

const WORLD = { player: { gold: 12, inventory: [] }, time: 'evening', menu: { ale: 3 } };

/** An NPCComponent as `query-node` dumps it (each property wrapped as { value }). */
function npcDump(overrides: Record<string, unknown> = {}) {
  const declaration = (name: string, description: string, parametersSchema = '') => ({
    type: 'oam.ToolDeclaration',
    value: {
      name: { value: name },
      description: { value: description },
      parametersSchema: { value: parametersSchema },
      timeoutMs: { value: 0 },
    },
  });
  const props: Record<string, unknown> = {
    persona: { uuid: 'uuid-of-mira' },
    worldStore: { uuid: 'store-1' },
    worldReadable: [{ value: '' }],
    worldWritable: [{ value: 'player.gold' }],
    worldContextPaths: [{ value: 'time' }],
    groundingTool: '',
    replyFormat: 0,
    rememberFacts: true,
    trackRelationship: false,
    secretsUnlockAt: 20,
    secretsAlwaysGuarded: false,
    emotions: [],
    playerOptionCount: 0,
    canEndConversation: false,
    fallbackLines: [],
    externalTools: [
      declaration(
        'pour_drink',
        'Pours the player a drink.',
        '{"type":"object","properties":{"drink":{"type":"string","enum":["ale","wine"]}},"required":["drink"]}',
      ),
      declaration('ring_bell', 'Rings the last-orders bell.'),
    ],
    extraInstructions: '',
    ...overrides,
  };
  const value: Record<string, unknown> = {};
  for (const [name, given] of Object.entries(props)) value[name] = { value: given };
  return {
    name: { value: 'Mira' },
    __comps__: [
      { type: 'cc.UITransform', value: {} },
      { type: 'oam.NPCComponent', value },
    ],
  };
}

const TREE = {
  name: 'tavern',
  uuid: 'scene-1',
  isScene: true,
  children: [
    {
      name: 'Canvas',
      uuid: 'n-canvas',
      components: [{ type: 'cc.UITransform', value: 'c0' }],
      children: [
        { name: 'Guard', uuid: 'n-guard', components: [{ type: 'oam.NPCComponent', value: 'c-guard' }], children: [] },
        {
          name: 'Mira',
          uuid: 'n-mira',
          components: [
            { type: 'cc.Sprite', value: 'c1' },
            { type: 'oam.NPCComponent', value: 'c2' },
          ],
          children: [],
        },
      ],
    },
    { name: 'World', uuid: 'n-world', components: [{ type: 'oam.WorldStateStore', value: 'store-1' }], children: [] },
  ],
};

interface Scene {
  tree?: unknown;
  nodes: Record<string, unknown>;
  components?: Record<string, unknown>;
  assets?: Record<string, unknown>;
}

function stubRequest(scene: Scene, calls: string[] = []): EditorRequest {
  return async (pkg, message, ...args) => {
    calls.push(`${pkg}:${message}${args.length ? `:${String(args[0])}` : ''}`);
    if (pkg === 'scene' && message === 'query-node-tree') return scene.tree;
    if (pkg === 'scene' && message === 'query-node') return scene.nodes[args[0] as string] ?? null;
    if (pkg === 'scene' && message === 'query-component') return scene.components?.[args[0] as string] ?? null;
    if (pkg === 'asset-db' && message === 'query-asset-info') return scene.assets?.[args[0] as string] ?? null;
    throw new Error(`unexpected ${pkg}:${message}`);
  };
}

const storeDump = (initialJson: string, assetUuid?: string) => ({
  type: 'oam.WorldStateStore',
  value: { initialState: { value: assetUuid ? { uuid: assetUuid } : null }, initialJson: { value: initialJson } },
});

/** What NPCComponent.coreSetup() hands the core, built from the same dump. */
function realNpc(info: NpcNodeInfo, world: Record<string, unknown> | undefined, requests: GenerationRequest[]): NPC {
  return new NPC({
    persona: MIRA,
    model: recordingModel(requests),
    ...npcSetupFromInspector(info.properties),
    world: info.worldStoreUuid ? new WorldState(world ?? {}) : undefined,
  });
}

function okSetup(result: ReturnType<typeof sceneNpcSetup>): MeterSetup {
  if (!result.ok) throw new Error(result.message);
  return result.setup;
}

describe('the NPC nodes of the open scene', () => {
  it('finds nodes with an NPCComponent in the node tree, with their paths', () => {
    expect(npcCandidatesOfTree(TREE).map((node) => [node.uuid, node.path])).toEqual([
      ['n-guard', 'Canvas/Guard'],
      ['n-mira', 'Canvas/Mira'],
    ]);
    // A tree without component lists: every node is a candidate and its dump decides.
    const bare = [
      {
        name: 'scene',
        uuid: 's',
        children: [{ name: { value: 'A' }, uuid: { value: 'a' }, children: [{ name: 'B', uuid: 'b' }] }],
      },
    ];
    expect(npcCandidatesOfTree(bare).map((node) => node.path)).toEqual(['A', 'A/B']);
    // A subclass of NPCComponent counts.
    expect(
      npcCandidatesOfTree({
        uuid: 's',
        children: [
          {
            name: 'X',
            uuid: 'x',
            components: [{ type: 'game.Bartender', extends: ['oam.NPCComponent', 'cc.Component'] }],
          },
        ],
      }),
    ).toHaveLength(1);
    for (const bad of [
      null,
      undefined,
      'scene',
      3,
      {},
      { children: 'x' },
      { children: [null, 4, { name: 'no uuid', components: [] }] },
    ])
      expect(npcCandidatesOfTree(bad)).toEqual([]);
  });

  it('lists the NPCs using the edited persona first and marks them', async () => {
    const calls: string[] = [];
    const source = sceneNpcSource(
      stubRequest(
        { tree: TREE, nodes: { 'n-mira': npcDump(), 'n-guard': npcDump({ persona: { uuid: 'uuid-of-guard' } }) } },
        calls,
      ),
      () => '',
      () => 'uuid-of-mira',
    );
    const list = await source.list();
    expect(list).toEqual([
      { nodeUuid: 'n-mira', name: 'Mira', path: 'Canvas/Mira', personaUuid: 'uuid-of-mira', usesThisPersona: true },
      {
        nodeUuid: 'n-guard',
        name: 'Guard',
        path: 'Canvas/Guard',
        personaUuid: 'uuid-of-guard',
        usesThisPersona: false,
      },
    ]);
    expect(calls).toEqual(['scene:query-node-tree', 'scene:query-node:n-guard', 'scene:query-node:n-mira']);
    // Nothing is marked when no persona is being edited.
    const unmarked = await sceneNpcSource(
      stubRequest({ tree: TREE, nodes: { 'n-mira': npcDump() } }),
      () => '',
      () => undefined,
    ).list();
    expect(unmarked.map((npc) => [npc.name, npc.usesThisPersona])).toEqual([['Mira', false]]);
    expect(orderSceneNpcs([])).toEqual([]);
  });

  it('says so when no scene is open and skips nodes whose dump has no NPC', async () => {
    await expect(
      sceneNpcSource(
        stubRequest({ tree: null, nodes: {} }),
        () => '',
        () => undefined,
      ).list(),
    ).rejects.toThrow('no scene is open');
    expect(
      await sceneNpcSource(
        stubRequest({ tree: TREE, nodes: { 'n-guard': { __comps__: [] } } }),
        () => '',
        () => undefined,
      ).list(),
    ).toEqual([]);
  });

  it('asks for at most MAX_NODES_QUERIED node dumps', async () => {
    const children = Array.from({ length: MAX_NODES_QUERIED + 20 }, (_, index) => ({
      name: `n${index}`,
      uuid: `u${index}`,
    }));
    const calls: string[] = [];
    await sceneNpcSource(
      stubRequest({ tree: { uuid: 's', children }, nodes: {} }, calls),
      () => '',
      () => undefined,
    ).list();
    expect(calls.length).toBe(MAX_NODES_QUERIED + 1);
  });
});

describe('measuring with a scene NPC', () => {
  const variants: Array<[string, Record<string, unknown>]> = [
    ['automatic format, read + update world tools, remember_fact', {}],
    [
      'text format with emotions and extra instructions',
      {
        replyFormat: 2,
        emotions: [{ value: 'happy' }, { value: 'sad' }],
        extraInstructions: 'Never mention the cellar.',
      },
    ],
    [
      'structured, options and end, both memory tools, secrets guarded, grounding tool',
      {
        replyFormat: 1,
        playerOptionCount: 3,
        canEndConversation: true,
        trackRelationship: true,
        secretsAlwaysGuarded: true,
        groundingTool: 'pour_drink',
      },
    ],
    [
      'no world store, no memory, no tools',
      { worldStore: null, rememberFacts: false, externalTools: [], worldWritable: [] },
    ],
  ];

  for (const [label, overrides] of variants) {
    it(`counts exactly what a real NPC sends: ${label}`, async () => {
      const scene = {
        tree: TREE,
        nodes: { 'n-mira': npcDump(overrides) },
        components: { 'store-1': storeDump(JSON.stringify(WORLD)) },
      };
      const loaded = await sceneNpcSource(
        stubRequest(scene),
        () => '',
        () => 'uuid-of-mira',
      ).load('n-mira');
      if (!loaded.ok) throw new Error(loaded.message);
      const figures = measurePersona(MIRA, loaded.setup);

      const requests: GenerationRequest[] = [];
      const info = readNpcNode(npcDump(overrides))!;
      // Tools on: a turn with toolChoice 'none' sends no catalog (respond-step.ts), and the meter
      // measures the prefix a turn that offers the tools sends.
      await realNpc(info, WORLD, requests).talk('Evening!');
      const sent = requests[0];
      expect(sent.systemInstruction).toBe(figures.systemInstruction);
      expect(sent.promptPrefix ?? '').toBe(figures.promptPrefix);
      expect(estimateTokens((sent.systemInstruction ?? '') + (sent.promptPrefix ?? ''))).toBe(figures.prefixTokens);
      expect(figures.personaTokens + figures.toolsTokens + figures.replyFormatTokens).toBe(figures.prefixTokens);
    });
  }

  it('lists the tools the NPC would have and counts them in the tools row', async () => {
    const setup = okSetup(sceneNpcSetup(readNpcNode(npcDump())!, WORLD));
    expect(npcToolCatalog(setup).map((tool) => tool.name)).toEqual([
      'pour_drink',
      'ring_bell',
      'read_world_state',
      'update_world_state',
      'remember_fact',
    ]);
    const text = measurePersona(MIRA, okSetup(sceneNpcSetup(readNpcNode(npcDump({ replyFormat: 2 }))!, WORLD)));
    expect(text.promptPrefix).toContain('Tools:\n- pour_drink(drink: ale|wine): Pours the player a drink\n');
    expect(text.promptPrefix).not.toContain("Mira's reply is a JSON object");
    expect(text.systemInstruction).toContain('Start every reply with how you feel in brackets');
    const withTools = measurePersona(MIRA, setup);
    const without = measurePersona(MIRA, noToolsSetup());
    expect(withTools.toolsTokens).toBeGreaterThan(without.toolsTokens);
    // The read tool names the world's top-level keys, so the world's content counts.
    const empty = measurePersona(MIRA, okSetup(sceneNpcSetup(readNpcNode(npcDump())!, {})));
    expect(empty.promptPrefix).toContain('; empty right now\n');
    expect(withTools.promptPrefix).toContain('keys: player, time, menu\n');
  });

  it("reads the world from the store's JSON asset before its inline JSON", async () => {
    const calls: string[] = [];
    const scene = {
      tree: TREE,
      nodes: { 'n-mira': npcDump() },
      components: { 'store-1': storeDump('{"inline": true}', 'world-asset') },
      assets: { 'world-asset': { file: '/project/assets/world.json' } },
    };
    const read: string[] = [];
    const loaded = await sceneNpcSource(
      stubRequest(scene, calls),
      (file) => {
        read.push(file);
        return '{"fromAsset": 1}';
      },
      () => undefined,
    ).load('n-mira');
    expect(read).toEqual(['/project/assets/world.json']);
    expect(calls).toEqual([
      'scene:query-node:n-mira',
      'scene:query-component:store-1',
      'asset-db:query-asset-info:world-asset',
    ]);
    expect(loaded).toMatchObject({ ok: true, notes: [] });
    expect(measurePersona(MIRA, (loaded as { setup: MeterSetup }).setup).promptPrefix).toContain('keys: fromAsset\n');
  });

  it("measures with an empty world, and says why, when the store's state cannot be read", async () => {
    const cases: Array<[Scene, RegExp]> = [
      [
        { nodes: { n: npcDump() }, components: { 'store-1': storeDump('{not json') } },
        /^WorldStateStore: the world state is not JSON/,
      ],
      [{ nodes: { n: npcDump() }, components: { 'store-1': storeDump('[1, 2]') } }, /not a JSON object/],
      [{ nodes: { n: npcDump() }, components: {} }, /the WorldStateStore was not found/],
      [
        { nodes: { n: npcDump() }, components: { 'store-1': storeDump('', 'gone') }, assets: {} },
        /initial state asset was not found/,
      ],
    ];
    for (const [scene, note] of cases) {
      const loaded = await sceneNpcSource(
        stubRequest(scene),
        () => '',
        () => undefined,
      ).load('n');
      expect(loaded.ok).toBe(true);
      const { setup, notes } = loaded as { setup: MeterSetup; notes: string[] };
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(note);
      expect(measurePersona(MIRA, setup).promptPrefix).toContain('; empty right now\n');
    }
    const unreadable = {
      nodes: { n: npcDump() },
      components: { 'store-1': storeDump('', 'w') },
      assets: { w: { file: '/x.json' } },
    };
    const loaded = await sceneNpcSource(
      stubRequest(unreadable),
      () => {
        throw new Error('EACCES');
      },
      () => undefined,
    ).load('n');
    expect(loaded).toMatchObject({ ok: true, notes: [expect.stringContaining('could not be read (EACCES)')] });
  });

  it('notes world paths without a store (no world tools, as at run time)', () => {
    const result = sceneNpcSetup(readNpcNode(npcDump({ worldStore: null }))!);
    expect(result).toMatchObject({
      ok: true,
      notes: ['the NPC has world paths but no WorldStateStore, so it has no world tools'],
    });
    expect(npcToolCatalog((result as { setup: MeterSetup }).setup).map((tool) => tool.name)).toEqual([
      'pour_drink',
      'ring_bell',
      'remember_fact',
    ]);
  });

  it("refuses, with the NPC's own reason, a set-up a real NPC would refuse", async () => {
    const refused = (overrides: Record<string, unknown>) => sceneNpcSetup(readNpcNode(npcDump(overrides))!, WORLD);
    expect(refused({ groundingTool: 'check_menu' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('groundingTool "check_menu" is not one of this NPC\'s tools'),
    });
    const clash = {
      type: 'oam.ToolDeclaration',
      value: { name: { value: 'remember_fact' }, description: { value: 'mine' } },
    };
    expect(refused({ externalTools: [clash] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('clashes with a built-in NPC tool'),
    });
    const badName = {
      type: 'oam.ToolDeclaration',
      value: { name: { value: 'pour drink!' }, description: { value: 'x' } },
    };
    expect(refused({ externalTools: [badName] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^externalTools\[0\] \(pour drink!\): /),
    });
    // A parameters schema that is not JSON: NPCComponent refuses the tool (invalid_schema), so the meter does too.
    const badSchema = {
      type: 'oam.ToolDeclaration',
      value: { name: { value: 'pour_drink' }, description: { value: 'x' }, parametersSchema: { value: '{oops' } },
    };
    expect(refused({ externalTools: [badSchema] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^externalTools\[0\] \(pour_drink\): the parameters schema is not JSON/),
    });
    const listSchema = {
      type: 'oam.ToolDeclaration',
      value: { name: { value: 'pour_drink' }, description: { value: 'x' }, parametersSchema: { value: '[1]' } },
    };
    expect(refused({ externalTools: [listSchema] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('not a JSON object'),
    });
    expect(refused({ playerOptionCount: 9 })).toMatchObject({ ok: false });
    expect(refused({ emotions: [{ value: 'grumpy' }] })).toMatchObject({ ok: false });
    // The real NPC refuses the same set-ups.
    for (const overrides of [{ groundingTool: 'check_menu' }, { playerOptionCount: 9 }]) {
      expect(() => realNpc(readNpcNode(npcDump(overrides))!, WORLD, [])).toThrow();
    }
    const gone = await sceneNpcSource(
      stubRequest({ nodes: {} }),
      () => '',
      () => undefined,
    ).load('n-deleted');
    expect(gone).toEqual({ ok: false, message: 'the node has no NPCComponent any more' });
  });
});
