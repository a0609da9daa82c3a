import { AgentError } from '../../src/contract/errors';
import { AgentTool, ToolOutput } from '../../src/core/tools';
import type { SignalLike } from '../../src/contract/abort';
import { WorldState, worldStateTools, WorldStateToolOptions } from '../../src/game/world';

const idle: SignalLike = { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined };

function tavern(): WorldState {
  return new WorldState({
    player: { name: 'Ann', gold: 30, inventory: ['sword'], brave: true, stats: {} },
    party: [
      { name: 'Bo', hp: 10 },
      { name: 'Cy', hp: 7 },
    ],
    quest: { stage: 1, done: false, log: [] },
  });
}

function toolsOf(world: WorldState, options: WorldStateToolOptions = {}): { read?: AgentTool; update?: AgentTool } {
  const tools = worldStateTools(world, options);
  return {
    read: tools.find((tool) => tool.name === 'read_world_state'),
    update: tools.find((tool) => tool.name === 'update_world_state'),
  };
}

/** What the model would see from one call. */
async function call(tool: AgentTool | undefined, args: Record<string, unknown>): Promise<string> {
  if (!tool || !tool.handler) throw new Error('no such tool');
  let output: ToolOutput;
  try {
    output = ToolOutput.of(
      await tool.handler(args, { call: { id: 'call_test', name: tool.name, args }, signal: idle }),
    );
  } catch (error) {
    output = ToolOutput.error((error as Error).message);
  }
  return ToolOutput.render(output);
}

