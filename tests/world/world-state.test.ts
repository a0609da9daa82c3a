import { AgentError } from '../../src/contract/errors';
import { WorldState, WorldStateChange, WorldStateError } from '../../src/game/world';

function tavern(): WorldState {
  return new WorldState({
    player: { name: 'Ann', gold: 30, inventory: ['sword'] },
    party: [
      { name: 'Bo', hp: 10 },
      { name: 'Cy', hp: 7 },
    ],
    quest: { stage: 1, done: false },
  });
}

function thrown(fn: () => unknown): WorldStateError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WorldStateError);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_request');
    return error as WorldStateError;
  }
  throw new Error('expected a WorldStateError');
}

describe('WorldState: reading', () => {
  it('gets values by every path form', () => {
    const world = tavern();
    expect(world.get('player.gold')).toBe(30);
    expect(world.get('player/gold')).toBe(30);
    expect(world.get('$.player.gold')).toBe(30);
    expect(world.get('party[1].name')).toBe('Cy');
    expect(world.get('party.1.name')).toBe('Cy');
    expect(world.get('player.inventory[0]')).toBe('sword');
    expect(world.get('')).toEqual(world.snapshot());
    expect(world.get()).toEqual(world.snapshot());
  });

  it('returns undefined for missing places, including through scalars and bad indexes', () => {
    const world = tavern();
    for (const path of [
      'player.mana',
      'party[5]',
      'party.name',
      'player.gold.amount',
      'nothing.at.all',
      'party[0].name.x',
    ]) {
      expect(world.get(path)).toBeUndefined();
      expect(world.has(path)).toBe(false);
    }
    expect(world.has('quest.done')).toBe(true);
    expect(world.has('')).toBe(true);
  });

  it('never hands out its own objects', () => {
    const world = tavern();
    const player = world.get<{ inventory: string[] }>('player')!;
    player.inventory.push('shield');
    const snap = world.snapshot() as { party: { hp: number }[] };
    snap.party[0].hp = 0;
    const root = world.toJSON() as { quest: { stage: number } };
    root.quest.stage = 99;
    expect(world.get('player.inventory')).toEqual(['sword']);
    expect(world.get('party[0].hp')).toBe(10);
    expect(world.get('quest.stage')).toBe(1);
  });

  it('copies its initial value', () => {
    const initial = { a: { b: 1 } };
    const world = new WorldState(initial);
    initial.a.b = 2;
    expect(world.get('a.b')).toBe(1);
    expect(new WorldState().snapshot()).toEqual({});
  });

  it.each([[[1, 2]], [null], [42], ['text'], [new Date(0)]])('rejects %p as the whole state', (initial) => {
    thrown(() => new WorldState(initial as object));
  });

  it('lists keys and indexes', () => {
    const world = tavern();
    expect(world.keys()).toEqual(['player', 'party', 'quest']);
    expect(world.keys('party')).toEqual(['0', '1']);
    expect(world.keys('player.gold')).toBeUndefined();
    expect(world.keys('missing')).toBeUndefined();
  });
});

