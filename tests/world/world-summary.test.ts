import { WorldState, WorldStateError } from '../../src/game/world';

describe('WorldState.summary', () => {
  const world = new WorldState({
    player: { name: 'Ann', gold: 30, inventory: ['sword', 'rope'], stats: { str: { base: 5, bonus: { ring: 1 } } } },
    quest: { stage: 2, title: 'The lost cat', notes: 'line one\nline two' },
    deep: { a: { b: { c: { d: { e: 1 } } } } },
    empty: {},
    nothing: null,
  });

  it('writes path: value lines, strings unquoted, lists as JSON, objects flattened', () => {
    expect(world.summary(['player', 'quest.title', 'nothing'])).toBe(
      [
        'player.name: Ann',
        'player.gold: 30',
        'player.inventory: ["sword","rope"]',
        'player.stats.str.base: 5',
        'player.stats.str.bonus.ring: 1',
        'quest.title: The lost cat',
        'nothing: null',
      ].join('\n'),
    );
  });

  it('flattens to depth 4 below each path, then shows JSON', () => {
    expect(world.summary(['deep'])).toBe('deep.a.b.c.d: {"e":1}');
    expect(world.summary(['deep.a'])).toBe('deep.a.b.c.d.e: 1');
    expect(world.summary([''])).toContain('deep.a.b.c: {"d":{"e":1}}');
  });

  it('shows empty objects, missing paths, and text on one line', () => {
    expect(world.summary(['empty', 'player.mana', 'quest.notes'])).toBe(
      'empty: {}\nplayer.mana: (not set)\nquest.notes: line one line two',
    );
  });

  it('clips values at 200 characters', () => {
    const bulky = new WorldState({ long: 'x'.repeat(500), list: Array.from({ length: 100 }, (_, index) => index) });
    const [text, list] = bulky.summary(['long', 'list']).split('\n');
    expect(text).toBe(`long: ${'x'.repeat(199)}…`);
    expect(list.length).toBe('list: '.length + 200);
    expect(list.endsWith('…')).toBe(true);
  });

  it('caps the line count with "(N more not shown)" and drops duplicate lines', () => {
    const crowded = new WorldState({
      n: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`k${index}`, index])),
    });
    const lines = crowded.summary(['n']).split('\n');
    expect(lines).toHaveLength(30);
    expect(lines[28]).toBe('n.k28: 28');
    expect(lines[29]).toBe('(11 more not shown)');
    expect(crowded.summary(['n'], 3)).toBe('n.k0: 0\nn.k1: 1\n(38 more not shown)');
    expect(crowded.summary(['n.k1', 'n.k1', 'n/k1'])).toBe('n.k1: 1');
    expect(crowded.summary([])).toBe('');
  });

  it('rejects bad paths and limits', () => {
    expect(() => world.summary(['player..gold'])).toThrow(WorldStateError);
    expect(() => world.summary(['player'], 0)).toThrow(WorldStateError);
    expect(() => world.summary(['player'], 2.5)).toThrow(WorldStateError);
    expect(() => world.summary('player' as unknown as string[])).toThrow(WorldStateError);
  });
});