describe('worldStateTools: which tools', () => {
  it('defaults to a read tool over everything and no update tool', () => {
    const tools = worldStateTools(tavern());
    expect(tools.map((tool) => tool.name)).toEqual(['read_world_state']);
    expect(worldStateTools(tavern(), { writable: ['quest'] }).map((tool) => tool.name)).toEqual([
      'read_world_state',
      'update_world_state',
    ]);
    expect(worldStateTools(tavern(), { readable: [], writable: ['quest'] }).map((tool) => tool.name)).toEqual([
      'update_world_state',
    ]);
    expect(worldStateTools(tavern(), { readable: [] })).toEqual([]);
  });

  it('rejects bad options', () => {
    const world = tavern();
    for (const options of [
      { maxOutputChars: 99 },
      { maxOutputChars: 150.5 },
      { readable: ['a..b'] },
      { writable: ['[x'] },
      { readable: 'player' as unknown as string[] },
    ]) {
      let error: unknown;
      try {
        worldStateTools(world, options);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe('invalid_request');
    }
    expect(worldStateTools(world, { maxOutputChars: 100 })).toHaveLength(1);
  });

  it('describes the top-level keys (up to 12) or the readable and writable paths', () => {
    const { read, update } = toolsOf(tavern(), { readable: [''], writable: ['quest', 'player.gold'] });
    expect(read!.description).toBe('Game values by dot path; keys: player, party, quest.');
    expect(update!.description).toBe(
      "Change a value in the game's world state. Writable paths: quest, player.gold. The new value keeps the type already stored (a number stays a number).",
    );
    const many = new WorldState(Object.fromEntries(Array.from({ length: 15 }, (_, index) => [`k${index}`, index])));
    expect(toolsOf(many).read!.description).toContain(
      'keys: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11 (and 3 more).',
    );
    expect(toolsOf(new WorldState()).read!.description).toContain('; empty right now.');
    expect(toolsOf(tavern(), { readable: ['player.gold', 'quest', 'quest.stage'] }).read!.description).toContain(
      '; readable: player.gold, quest.',
    );
  });

  it('publishes schemas: path is text, value takes any JSON type', () => {
    const { read, update } = toolsOf(tavern(), { writable: ['quest'] });
    expect(read!.parameters.json).toMatchObject({
      type: 'object',
      required: ['path'],
      properties: { path: { type: 'string' } },
    });
    const schema = update!.parameters;
    expect((schema.json as { properties: { value: Record<string, unknown> } }).properties.value.type).toBeUndefined();
    for (const value of ['45', 45, true, null, [1], { a: 1 }]) {
      expect(schema.validate({ path: 'quest.stage', value })).toEqual([]);
    }
    expect(schema.validate({ path: 'quest.stage' }).length).toBeGreaterThan(0);
  });
});

describe('read_world_state', () => {
  it('returns values as compact JSON, matching keys regardless of case', async () => {
    const { read } = toolsOf(tavern());
    expect(await call(read, { path: 'player.gold' })).toBe('30');
    expect(await call(read, { path: 'PLAYER.Name' })).toBe('"Ann"');
    expect(await call(read, { path: 'Party[1]' })).toBe('{"name":"Cy","hp":7}');
    expect(await call(read, { path: '$.quest' })).toBe('{"stage":1,"done":false,"log":[]}');
    expect(JSON.parse(await call(read, { path: '' }))).toEqual(tavern().snapshot());
    expect(JSON.parse(await call(read, {}))).toEqual(tavern().snapshot());
  });

  it("explains a missing path with the parent's keys or the list's size and range", async () => {
    const { read } = toolsOf(tavern());
    expect(await call(read, { path: 'player.mana' })).toBe(
      'Error: No value at "player.mana". "player" has keys: name, gold, inventory, brave, stats.',
    );
    expect(await call(read, { path: 'party[5]' })).toBe(
      'Error: No value at "party[5]". "party" is a list of 2 items (indexes 0-1).',
    );
    expect(await call(read, { path: 'party.leader' })).toBe(
      'Error: No value at "party.leader". "party" is a list of 2 items (indexes 0-1).',
    );
    expect(await call(read, { path: 'quest.log[0]' })).toBe(
      'Error: No value at "quest.log[0]". "quest.log" is an empty list.',
    );
    expect(await call(read, { path: 'player.stats.hp' })).toBe(
      'Error: No value at "player.stats.hp". "player.stats" is empty.',
    );
    expect(await call(read, { path: 'player.gold.amount' })).toBe(
      'Error: No value at "player.gold.amount". "player.gold" holds 30, which has nothing inside.',
    );
    expect(await call(read, { path: 'player.pet.name' })).toBe(
      'Error: No value at "player.pet.name". Nothing is stored at "player.pet" yet.',
    );
    expect(await call(read, { path: 'weather' })).toBe(
      'Error: No value at "weather". The world state has keys: player, party, quest.',
    );
  });

  it('lists at most 20 keys in the error', async () => {
    const world = new WorldState({
      bag: Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`i${index}`, index])),
    });
    const text = await call(toolsOf(world).read, { path: 'bag.nope' });
    expect(text).toContain('i19 (and 5 more).');
    expect(text).not.toContain('i20');
  });

  it('reports bad paths', async () => {
    const { read } = toolsOf(tavern());
    expect(await call(read, { path: 'player..gold' })).toBe(
      'Error: World state path "player..gold": empty segment at character 8.',
    );
    expect(await call(read, { path: { x: 1 } })).toBe('Error: path must be text, e.g. "player.gold".');
  });

  it('reads only inside readable prefixes, or the readable parts of an ancestor', async () => {
    const { read } = toolsOf(tavern(), { readable: ['player.gold', 'quest', 'player.pet'] });
    expect(await call(read, { path: 'player.gold' })).toBe('30');
    expect(await call(read, { path: 'Quest.Stage' })).toBe('1');
    expect(await call(read, { path: 'player' })).toBe('{"gold":30}');
    expect(await call(read, { path: '' })).toBe('{"player":{"gold":30},"quest":{"stage":1,"done":false,"log":[]}}');
    const denied = 'is not readable. Readable paths: player.gold, quest, player.pet.';
    expect(await call(read, { path: 'player.name' })).toBe(`Error: "player.name" ${denied}`);
    expect(await call(read, { path: 'party[0]' })).toBe(`Error: "party[0]" ${denied}`);
    expect(await call(read, { path: 'secrets.code' })).toBe(`Error: "secrets.code" ${denied}`);
    expect(await call(read, { path: 'player.pet' })).toBe(
      'Error: No value at "player.pet". Readable paths: player.gold, quest, player.pet.',
    );
  });

  it('shortens a long object into a key preview with a note', async () => {
    const world = new WorldState({
      shop: {
        owner: 'Gorm',
        blurb: 'A'.repeat(300),
        stock: Array.from({ length: 50 }, (_, index) => ({ item: `thing ${index}`, price: index })),
        prices: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`item${index}`, index])),
        open: true,
      },
    });
    const text = await call(toolsOf(world).read, { path: 'shop' });
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(JSON.parse(text)).toEqual({
      owner: 'Gorm',
      blurb: `${'A'.repeat(74)}...`,
      stock: '[list of 50 items]',
      prices: '{object with 40 keys}',
      open: true,
      _note:
        'Shortened to fit (all 5 keys shown, nested values previewed); read a key such as "shop.stock" for its full value.',
    });
    expect((JSON.parse(text) as { blurb: string }).blurb).toHaveLength(77);
  });

  it('keeps only the leading keys that fit when even the preview is too long', async () => {
    const world = new WorldState({
      big: Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`key${index}`, 'v'.repeat(60)])),
    });
    const text = await call(toolsOf(world, { maxOutputChars: 400 }).read, { path: 'big' });
    expect(text.length).toBeLessThanOrEqual(400);
    const value = JSON.parse(text) as Record<string, string>;
    const shown = Object.keys(value).filter((key) => key !== '_note');
    expect(shown[0]).toBe('key0');
    expect(shown.length).toBeGreaterThan(1);
    expect(value._note).toContain(`${shown.length} of 100 keys`);
  });

  it('keeps the leading items of a long list, with a note', async () => {
    const world = new WorldState({ log: Array.from({ length: 200 }, (_, index) => `entry number ${index}`) });
    const text = await call(toolsOf(world, { maxOutputChars: 300 }).read, { path: 'log' });
    expect(text.length).toBeLessThanOrEqual(300);
    const value = JSON.parse(text) as { items: string[]; _note: string };
    expect(value.items[0]).toBe('entry number 0');
    const count = value.items.length;
    expect(count).toBeGreaterThan(3);
    expect(value.items).toEqual(Array.from({ length: count }, (_, index) => `entry number ${index}`));
    expect(value._note).toBe(`Showing the first ${count} of 200 items; read log[${count}] and on for the rest.`);
  });

  it('clips long text', async () => {
    const world = new WorldState({ book: 'word '.repeat(1000) });
    const text = await call(toolsOf(world, { maxOutputChars: 200 }).read, { path: 'book' });
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text.endsWith('… (5000 characters in all)"')).toBe(true);
  });

  it('leaves short values alone and never changes the state', async () => {
    const world = tavern();
    const { read } = toolsOf(world, { maxOutputChars: 100 });
    expect(await call(read, { path: 'party[0]' })).toBe('{"name":"Bo","hp":10}');
    expect(world.version).toBe(0);
  });
});

