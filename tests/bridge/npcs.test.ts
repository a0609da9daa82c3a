/**
 * `npc/*` and `world/*` over the protocol (reference §3.3, §3.4): talk with npc/event deltas
 * that add up exactly to result.line, world/changed before the npc/talk response, client
 * tools, state and restore, update, reset, cancel, and the world methods.
 */
import { Harness, scripted, type Message } from './harness';

const MIRA = { name: 'Mira', role: 'the innkeeper', personality: 'warm and nosy' };

/** What a client shows: lineDelta appends, lineReset replaces. */
function shownLine(events: Message[]): string {
  let line = '';
  for (const { event } of events) {
    if (event.type === 'lineDelta') line += event.delta;
    if (event.type === 'lineReset') line = event.line;
  }
  return line;
}

describe('npc/talk', () => {
  test('streams the emotion, then line deltas that add up exactly to result.line', async () => {
    const host = new Harness();
    const created = await host.call('npc/create', {
      persona: MIRA,
      model: scripted([{ json: { emotion: 'happy', line: 'Welcome to the Crooked Lantern, traveller!' }, chunks: 6 }]),
    });
    expect(created).toEqual({ npc: 'npc1', tools: [], warnings: [] });
    const id = host.start('npc/talk', { npc: 'npc1', line: 'Evening!', stream: true });
    const response = await host.waitFor(id);
    expect(response.result).toMatchObject({
      npc: 'npc1',
      line: 'Welcome to the Crooked Lantern, traveller!',
      emotion: 'happy',
      playerOptions: [],
      endsConversation: false,
      toolCalls: [],
      relationship: 0,
      isFallback: false,
    });
    const events = host.notifications('npc/event');
    expect(events.every((entry) => entry.npc === 'npc1' && entry.requestId === id)).toBe(true);
    expect(events[0].event).toEqual({ type: 'emotion', emotion: 'happy' });
    expect(events.filter((entry) => entry.event.type === 'lineDelta').length).toBeGreaterThan(1);
    expect(shownLine(events)).toBe(response.result.line);
    expect(host.indexOf((message) => message.method === 'npc/event')).toBeLessThan(host.out.indexOf(response));
  });

  test('a line after a reset (the automatic text retry) still adds up to result.line', async () => {
    const host = new Harness();
    await host.call('npc/create', {
      persona: MIRA,
      model: scripted([{ text: 'not json at all' }, { text: 'still not json' }, { text: '[sad] Sorry, love.' }]),
    });
    const id = host.start('npc/talk', { npc: 'npc1', line: 'Hello?', stream: true });
    const response = await host.waitFor(id);
    expect(response.result.isFallback).toBe(false);
    expect(shownLine(host.notifications('npc/event'))).toBe(response.result.line);
  });

  test("world/changed from the NPC's tool arrives before the npc/talk response", async () => {
    const host = new Harness();
    await host.call('world/create', { world: 'tavern', state: { player: { gold: 20 } } });
    const sub = await host.call('world/subscribe', { world: 'tavern', path: 'player' });
    const created = await host.call('npc/create', {
      npc: 'mira',
      persona: MIRA,
      world: 'tavern',
      options: { worldWritable: ['player.gold'] },
      model: scripted([
        { toolCalls: [{ name: 'update_world_state', arguments: { path: 'player.gold', value: 14 } }] },
        { json: { emotion: 'happy', line: 'Six gold, thanks.' } },
      ]),
    });
    expect(created.tools).toEqual(['read_world_state', 'update_world_state']);
    const id = host.start('npc/talk', { npc: 'mira', line: 'Two ales.' });
    const response = await host.waitFor(id);
    const changed = host.out.find((message) => message.method === 'world/changed') as Message;
    expect(changed.params).toEqual({
      world: 'tavern',
      subscription: sub.subscription,
      path: 'player.gold',
      oldValue: 20,
      newValue: 14,
    });
    expect(host.out.indexOf(changed)).toBeLessThan(host.out.indexOf(response));
    expect(response.result.toolCalls[0]).toMatchObject({ call: { name: 'update_world_state' }, isError: false });
    expect((await host.call('world/get', { world: 'tavern', path: 'player.gold' })).value).toBe(14);
  });

  test('a client tool: toolCallStarted (client), tool/call with the npc and request, the reply reaches the turn', async () => {
    const host = new Harness();
    host.answerTools = (params) => ({ result: { output: { given: params.call.arguments.item } } });
    await host.call('npc/create', {
      npc: 'mira',
      persona: MIRA,
      tools: [
        {
          name: 'give_item',
          description: 'Gives the player an item.',
          parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
        },
      ],
      model: scripted([
        { toolCalls: [{ name: 'give_item', arguments: { item: 'key' } }] },
        { json: { emotion: 'neutral', line: 'Here is the key.' } },
      ]),
    });
    const id = host.start('npc/talk', { npc: 'mira', line: 'The key, please.', stream: true });
    const response = await host.waitFor(id);
    const call = host.out.find((message) => message.method === 'tool/call') as Message;
    expect(call.params).toMatchObject({
      npc: 'mira',
      requestId: id,
      call: { name: 'give_item', arguments: { item: 'key' } },
    });
    const started = host.notifications('npc/event').find((entry) => entry.event.type === 'toolCallStarted');
    expect(started?.event.execution).toBe('client');
    expect(response.result.toolCalls[0]).toMatchObject({ output: { given: 'key' }, isError: false });
    expect(response.result.line).toBe('Here is the key.');
  });

  test('a {"tool"} the NPC lacks is -32011 (the agent rejects it); an unknown NPC -32050', async () => {
    const host = new Harness();
    await host.call('npc/create', { persona: MIRA, model: scripted([]) });
    expect(await host.error('npc/talk', { npc: 'npc1', line: 'x', toolChoice: { tool: 'fly' } })).toMatchObject({
      code: -32011,
      data: { code: 'invalid_request' },
    });
    expect(await host.error('npc/talk', { npc: 'nobody', line: 'x' })).toMatchObject({
      code: -32050,
      data: { code: 'npc_not_found' },
    });
  });

  test('npc/cancel: -32009 for the running and queued talks, nothing kept; later talks go on', async () => {
    const host = new Harness();
    await host.call('npc/create', {
      persona: MIRA,
      model: scripted([
        { json: { emotion: 'happy', line: 'never' }, delayMs: 1_000_000 },
        { json: { emotion: 'happy', line: 'Hello again.' } },
      ]),
    });
    const first = host.start('npc/talk', { npc: 'npc1', line: 'one' });
    const second = host.start('npc/talk', { npc: 'npc1', line: 'two' });
    await host.settle(3);
    expect(await host.call('npc/cancel', { npc: 'npc1' })).toEqual({ npc: 'npc1', cancelled: 2 });
    for (const id of [first, second]) expect((await host.waitFor(id)).error.code).toBe(-32009);
    expect((await host.call('npc/state', { npc: 'npc1' })).state.transcript.transcript.entries).toEqual([]);
    expect((await host.call('npc/talk', { npc: 'npc1', line: 'three' })).line).toBe('Hello again.');
  });
});