describe('WorldState: set', () => {
  it('replaces, creates intermediate objects and keeps key order', () => {
    const world = tavern();
    expect(world.set('player.gold', 45)).toBe(true);
    expect(world.set('world.weather.today', 'rain')).toBe(true);
    expect(world.get('world')).toEqual({ weather: { today: 'rain' } });
    expect(world.set('player.title', 'Knight')).toBe(true);
    expect(Object.keys(world.get('player')!)).toEqual(['name', 'gold', 'inventory', 'title']);
    expect(JSON.stringify(world)).toBe(
      '{"player":{"name":"Ann","gold":45,"inventory":["sword"],"title":"Knight"},"party":[{"name":"Bo","hp":10},{"name":"Cy","hp":7}],"quest":{"stage":1,"done":false},"world":{"weather":{"today":"rain"}}}',
    );
  });

  it('appends at index n of an n-item list and replaces inside it', () => {
    const world = tavern();
    world.set('player.inventory[1]', 'shield');
    world.set('player.inventory[0]', 'axe');
    world.set('party[2]', { name: 'Di', hp: 3 });
    world.set('party[2].hp', 4);
    expect(world.get('player.inventory')).toEqual(['axe', 'shield']);
    expect(world.get('party[2]')).toEqual({ name: 'Di', hp: 4 });
  });

  it('creates a list for a missing parent followed by [0], also as an intermediate', () => {
    const world = new WorldState();
    world.set('log[0]', 'first');
    world.set('crew[0].name', 'Eve');
    world.set('crew[1].name', 'Fin');
    expect(world.snapshot()).toEqual({ log: ['first'], crew: [{ name: 'Eve' }, { name: 'Fin' }] });
  });

  it('stores null as JSON null', () => {
    const world = tavern();
    world.set('quest.target', null);
    expect(world.has('quest.target')).toBe(true);
    expect(world.get('quest.target')).toBeNull();
  });

  it('set("") replaces the whole state with an object only', () => {
    const world = tavern();
    world.set('', { fresh: true });
    expect(world.snapshot()).toEqual({ fresh: true });
    thrown(() => world.set('', [1]));
  });

  it.each([
    ['player.gold.amount', 5, 'player.gold holds a number, so it has no "amount" inside'],
    ['player.name.first', 'A', 'player.name holds text'],
    ['player.inventory.best', 'x', 'player.inventory is a list; use an index like player.inventory[0]'],
    ['party.leader.name', 'x', 'party is a list'],
    ['party[3]', {}, 'index 3 is past the end of party (2 items); use 0..1 to replace or 2 to append'],
    ['party[5].name', 'x', 'index 5 is past the end of party'],
    ['newlist[1]', 'x', 'newlist does not exist yet, so the only index it can take is [0]'],
    ['a.b[2].c', 'x', 'a.b does not exist yet'],
  ])('refuses to set %s and leaves the state as it was', (path, value, message) => {
    const world = tavern();
    const before = world.snapshot();
    const error = thrown(() => world.set(path, value));
    expect(error.message).toContain(message);
    expect(error.message).toContain(`"${path}"`);
    expect(world.snapshot()).toEqual(before);
    expect(world.version).toBe(0);
  });

  class Monster {
    hp = 3;
  }
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  // A hole on purpose: the list the 'a list with a hole' row writes.
  // eslint-disable-next-line no-sparse-arrays
  const sparse = [1, , 3];

  it.each([
    { name: 'a function', value: () => 1, where: 'player.x', message: 'a function is not a JSON value' },
    { name: 'undefined', value: undefined, where: 'player.x', message: 'undefined' },
    { name: 'NaN', value: NaN, where: 'player.x', message: 'NaN is not a JSON number' },
    {
      name: 'Infinity inside',
      value: { stats: { hp: Infinity } },
      where: 'player.x.stats.hp',
      message: 'Infinity is not a JSON number',
    },
    { name: 'a cycle', value: cyclic, where: 'player.x.self.back', message: 'cycle' },
    { name: 'a Date', value: new Date(0), where: 'player.x', message: 'Date object is not plain JSON' },
    { name: 'a Map', value: new Map(), where: 'player.x', message: 'Map object is not plain JSON' },
    { name: 'a class instance', value: new Monster(), where: 'player.x', message: 'Monster object is not plain JSON' },
    { name: 'a bigint', value: BigInt(5), where: 'player.x', message: 'bigint' },
    { name: 'a symbol', value: Symbol('s'), where: 'player.x', message: 'symbol' },
    { name: 'a list with a hole', value: sparse, where: 'player.x[1]', message: 'hole' },
    { name: 'a function in a list', value: [1, () => 2], where: 'player.x[1]', message: 'function' },
  ])('rejects $name, naming where it is', ({ value, where, message }) => {
    const world = tavern();
    const error = thrown(() => world.set('player.x', value));
    expect(error.message).toContain(message);
    expect(error.path).toBe(where);
    expect(world.has('player.x')).toBe(false);
    expect(world.version).toBe(0);
  });

  it('accepts shared (non-cyclic) objects and null-prototype objects, storing copies', () => {
    const shared = { n: 1 };
    const bare = Object.create(null) as Record<string, unknown>;
    bare.k = 'v';
    const world = new WorldState();
    world.set('pair', { a: shared, b: shared, c: bare });
    shared.n = 2;
    expect(world.get('pair')).toEqual({ a: { n: 1 }, b: { n: 1 }, c: { k: 'v' } });
  });

  it('treats __proto__ and other odd keys as plain data', () => {
    const world = new WorldState();
    world.set('obj', JSON.parse('{"__proto__": {"polluted": true}}'));
    world.set('obj.constructor', 'ctor');
    world.set('obj["a.b"]', 1);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(world.get('obj.__proto__')).toEqual({ polluted: true });
    expect(world.get('obj.constructor')).toBe('ctor');
    expect(world.get('obj["a.b"]')).toBe(1);
    expect(world.has('obj.toString')).toBe(false);
    expect(world.keys('obj')).toEqual(['__proto__', 'constructor', 'a.b']);
  });

  it('normalises -0 to 0 like JSON', () => {
    const world = new WorldState();
    world.set('z', -0);
    expect(Object.is(world.get('z'), 0)).toBe(true);
  });
});