describe('update_world_state', () => {
  it('writes inside writable prefixes and reports old and new values', async () => {
    const world = tavern();
    const seen: string[] = [];
    world.observe('player', (change) => seen.push(change.path));
    const { update } = toolsOf(world, { writable: ['player.gold', 'quest'] });
    expect(await call(update, { path: 'player.gold', value: 45 })).toBe('Set player.gold to 45 (was 30).');
    expect(await call(update, { path: 'quest.stage', value: 2 })).toBe('Set quest.stage to 2 (was 1).');
    expect(await call(update, { path: 'quest.giver', value: 'Gorm' })).toBe('Set quest.giver to "Gorm" (was not set).');
    expect(await call(update, { path: 'Quest.Done', value: true })).toBe('Set quest.done to true (was false).');
    expect(world.get('quest')).toEqual({ stage: 2, done: true, log: [], giver: 'Gorm' });
    expect(seen).toEqual(['player.gold']);
  });

  it('refuses paths outside the writable prefixes, listing them', async () => {
    const world = tavern();
    const { update } = toolsOf(world, { writable: ['player.gold', 'quest'] });
    const denied = 'is read-only. Writable paths: player.gold, quest.';
    expect(await call(update, { path: 'player.name', value: 'Eve' })).toBe(`Error: "player.name" ${denied}`);
    expect(await call(update, { path: 'player', value: {} })).toBe(`Error: "player" ${denied}`);
    expect(await call(update, { path: '', value: {} })).toBe(`Error: "" ${denied}`);
    expect(await call(update, { path: 'Party[0].HP', value: 1 })).toBe(`Error: "party[0].hp" ${denied}`);
    expect(world.version).toBe(0);
  });

  it('needs a path and a value', async () => {
    const { update } = toolsOf(tavern(), { writable: ['quest'] });
    expect(await call(update, { value: 1 })).toBe('Error: path is required, e.g. "player.gold".');
    expect(await call(update, { path: 'quest.stage' })).toBe(
      'Error: value is required: the new value for quest.stage.',
    );
    expect(await call(update, { path: 'quest..stage', value: 1 })).toContain(
      'Error: World state path "quest..stage": empty segment',
    );
  });

  it('says so when nothing changes', async () => {
    const world = tavern();
    const { update } = toolsOf(world, { writable: ['player'] });
    expect(await call(update, { path: 'player.gold', value: '30' })).toBe(
      'player.gold is already 30; nothing changed.',
    );
    expect(world.version).toBe(0);
  });

  it("matches the allowlist exactly: keys not stored yet keep the model's spelling and are refused in another case", async () => {
    const world = new WorldState({});
    const { update } = toolsOf(world, { writable: ['quest.flags'] });
    expect(await call(update, { path: 'QUEST.Flags.doorOpen', value: 'true' })).toBe(
      'Error: "QUEST.Flags.doorOpen" is read-only. Writable paths: quest.flags.',
    );
    expect(world.snapshot()).toEqual({});
    expect(await call(update, { path: 'quest.flags.doorOpen', value: 'true' })).toBe(
      'Set quest.flags.doorOpen to true (was not set).',
    );
  });

  it('writable player.gold does not let the model write a separate Player.gold', async () => {
    const world = new WorldState({ player: { gold: 1 }, Player: { gold: 99 } });
    const { update } = toolsOf(world, { writable: ['player.gold'] });
    expect(await call(update, { path: 'Player.gold', value: 5 })).toMatch(/^Error: "Player\.gold" is read-only/);
    expect(world.get('Player.gold')).toBe(99);
    expect(await call(update, { path: 'player.gold', value: 5 })).toMatch(/^Set player\.gold to 5/);
  });

  it('passes on invalid targets as errors', async () => {
    const world = tavern();
    const { update } = toolsOf(world, { writable: [''] });
    expect(await call(update, { path: 'party[5]', value: 1 })).toBe(
      'Error: World state path "party[5]": index 5 is past the end of party (2 items); use 0..1 to replace or 2 to append.',
    );
    expect(await call(update, { path: 'player.brave.really', value: 1 })).toContain(
      'player.brave holds true/false, so it has no "really" inside',
    );
    expect(await call(update, { path: 'party[2]', value: { name: 'Di' } })).toBe(
      'Set party[2] to {"name":"Di"} (was not set).',
    );
    expect(await call(update, { path: '', value: 'x' })).toBe(
      'Error: The whole state holds an object; send a JSON object like {"key": "value"} (got "x").',
    );
  });

  it('rejects values that are not JSON', async () => {
    const world = tavern();
    const { update } = toolsOf(world, { writable: [''] });
    expect(await call(update, { path: 'fresh', value: () => 1 })).toContain('a function is not a JSON value');
    expect(await call(update, { path: 'fresh', value: NaN })).toContain('NaN is not a JSON number');
    expect(await call(update, { path: 'fresh', value: { at: new Date(0) } })).toContain(
      'World state path "fresh.at": a Date object is not plain JSON',
    );
    expect(await call(update, { path: 'player.gold', value: Infinity })).toBe(
      'Error: player.gold holds a number; Infinity is not a number. Send digits, like 45.',
    );
    expect(world.version).toBe(0);
  });

  describe('fits the value to the stored type', () => {
    const world = new WorldState({ gold: 30, open: false, name: 'Gorm', bag: ['rope'], stats: { str: 1 }, none: null });
    const { update } = toolsOf(world, { writable: [''] });

    it.each([
      ['gold', '45', 45],
      ['gold', '1,200', 1200],
      ['gold', ' -7.5 ', -7.5],
      ['gold', 12, 12],
      ['gold', '1e3', 1000],
      ['open', 'true', true],
      ['open', 'no', false],
      ['open', 'YES', true],
      ['open', '0', false],
      ['open', '1', true],
      ['open', 1, true],
      ['open', 'False', false],
      ['open', false, false],
      ['name', 42, '42'],
      ['name', true, 'true'],
      ['name', '"Borin"', 'Borin'],
      ['name', "'Dana'", 'Dana'],
      ['name', '  Ella  ', '  Ella  '],
      ['bag', '["rope","lamp"]', ['rope', 'lamp']],
      ['bag', ['map'], ['map']],
      ['stats', '{"str":2}', { str: 2 }],
      ['stats', { dex: 3 }, { dex: 3 }],
      ['none', '5', 5],
      ['fresh_number', '45', 45],
      ['fresh_flag', 'true', true],
      ['fresh_list', '[1,2]', [1, 2]],
      ['fresh_object', '{"a":1}', { a: 1 }],
      ['fresh_quoted', '"45"', '45'],
      ['fresh_null', 'null', null],
      ['fresh_word', 'hello', 'hello'],
      ['fresh_commas', '1,200', '1,200'],
      ['fresh_words', 'True love', 'True love'],
      ['fresh_raw', { a: [1] }, { a: [1] }],
    ])('%s ← %j gives %j', async (path, value, expected) => {
      const text = await call(update, { path, value });
      expect(text).not.toMatch(/^Error/);
      expect(world.get(path)).toEqual(expected);
    });

    it.each([
      ['gold', 'lots', 'Error: gold holds a number; "lots" is not a number. Send digits, like 45.'],
      ['gold', '45 gold', 'Error: gold holds a number; "45 gold" is not a number. Send digits, like 45.'],
      ['gold', true, 'Error: gold holds a number; true is not a number. Send digits, like 45.'],
      ['gold', [45], 'Error: gold holds a number; a list is not a number. Send digits, like 45.'],
      ['open', 'maybe', 'Error: open holds true/false; "maybe" is neither. Send true or false.'],
      ['open', 2, 'Error: open holds true/false; 2 is neither. Send true or false.'],
      ['name', { first: 'A' }, 'Error: name holds text; send a string, not an object.'],
      ['name', null, 'Error: name holds text; send a string, not null.'],
      ['bag', 'lamp', 'Error: bag holds a list; send a JSON list like ["sword", "shield"] (got "lamp").'],
      ['bag', '{"a":1}', 'Error: bag holds a list; send a JSON list like ["sword", "shield"] (got "{\\"a\\":1}").'],
      ['stats', '[1]', 'Error: stats holds an object; send a JSON object like {"key": "value"} (got "[1]").'],
      ['stats', 5, 'Error: stats holds an object; send a JSON object like {"key": "value"} (got 5).'],
    ])('%s ← %j is refused', async (path, value, message) => {
      const before = world.get(path);
      expect(await call(update, { path, value })).toBe(message);
      expect(world.get(path)).toEqual(before);
    });
  });
});