test('a cancel at every point of an NPC turn: -32009 keeps no line and no fact, or the whole turn is kept', async () => {
  const create = (host: Harness) =>
    host.call('npc/create', {
      npc: 'mira',
      persona: MIRA,
      options: { memoryTools: 'all' },
      model: scripted([
        { toolCalls: [{ name: 'remember_fact', arguments: { fact: 'The player is Sam.' } }] },
        { json: { emotion: 'happy', line: 'Nice to meet you, Sam!' }, chunks: 4 },
      ]),
    });
  const probe = new Harness();
  await create(probe);
  const before = probe.out.length;
  await probe.call('npc/talk', { npc: 'mira', line: "I'm Sam.", stream: true });
  const turnMessages = probe.out.length - before - 1;
  const outcomes = new Set<string>();
  for (let cancelAt = 0; cancelAt <= turnMessages; cancelAt++) {
    const host = new Harness();
    await create(host);
    let seen = 0;
    host.onMessage = () => {
      if (seen++ === cancelAt) host.send({ method: 'npc/cancel', params: { npc: 'mira' } });
    };
    const response = await host.waitFor(host.start('npc/talk', { npc: 'mira', line: "I'm Sam.", stream: true }));
    host.onMessage = undefined;
    const { state } = await host.call('npc/state', { npc: 'mira' });
    if (response.error) {
      expect(response.error.code).toBe(-32009);
      expect(state.transcript.transcript.entries).toEqual([]);
      expect(state.memory.facts).toEqual([]);
    } else {
      expect(response.result.line).toBe('Nice to meet you, Sam!');
      expect(state.memory.facts).toEqual(['The player is Sam.']);
    }
    outcomes.add(response.error ? 'cancelled' : 'completed');
  }
  expect(outcomes).toEqual(new Set(['cancelled', 'completed']));
});