describe('WorldState: remove, modify, replace', () => {
  it('removes keys and list items (later items shift down)', () => {
    const world = tavern();
    expect(world.remove('player.gold')).toBe(true);
    expect(world.remove('party[0]')).toBe(true);
    expect(world.get('player')).toEqual({ name: 'Ann', inventory: ['sword'] });
    expect(world.get('party')).toEqual([{ name: 'Cy', hp: 7 }]);
    expect(world.version).toBe(2);
  });

  it('removing nothing returns false without a version step', () => {
    const world = tavern();
    for (const path of ['player.mana', 'party[9]', 'party.name', 'player.gold.x', 'no.such.place']) {
      expect(world.remove(path)).toBe(false);
    }
    expect(world.version).toBe(0);
  });

  it('remove("") clears everything', () => {
    const world = tavern();
    expect(world.remove('')).toBe(true);
    expect(world.snapshot()).toEqual({});
    expect(world.remove('')).toBe(false);
  });

  it('modify transforms a copy of the current value', () => {
    const world = tavern();
    expect(world.modify<number>('player.gold', (gold) => (gold ?? 0) + 5)).toBe(35);
    expect(world.modify<number>('player.xp', (xp) => (xp ?? 0) + 1)).toBe(1);
    expect(
      world.modify<string[]>('player.inventory', (items) => {
        items!.push('rope');
        return items;
      }),
    ).toEqual(['sword', 'rope']);
    expect(world.modify('quest', () => undefined)).toBeUndefined();
    expect(world.has('quest')).toBe(false);
    expect(world.version).toBe(4);
  });

  it('a throwing or async transform changes nothing', () => {
    const world = tavern();
    expect(() =>
      world.modify('player.gold', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    const error = thrown(() => world.modify('player.gold', async () => 1));
    expect(error.message).toContain('synchronous');
    thrown(() => world.modify('player.gold', () => ({ bad: () => 1 })));
    thrown(() => world.modify('player.gold', 5 as unknown as () => number));
    expect(world.get('player.gold')).toBe(30);
    expect(world.version).toBe(0);
  });

  it('modify is atomic under interleaved async callers', async () => {
    const world = new WorldState({ counter: 0 });
    const workers = Array.from({ length: 20 }, async (_, index) => {
      for (let step = 0; step < 25; step++) {
        await Promise.resolve(index);
        world.modify<number>('counter', (count) => (count ?? 0) + 1);
      }
    });
    await Promise.all(workers);
    expect(world.get('counter')).toBe(500);
    expect(world.version).toBe(500);
  });

  it('replace swaps the whole state', () => {
    const world = tavern();
    const seen: WorldStateChange[] = [];
    world.observe('player.gold', (change) => seen.push(change));
    expect(world.replace({ player: { gold: 1 } })).toBe(true);
    expect(world.snapshot()).toEqual({ player: { gold: 1 } });
    expect(seen).toHaveLength(1);
    expect(seen[0].path).toBe('');
    thrown(() => world.replace([] as unknown as object));
    thrown(() => world.replace(null as unknown as object));
  });
});

describe('WorldState: merge (RFC 7386)', () => {
  // The examples of RFC 7386 Appendix A, applied under a key so non-object targets are allowed.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ['text', { a: 1 }, { a: 1 }],
  ])('merges %j with %j', (target, patch, expected) => {
    const world = new WorldState({ doc: target });
    world.merge(patch, 'doc');
    expect(world.get('doc')).toEqual(expected);
  });

  it('merges at the root, one version step, one change per key that changed', () => {
    const world = tavern();
    const seen: WorldStateChange[] = [];
    world.onChange((change) => seen.push(change));
    const changed = world.merge({
      player: { gold: 50, name: 'Ann', inventory: null, mood: 'glad' },
      quest: null,
      weather: 'fog',
    });
    expect(changed).toBe(true);
    expect(world.version).toBe(1);
    expect(world.snapshot()).toEqual({
      player: { name: 'Ann', gold: 50, mood: 'glad' },
      party: [
        { name: 'Bo', hp: 10 },
        { name: 'Cy', hp: 7 },
      ],
      weather: 'fog',
    });
    expect(seen).toEqual([
      { path: 'player.gold', oldValue: 30, newValue: 50, version: 1 },
      { path: 'player.inventory', oldValue: ['sword'], version: 1 },
      { path: 'player.mood', newValue: 'glad', version: 1 },
      { path: 'quest', oldValue: { stage: 1, done: false }, version: 1 },
      { path: 'weather', newValue: 'fog', version: 1 },
    ]);
  });

  it('a patch that changes nothing neither bumps nor notifies', () => {
    const world = tavern();
    const listener = jest.fn();
    world.onChange(listener);
    expect(world.merge({ player: { gold: 30 }, missing: null })).toBe(false);
    expect(world.merge({})).toBe(false);
    expect(world.version).toBe(0);
    expect(listener).not.toHaveBeenCalled();
  });

  it('merge(null, path) deletes the path; a root patch must be an object', () => {
    const world = tavern();
    expect(world.merge(null, 'quest')).toBe(true);
    expect(world.has('quest')).toBe(false);
    expect(thrown(() => world.merge(5)).message).toContain('must be an object');
    thrown(() => world.merge(null));
  });

  it('merging at a new path creates it; bad paths or values change nothing', () => {
    const world = tavern();
    world.merge({ hp: 3 }, 'party[2]');
    expect(world.get('party[2]')).toEqual({ hp: 3 });
    const before = world.snapshot();
    thrown(() => world.merge({ a: 1 }, 'party[9]'));
    thrown(() => world.merge({ a: 1 }, 'player.gold.x'));
    thrown(() => world.merge({ player: { gold: NaN } }));
    expect(world.snapshot()).toEqual(before);
    expect(world.version).toBe(1);
  });
});

