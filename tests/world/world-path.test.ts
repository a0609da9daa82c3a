import { AgentError } from '../../src/contract/errors';
import { WorldPath, WorldStateError } from '../../src/game/world';

describe('WorldPath', () => {
  it.each([
    ['player.gold', ['player', 'gold'], 'player.gold'],
    ['party[0].name', ['party', 0, 'name'], 'party[0].name'],
    ['player/gold', ['player', 'gold'], 'player.gold'],
    ['party/0/name', ['party', '0', 'name'], 'party.0.name'],
    ['$.player.gold', ['player', 'gold'], 'player.gold'],
    ['$[0]', [0], '[0]'],
    ['/player/gold', ['player', 'gold'], 'player.gold'],
    ['  player.gold  ', ['player', 'gold'], 'player.gold'],
    ['grid[1][2]', ['grid', 1, 2], 'grid[1][2]'],
    ['items["odd.key"].count', ['items', 'odd.key', 'count'], 'items["odd.key"].count'],
    ["items['it\\'s']", ['items', "it's"], 'items["it\'s"]'],
    ['items[sword]', ['items', 'sword'], 'items.sword'],
    ['player.first name', ['player', 'first name'], 'player.first name'],
    ['[ 3 ]', [3], '[3]'],
  ])('parses %j', (text, segments, canonical) => {
    const path = WorldPath.parse(text);
    expect(path.segments).toEqual(segments);
    expect(path.toString()).toBe(canonical);
    // The canonical form parses back to the same segments.
    expect(WorldPath.parse(canonical).segments).toEqual(segments);
  });

  it.each(['', '$', '   '])('%j is the root', (text) => {
    const path = WorldPath.parse(text);
    expect(path.isRoot).toBe(true);
    expect(path.toString()).toBe('');
    expect(path.parent).toBeUndefined();
  });

  it.each([
    ['player..gold', 'empty segment'],
    ['.player', 'empty segment'],
    ['player.', 'ends with a separator'],
    ['player/', 'ends with a separator'],
    ['player//gold', 'empty segment'],
    ['$.', 'empty segment'],
    ['party.[0]', 'empty segment'],
    ['party[]', 'empty brackets'],
    ['party[-1]', 'bad list index'],
    ['party[0', 'unclosed'],
    ['party]', 'unexpected "]"'],
    ['party[0]name', 'missing "."'],
    ['party["x]', 'unclosed'],
    ['party[""]', 'empty key'],
  ])('rejects %j', (text, why) => {
    let error: unknown;
    try {
      WorldPath.parse(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WorldStateError);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_request');
    expect((error as Error).message).toContain(why);
    expect((error as Error).message).toContain(`"${text}"`);
  });

  it('rejects a non-string path', () => {
    expect(() => WorldPath.parse(42 as unknown as string)).toThrow(WorldStateError);
  });

  it('quotes keys that would not parse back bare', () => {
    expect(WorldPath.of(['a.b', 'c/d', ' pad', '$x', 'ok']).toString()).toBe('["a.b"]["c/d"][" pad"]["$x"].ok');
    expect(() => WorldPath.of(['a', ''])).toThrow(WorldStateError);
    expect(() => WorldPath.of(['a', -1])).toThrow(WorldStateError);
  });

  it('compares prefixes, with indexes and number keys alike', () => {
    const first = WorldPath.parse('party');
    const path = WorldPath.parse('party[0].name');
    expect(first.isPrefixOf(path)).toBe(true);
    expect(path.isPrefixOf(first)).toBe(false);
    expect(WorldPath.root.isPrefixOf(path)).toBe(true);
    expect(WorldPath.parse('party.0').isPrefixOf(path)).toBe(true);
    expect(WorldPath.parse('Party').isPrefixOf(path)).toBe(false);
    expect(WorldPath.parse('Party').isPrefixOf(path, true)).toBe(true);
    expect(first.overlaps(path) && path.overlaps(first)).toBe(true);
    expect(WorldPath.parse('quest').overlaps(path)).toBe(false);
    expect(path.parent?.toString()).toBe('party[0]');
    expect(first.child(2, 'hp').toString()).toBe('party[2].hp');
    expect(JSON.stringify({ p: path })).toBe('{"p":"party[0].name"}');
  });
});