describe('the other npc methods', () => {
  test('state and restore: the saved NPC comes back with its memory and history; a gone world is dropped with a warning', async () => {
    const host = new Harness();
    await host.call('world/create', { world: 'w' });
    await host.call('npc/create', {
      npc: 'mira',
      persona: MIRA,
      world: 'w',
      memory: { facts: ['The player is Sam.'], relationship: 30 },
      model: scripted([{ json: { emotion: 'happy', line: 'Hello, Sam!' } }]),
    });
    await host.call('npc/talk', { npc: 'mira', line: 'Hi!' });
    const { state } = await host.call('npc/state', { npc: 'mira' });
    expect(state).toMatchObject({
      version: 1,
      npc: 'mira',
      world: 'w',
      memory: { facts: ['The player is Sam.'], relationship: 30 },
    });
    expect(await host.error('npc/restore', { state })).toMatchObject({ code: -32051, data: { code: 'npc_exists' } });
    await host.call('world/delete', { world: 'w' });
    const restored = await host.call('npc/restore', { state, npc: 'mira2', model: scripted([]) });
    expect(restored.npc).toBe('mira2');
    expect(restored.warnings.join(' ')).toMatch(/no longer exists/);
    const again = (await host.call('npc/state', { npc: 'mira2' })).state;
    expect(again.transcript.transcript.entries).toEqual(state.transcript.transcript.entries);
    expect(again.memory).toEqual(state.memory);
    expect(again.world).toBeUndefined();
  });

  test('update is all or nothing: a bad part changes nothing', async () => {
    const host = new Harness();
    await host.call('npc/create', { npc: 'mira', persona: MIRA, model: scripted([]) });
    const bad = await host.error('npc/update', {
      npc: 'mira',
      persona: { role: 'the cook' },
      options: { groundingTool: 'check_menu' },
    });
    expect(bad.code).toBe(-32602);
    expect((await host.call('npc/list')).npcs[0]).toMatchObject({ role: 'the innkeeper' });
    const good = await host.call('npc/update', {
      npc: 'mira',
      persona: { role: 'the cook', personality: null },
      memory: { relationship: 40 },
      tools: [{ name: 'check_menu', description: 'Lists the menu.' }],
      options: { groundingTool: 'check_menu' },
    });
    expect(good).toEqual({ npc: 'mira', warnings: [] });
    const listed = (await host.call('npc/list')).npcs[0];
    expect(listed).toMatchObject({
      npc: 'mira',
      name: 'Mira',
      role: 'the cook',
      tools: ['check_menu'],
      relationship: 40,
      busy: false,
      pendingOperations: 0,
    });
    const { state } = await host.call('npc/state', { npc: 'mira', settle: false });
    expect(state.persona.personality).toBeUndefined();
  });

  test('bark, reset, delete, limits and bad params', async () => {
    const host = new Harness();
    await host.call('npc/create', {
      persona: MIRA,
      model: scripted([{ text: 'Fresh bread, still warm!' }, { json: { emotion: 'happy', line: 'Hi.' } }]),
    });
    expect(await host.call('npc/bark', { npc: 'npc1', situation: 'Morning rush.' })).toEqual({
      npc: 'npc1',
      line: 'Fresh bread, still warm!',
    });
    await host.call('npc/talk', { npc: 'npc1', line: 'hi' });
    expect((await host.call('npc/list')).npcs[0].turnCount).toBe(1);
    expect(await host.call('npc/reset', { npc: 'npc1', clearMemory: true })).toEqual({ npc: 'npc1' });
    expect((await host.call('npc/list')).npcs[0].turnCount).toBe(0);
    expect(await host.call('npc/delete', { npc: 'npc1' })).toEqual({ npc: 'npc1', deleted: true });
    expect(await host.call('npc/list')).toEqual({ npcs: [] });
    expect((await host.error('npc/create', { model: 'scripted' })).code).toBe(-32602);
    expect((await host.error('npc/create', { persona: { role: 'no name' }, model: 'scripted' })).code).toBe(-32602);
    expect((await host.error('npc/create', { persona: MIRA, world: 'nowhere', model: 'scripted' })).code).toBe(-32052);
    expect(
      (await host.error('npc/create', { persona: MIRA, options: { maxToolRounds: -1 }, model: 'scripted' })).code,
    ).toBe(-32602);
    const warned = await host.call('npc/create', {
      persona: MIRA,
      options: { flavour: 'sweet' },
      model: 'scripted',
      colour: 'red',
    });
    expect(warned.warnings.join(' ')).toMatch(/flavour.*colour|colour.*flavour/s);
  });
});