describe('WorldState: unchanged writes', () => {
  it('do not bump the version or notify', () => {
    const world = tavern();
    const listener = jest.fn();
    world.onChange(listener);
    expect(world.set('player.gold', 30)).toBe(false);
    expect(world.set('party[0]', { hp: 10, name: 'Bo' })).toBe(false); // key order does not matter
    expect(world.replace(world.snapshot())).toBe(false);
    expect(world.modify('quest.stage', (stage) => stage)).toBe(1);
    expect(world.version).toBe(0);
    expect(listener).not.toHaveBeenCalled();
    expect(world.changes()).toEqual([]);
  });
});

describe('WorldState: observers', () => {
  it('fire for changes at, inside and above the path, not beside it', () => {
    const world = tavern();
    const seen: string[] = [];
    world.observe('party[0]', (change) => seen.push(change.path));
    world.set('party[0].hp', 9); // inside
    world.set('party[0]', { name: 'Bo', hp: 1 }); // at
    world.set('party', []); // above
    world.set('party[0]', 'x'); // at again (append)
    world.set('party[1]', 'y'); // beside
    world.set('player.gold', 1); // elsewhere
    world.replace({}); // the root is above everything
    expect(seen).toEqual(['party[0].hp', 'party[0]', 'party', 'party[0]', '']);
  });

  it('match party.0 and party[0] alike, and see list removals that shift items', () => {
    const world = tavern();
    const seen: WorldStateChange[] = [];
    world.observe('party.1.name', (change) => seen.push(change));
    world.remove('party[0]');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      path: 'party',
      oldValue: [
        { name: 'Bo', hp: 10 },
        { name: 'Cy', hp: 7 },
      ],
      newValue: [{ name: 'Cy', hp: 7 }],
      version: 1,
    });
  });

  it('run after the operation completes, seeing the new state', () => {
    const world = tavern();
    const views: unknown[] = [];
    world.observe('player.gold', () => views.push([world.get('player.gold'), world.get('player.mood'), world.version]));
    world.merge({ player: { gold: 99, mood: 'rich' } });
    expect(views).toEqual([[99, 'rich', 1]]);
  });

  it('unsubscribe stops them, even from inside a listener, and twice is harmless', () => {
    const world = tavern();
    const listenerA = jest.fn();
    const listenerB = jest.fn();
    const stopA = world.observe('player', listenerA);
    let stopB: () => void = () => undefined;
    stopB = world.observe('player', () => {
      listenerB();
      stopB();
    });
    world.set('player.gold', 1);
    stopA();
    stopA();
    world.set('player.gold', 2);
    expect(listenerA).toHaveBeenCalledTimes(1);
    expect(listenerB).toHaveBeenCalledTimes(1);
  });

  it('a throwing listener does not break the state or the other listeners', () => {
    const errors: unknown[] = [];
    const world = new WorldState(
      { n: 0 },
      { onListenerError: (error, change) => errors.push([(error as Error).message, change.path]) },
    );
    const after = jest.fn();
    world.onChange(() => {
      throw new Error('listener bug');
    });
    world.observe('n', after);
    expect(world.set('n', 1)).toBe(true);
    expect(world.get('n')).toBe(1);
    expect(after).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([['listener bug', 'n']]);
    world.set('n', 2);
    expect(errors).toHaveLength(2);
  });

  it('reports listener errors with console.warn by default, and survives a throwing reporter', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const world = new WorldState();
      world.onChange(() => {
        throw new Error('oops');
      });
      world.set('a', 1);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
    const world = new WorldState(
      {},
      {
        onListenerError: () => {
          throw new Error('reporter bug');
        },
      },
    );
    world.onChange(() => {
      throw new Error('oops');
    });
    expect(world.set('a', 1)).toBe(true);
  });

  it('writes made by a listener are delivered after the current change, in order', () => {
    const world = new WorldState({ hp: 10, alive: true });
    const order: string[] = [];
    world.onChange((change) => order.push(`${change.path}=${JSON.stringify(change.newValue)}@${change.version}`));
    world.observe('hp', (change) => {
      if ((change.newValue as number) <= 0) world.set('alive', false);
    });
    world.set('hp', 0);
    expect(order).toEqual(['hp=0@1', 'alive=false@2']);
    expect(world.get('alive')).toBe(false);
  });

  it('hand out frozen change records so one listener cannot alter what another sees', () => {
    const world = new WorldState();
    let record: WorldStateChange | undefined;
    world.onChange((change) => {
      record = change;
    });
    world.set('bag', { items: ['a'] });
    expect(Object.isFrozen(record)).toBe(true);
    expect(() => (record!.newValue as { items: string[] }).items.push('b')).toThrow();
    expect(world.get('bag.items')).toEqual(['a']);
  });

  it('rejects a listener that is not a function', () => {
    thrown(() => new WorldState().observe('a', 'nope' as unknown as () => void));
    thrown(() => new WorldState().observe('a..b', () => undefined));
  });
});

