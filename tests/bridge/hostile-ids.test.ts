/**
 * Ids and patches a hostile client may send (issue 29, items 7 and 10): one id rule for
 * sessions, NPCs and worlds, and an options patch whose `__proto__` stays a plain, ignored key.
 */
import { Harness, scripted } from './harness';

const BAD_IDS: Array<[string, string]> = [
  ['empty', ''],
  ['3 MB', 'x'.repeat(3_000_000)],
  ['with NUL', 'a\u0000b'],
  ['with a newline', 'a\nb'],
  ['a lone surrogate', 'a\ud800'],
  ['129 characters', 'y'.repeat(129)],
];

describe('one rule for every id', () => {
  test.each(BAD_IDS)('%s: refused for a session, an NPC and a world alike, and not echoed whole', async (_name, id) => {
    const host = new Harness();
    const errors = [
      await host.error('session/create', { session: id, instructions: 'x' }),
      await host.error('npc/create', { npc: id, persona: { name: 'Ada' } }),
      await host.error('world/create', { world: id }),
      await host.error('npc/state', { npc: id }),
      await host.error('world/get', { world: id }),
      await host.error('npc/create', { persona: { name: 'Ada' }, world: id }),
      await host.error('session/respond', { session: id, prompt: 'x' }),
      await host.error('session/delete', { session: id }),
    ];
    for (const error of errors) expect(error).toMatchObject({ code: -32602, data: { code: 'invalid_params' } });
    expect(errors.map((error) => error.message).join(' ')).toMatch(/session id.*NPC id.*world id/s);
    expect(Math.max(...host.raw.map((line) => line.length))).toBeLessThan(2000);
  });

  test('other names a client sends are echoed shortened: subscriptions, model types, tool names, option keys', async () => {
    const host = new Harness();
    const long = 'q'.repeat(1_000_000);
    await host.error('world/unsubscribe', { subscription: long });
    await host.error('session/create', { session: 'm', model: { type: long } });
    await host.error('tools/validate', { tools: [{ name: long, description: 'x' }] });
    await host.call('npc/create', { npc: 'o', persona: { name: 'Ada' }, options: { [long]: 1 } });
    expect(Math.max(...host.raw.map((line) => line.length))).toBeLessThan(2000);
  });

  test('good ids of 1 and 128 characters, with emoji, still work', async () => {
    const host = new Harness();
    const long = `🍺${'z'.repeat(127)}`;
    await host.call('world/create', { world: long, state: {} });
    await host.call('npc/create', { npc: 'a', persona: { name: 'Ada' }, world: long });
    expect((await host.call('npc/state', { npc: 'a' })).npc).toBe('a');
  });
});

describe('npc/update with a __proto__ options patch', () => {
  test('is an ignored key with a warning: the live NPC gets no world write access its state does not show', async () => {
    const host = new Harness();
    await host.call('world/create', { world: 'w', state: { gold: 3 } });
    await host.call('npc/create', {
      npc: 'a',
      persona: { name: 'Ada' },
      world: 'w',
      model: scripted([
        { toolCalls: [{ name: 'update_world_state', arguments: { path: 'gold', value: 99 } }] },
        { json: { emotion: 'happy', line: 'Done.' } },
      ]),
    });
    host.line(
      '{"jsonrpc":"2.0","id":"u","method":"npc/update","params":{"npc":"a","options":{"__proto__":{"worldWritable":["gold"]}}}}',
    );
    const updated = await host.waitFor('u');
    expect(updated.result.warnings.join(' ')).toMatch(/__proto__ is not a known NPC option/);
    await host.call('npc/talk', { npc: 'a', line: 'Make me rich.' });
    expect((await host.call('world/get', { world: 'w' })).value).toEqual({ gold: 3 });
    expect(Object.getPrototypeOf((await host.call('npc/state', { npc: 'a' })).state.options)).toBe(Object.prototype);
  });
});

describe('npc/bark in the NPC queue', () => {
  test('npc/cancel counts and stops a bark in flight; after npc/delete no bark answers but with cancelled', async () => {
    const host = new Harness();
    await host.call('npc/create', {
      npc: 'a',
      persona: { name: 'Ada' },
      model: scripted([
        { text: 'Fresh bread!', delayMs: 1500 },
        { text: 'Again!', delayMs: 1500 },
      ]),
    });
    const first = host.start('npc/bark', { npc: 'a', situation: 'morning' });
    await host.settle(5);
    expect((await host.call('npc/cancel', { npc: 'a' })).cancelled).toBe(1);
    expect((await host.waitFor(first)).error).toMatchObject({ code: -32009 });
    const second = host.start('npc/bark', { npc: 'a', situation: 'noon' });
    await host.settle(5);
    await host.call('npc/delete', { npc: 'a' });
    expect((await host.waitFor(second)).error).toMatchObject({ code: -32009 });
    host.timers.advance(2000);
    await host.settle(10);
    expect(host.out.filter((message) => message.result?.line)).toEqual([]);
  });
});