describe('world/*', () => {
  test('create, get, set, merge (one world/changed per changed leaf), remove, snapshot, list, delete', async () => {
    const host = new Harness();
    expect(await host.call('world/create', { state: { player: { gold: 20, name: 'Sam' } } })).toEqual({
      world: 'w1',
      version: 0,
    });
    expect((await host.error('world/create', { world: 'w1' })).code).toBe(-32053);
    const { subscription } = await host.call('world/subscribe', { world: 'w1' });
    expect(await host.call('world/get', { world: 'w1', path: 'player.name' })).toEqual({
      world: 'w1',
      path: 'player.name',
      value: 'Sam',
      exists: true,
      version: 0,
    });
    expect(await host.call('world/get', { world: 'w1', path: 'player.hp' })).toMatchObject({
      value: null,
      exists: false,
    });
    expect(await host.call('world/set', { world: 'w1', path: 'player.hp', value: 10 })).toEqual({
      world: 'w1',
      path: 'player.hp',
      version: 1,
    });
    await host.call('world/merge', { world: 'w1', patch: { player: { gold: 15, title: 'Sir', name: null } } });
    expect(await host.call('world/remove', { world: 'w1', path: 'player.hp' })).toEqual({
      world: 'w1',
      path: 'player.hp',
      removed: true,
      oldValue: 10,
      version: 3,
    });
    const changes = host.notifications('world/changed');
    expect(changes).toEqual([
      { world: 'w1', subscription, path: 'player.hp', newValue: 10 },
      { world: 'w1', subscription, path: 'player.gold', oldValue: 20, newValue: 15 },
      { world: 'w1', subscription, path: 'player.title', newValue: 'Sir' },
      { world: 'w1', subscription, path: 'player.name', oldValue: 'Sam' },
      { world: 'w1', subscription, path: 'player.hp', oldValue: 10 },
    ]);
    expect(await host.call('world/snapshot', { world: 'w1' })).toEqual({
      world: 'w1',
      state: { player: { gold: 15, title: 'Sir' } },
      version: 3,
    });
    expect((await host.call('world/list')).worlds).toEqual([
      { world: 'w1', version: 3, npcs: [], subscriptions: [subscription], createdAt: expect.any(String) },
    ]);
    expect(await host.call('world/delete', { world: 'w1' })).toEqual({
      world: 'w1',
      deleted: true,
      endedSubscriptions: 1,
    });
    expect(await host.error('world/unsubscribe', { subscription })).toMatchObject({
      code: -32056,
      data: { code: 'subscription_not_found' },
    });
    expect(await host.error('world/get', { world: 'w1' })).toMatchObject({
      code: -32052,
      data: { code: 'world_not_found', world: 'w1' },
    });
  });

  test('a bad path is -32054 world_error with the world and the path; unsubscribe stops the notifications', async () => {
    const host = new Harness();
    await host.call('world/create', { world: 'w', state: { list: [1, 2] } });
    const error = await host.error('world/set', { world: 'w', path: 'list[x', value: 1 });
    expect(error).toMatchObject({ code: -32054, data: { code: 'world_error', world: 'w', path: 'list[x' } });
    const { subscription } = await host.call('world/subscribe', { world: 'w', path: 'list' });
    expect(await host.call('world/unsubscribe', { subscription })).toEqual({
      subscription,
      world: 'w',
      path: 'list',
      unsubscribed: true,
    });
    await host.call('world/set', { world: 'w', path: 'list[0]', value: 5 });
    expect(host.notifications('world/changed')).toEqual([]);
  });

  test('limits: 64 worlds, 256 subscriptions, 128 NPCs, then -32055 limit_reached', async () => {
    const host = new Harness();
    for (let index = 0; index < 64; index++) host.start('world/create', {});
    expect(await host.error('world/create', {})).toMatchObject({
      code: -32055,
      data: { code: 'limit_reached', limit: 64 },
    });
    for (let index = 0; index < 256; index++) host.start('world/subscribe', { world: 'w1' });
    expect((await host.error('world/subscribe', { world: 'w1' })).data).toEqual({ code: 'limit_reached', limit: 256 });
    for (let index = 0; index < 128; index++) host.start('npc/create', { persona: MIRA, model: 'scripted' });
    expect((await host.error('npc/create', { persona: MIRA, model: 'scripted' })).code).toBe(-32055);
  });
});