describe('WorldState: change log', () => {
  it('keeps records with versions, filterable by version and path', () => {
    const world = tavern();
    world.set('player.gold', 31);
    world.set('quest.stage', 2);
    world.remove('player.inventory');
    expect(world.version).toBe(3);
    expect(world.changes()).toEqual([
      { path: 'player.gold', oldValue: 30, newValue: 31, version: 1 },
      { path: 'quest.stage', oldValue: 1, newValue: 2, version: 2 },
      { path: 'player.inventory', oldValue: ['sword'], version: 3 },
    ]);
    expect(world.changes(2).map((change) => change.version)).toEqual([3]);
    expect(world.changes(3)).toEqual([]);
    expect(world.changes(0, 'player').map((change) => change.path)).toEqual(['player.gold', 'player.inventory']);
  });

  it('is bounded: the last 200 by default, or the configured size', () => {
    const world = new WorldState({ n: 0 });
    for (let index = 1; index <= 250; index++) world.set('n', index);
    const log = world.changes();
    expect(log).toHaveLength(200);
    expect(log[0].version).toBe(51);
    expect(log[199]).toEqual({ path: 'n', oldValue: 249, newValue: 250, version: 250 });
    const small = new WorldState({}, { changeLogSize: 2 });
    small.set('a', 1);
    small.set('b', 1);
    small.set('c', 1);
    expect(small.changes().map((change) => change.path)).toEqual(['b', 'c']);
    expect(small.version).toBe(3);
    thrown(() => new WorldState({}, { changeLogSize: -1 }));
  });
});

describe('WorldState: serialization', () => {
  it('round-trips through JSON keeping key order', () => {
    const world = new WorldState({ z: 1, a: { y: [1, { q: null }], b: 'x' }, m: true });
    const text = JSON.stringify(world);
    expect(text).toBe('{"z":1,"a":{"y":[1,{"q":null}],"b":"x"},"m":true}');
    const back = WorldState.fromJSON(text);
    expect(JSON.stringify(back)).toBe(text);
    expect(JSON.stringify(WorldState.fromJSON(world.toJSON()))).toBe(text);
    expect(back.version).toBe(0);
  });

  it('fromJSON rejects text that is not a JSON object', () => {
    expect(thrown(() => WorldState.fromJSON('{oops')).message).toContain('not JSON');
    thrown(() => WorldState.fromJSON('[1,2]'));
    thrown(() => WorldState.fromJSON('3'));
  });
});
