/**
 * Host extensions (the seed's BridgeExtension, reference §1.3), through the public API: a host
 * adds methods under a prefix it owns, they answer like built-ins (params, errors, cancellation,
 * notifications before the response), appear in `initialize`, and stop at shutdown. Collisions
 * are refused at registration and a refused registration changes nothing.
 */
import { AgentError, BridgeEngine, ExtensionError, type BridgeExtension, type ExtensionCall } from '../../src';
import { Harness, type Message } from './harness';

const BUILT_IN_NOTIFICATIONS = ['session/event', 'tool/cancel', 'npc/event', 'world/changed'];

/** The game's tavern: its purse lives in a bridge world; a brew takes ten (fake) seconds. */
function tavern(host: () => Harness, log: string[] = []): BridgeExtension {
  return {
    prefix: 'tavern/',
    notifications: ['tavern/coins', 'tavern/bubbling'],
    methods: {
      'tavern/purse': (params, call) => {
        const world = call.world(params.string('world') ?? 'tavern');
        const gold = world.get('player.gold');
        call.notify('tavern/coins', { gold });
        return { world: world.id, gold, version: world.version };
      },
      'tavern/pay': (params) => {
        const amount = params.number('amount', { integer: true, min: 1 });
        const item = params.requiredString('item');
        return { item, amount: amount ?? 1, warnings: params.unknownWarnings() };
      },
      'tavern/brew': (params, call) =>
        new Promise((resolve, reject) => {
          log.push(`brew ${String(call.id)} started`);
          call.notify('tavern/bubbling', { step: 1 });
          const timer = host().timers.setTimeout(() => resolve({ ale: params.string('kind') ?? 'pale' }), 10_000);
          call.signal.addEventListener('abort', () => {
            log.push(`brew ${String(call.id)} aborted`);
            host().timers.clearTimeout(timer);
            // Told after the cancel: dropped, never sent after the −32009.
            call.notify('tavern/bubbling', { step: 2 });
            reject(call.signal.reason);
          });
        }),
      'tavern/stop': (params, call) => ({ cancelled: call.cancel(params.requiredString('brew')) }),
    },
    shutdown: () => {
      log.push('tavern shut down');
    },
  };
}

function hostWithTavern(log: string[] = [], logger: string[] = []): Harness {
  const host: Harness = new Harness({
    extensions: [tavern(() => host, log)],
    logger: (message) => logger.push(message),
  });
  return host;
}

function refusal(register: () => unknown): AgentError {
  try {
    register();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_request');
    return error as AgentError;
  }
  throw new Error('the registration was not refused');
}

const noop = () => ({});

describe('registration', () => {
  test('an extension given at construction answers its method with the result', async () => {
    const host = hostWithTavern();
    await host.call('world/create', { world: 'tavern', state: { player: { gold: 20 } } });
    await host.call('world/set', { world: 'tavern', path: 'player.gold', value: 17 });
    expect(await host.call('tavern/purse', {})).toEqual({ world: 'tavern', gold: 17, version: 1 });
    expect(await host.call('tavern/purse')).toEqual({ world: 'tavern', gold: 17, version: 1 });
  });

  test('registerExtension adds one at run time and returns its handle', async () => {
    const host = new Harness();
    expect((await host.error('game/roll')).code).toBe(-32601);
    const handle = host.engine.registerExtension({
      prefix: 'game/',
      methods: { 'game/roll': (params) => ({ roll: 4 + (params.number('bonus') ?? 0) }) },
    });
    expect(handle.prefix).toBe('game/');
    expect(await host.call('game/roll', { bonus: 2 })).toEqual({ roll: 6 });
    const dotted = host.engine.registerExtension({ prefix: 'my.game.', methods: { 'my.game.hour': () => 12 } });
    expect(dotted.prefix).toBe('my.game.');
    expect(await host.call('my.game.hour')).toBe(12);
  });

  test('a reply whose result cannot be written is an internal error, as for a built-in', async () => {
    const host = new Harness({ logger: () => undefined });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    host.engine.registerExtension({ prefix: 'game/', methods: { 'game/loop': () => cycle } });
    expect((await host.error('game/loop')).data.code).toBe('internal_error');
  });
});

describe('refused registrations', () => {
  const engine = () =>
    new BridgeEngine({ send: () => undefined, extensions: [{ prefix: 'tavern/', methods: { 'tavern/purse': noop } }] });

  test.each([
    ['a built-in namespace', 'session/', 'collides with the built-in "session/create"'],
    ['a built-in namespace with another separator', 'npc.', 'collides with the built-in "npc/create"'],
    ['a built-in namespace in capitals', 'World/', 'collides with the built-in "world/create"'],
    ['the tool/call namespace', 'tool/', 'collides with the built-in "tool/call"'],
    ['a built-in method', 'ping/', 'collides with the built-in "ping"'],
    ['the shutdown method', 'shutdown.', 'collides with the built-in "shutdown"'],
    ["JSON-RPC's own rpc. names", 'rpc.', 'collides with the built-in "rpc." names'],
    ['the same prefix as another extension', 'tavern/', 'overlaps the prefix "tavern/"'],
    ['a prefix inside another extension’s', 'tavern/cellar/', 'overlaps the prefix "tavern/"'],
    ['a prefix differing only in case', 'TAVERN/', 'overlaps the prefix "tavern/"'],
    ['a prefix without a separator', 'game', 'must be a name ending in "/" or "."'],
    ['an empty prefix', '', 'must be a name ending in "/" or "."'],
    ['a prefix of "/" alone', '/', 'must be a name ending in "/" or "."'],
  ])('a prefix that is %s', (_case, prefix, message) => {
    const error = refusal(() => engine().registerExtension({ prefix, methods: {} }));
    expect(error.message).toContain(message);
  });

  test('a prefix that a built-in starts with is refused before a method is even read', () => {
    const error = refusal(() => engine().registerExtension({ prefix: 'decision/', methods: { 'decision/x': noop } }));
    expect(error.message).toContain('"decision/decide"');
  });

  test('a name outside its own prefix, or a bad one, is refused', () => {
    const refused = (extension: Partial<BridgeExtension>) =>
      refusal(() => engine().registerExtension({ prefix: 'game/', methods: {}, ...extension } as BridgeExtension))
        .message;
    expect(refused({ methods: { 'shop/buy': noop } })).toContain('does not own the method "shop/buy"');
    expect(refused({ methods: { ping: noop } })).toContain('does not own the method "ping"');
    expect(refused({ methods: { 'tavern/purse': noop } })).toContain('does not own the method "tavern/purse"');
    expect(refused({ notifications: ['world/changed'] })).toContain('does not own the notification "world/changed"');
    expect(refused({ methods: { 'game/': noop } })).toContain('must be "game/" and a name');
    expect(refused({ methods: { 'game/a b': noop } })).toContain('must be "game/" and a name');
    expect(refused({ methods: { 'game/x': 'not a function' as never } })).toContain('needs a handler function');
    expect(refused({ methods: undefined })).toContain('needs methods');
    expect(refused({ methods: { 'game/x': noop }, notifications: ['game/x'] })).toContain('names "game/x" twice');
    expect(refused({ notifications: ['game/e', 'game/e'] })).toContain('names "game/e" twice');
    expect(refused({ notifications: 'game/e' as never })).toContain('notifications must be a list');
    expect(refused({ shutdown: 'soon' as never })).toContain('shutdown must be a function');
    expect(refusal(() => engine().registerExtension(null as never)).message).toContain('must be an object');
  });

  test('a bad extension in the options refuses the engine', () => {
    const error = refusal(
      () =>
        new BridgeEngine({
          send: () => undefined,
          extensions: [
            { prefix: 'game/', methods: {} },
            { prefix: 'game/more/', methods: {} },
          ],
        }),
    );
    expect(error.message).toContain('overlaps the prefix "game/"');
  });

  test('a refused registration changes nothing: its good names stay unknown and its prefix free', async () => {
    const host = hostWithTavern();
    const before = (await host.call('initialize')).capabilities;
    refusal(() =>
      host.engine.registerExtension({
        prefix: 'shop/',
        notifications: ['shop/opened'],
        methods: { 'shop/buy': () => ({ bought: true }), 'tavern/steal': noop },
      }),
    );
    const unknown = await host.error('shop/buy');
    expect(unknown).toMatchObject({ code: -32601, data: { code: 'method_not_found', method: 'shop/buy' } });
    expect((await host.call('initialize')).capabilities).toEqual(before);
    host.engine.registerExtension({ prefix: 'shop/', methods: { 'shop/buy': () => ({ bought: true }) } });
    expect(await host.call('shop/buy')).toEqual({ bought: true });
  });

  test('no extension is registered after shutdown', async () => {
    const host = new Harness();
    await host.call('shutdown');
    const error = refusal(() => host.engine.registerExtension({ prefix: 'late/', methods: {} }));
    expect(error.message).toContain('shut down');
  });
});

describe('params', () => {
  test('params are checked like a built-in’s: by name, typed, required, within the limits', async () => {
    const host = hostWithTavern();
    expect(await host.call('tavern/pay', { item: 'ale', amount: 3, tip: true })).toEqual({
      item: 'ale',
      amount: 3,
      warnings: ['params.tip is not a known member and was ignored.'],
    });
    expect(await host.error('tavern/pay', { amount: 3 })).toMatchObject({
      code: -32602,
      message: 'params.item is required (a string).',
      data: { code: 'invalid_params' },
    });
    expect((await host.error('tavern/pay', { item: 'ale', amount: 'three' })).message).toBe(
      'params.amount must be a whole number; got string.',
    );
    expect((await host.error('tavern/pay', { item: 'ale', amount: 0 })).code).toBe(-32602);
    expect((await host.error('tavern/pay', ['ale', 3])).message).toBe('params must be an object (params are by name).');
    let deep: unknown = 'ale';
    for (let level = 0; level < 80; level++) deep = { deep };
    expect((await host.error('tavern/pay', { item: deep })).code).toBe(-32602);
  });

  test('a world an extension reads must exist: −32052, and a bad path −32054', async () => {
    const host = hostWithTavern();
    expect(await host.error('tavern/purse', { world: 'cellar' })).toMatchObject({
      code: -32052,
      data: { code: 'world_not_found', world: 'cellar' },
    });
    host.engine.registerExtension({
      prefix: 'game/',
      methods: { 'game/peek': (params, call) => call.world('w1').get(params.requiredString('path')) },
    });
    await host.call('world/create', { state: { a: 1 } });
    expect(await host.call('game/peek', { path: 'a' })).toBe(1);
    expect((await host.error('game/peek', { path: 'a[' })).data).toMatchObject({ code: 'world_error', world: 'w1' });
  });
});

describe('errors', () => {
  function thrower(throwIt: (params: { string(name: string): string | undefined }) => never): Harness {
    const host = new Harness({ logger: () => undefined });
    host.engine.registerExtension({
      prefix: 'game/',
      methods: {
        'game/now': (params) => throwIt(params),
        'game/later': async (params) => {
          await Promise.resolve();
          return throwIt(params);
        },
      },
    });
    return host;
  }

  test('a thrown AgentError keeps its code and details, sync or async, as a built-in’s does', async () => {
    const host = thrower(() => {
      throw new AgentError('rate_limited', 'Too many barks.', { retryAfterMs: 2500 });
    });
    for (const method of ['game/now', 'game/later'])
      expect(await host.error(method)).toEqual({
        code: -32005,
        message: 'Too many barks.',
        data: { code: 'rate_limited', retryAfter: 'PT3S', retryAfterSeconds: 3 },
      });
    const refusing = thrower(() => {
      throw new AgentError('refusal', 'No.');
    });
    expect(await refusing.error('game/later')).toMatchObject({ code: -32003, data: { code: 'refusal' } });
  });

  test("an ExtensionError's own code in −32057…−32099 and its data pass through", async () => {
    const host = thrower(() => {
      throw new ExtensionError({
        code: -32060,
        message: 'The purse is empty.',
        data: { code: 'purse_empty', need: 5 },
      });
    });
    for (const method of ['game/now', 'game/later'])
      expect(await host.error(method)).toEqual({
        code: -32060,
        message: 'The purse is empty.',
        data: { code: 'purse_empty', need: 5 },
      });
    const edges = [-32057, -32099].map(
      (code) => new ExtensionError({ code, message: 'edge', data: { code: 'edge_case' } }),
    );
    expect(edges.map((error) => error.rpcCode)).toEqual([-32057, -32099]);
    expect(edges[0]).toBeInstanceOf(Error);
  });

  test('an ExtensionError outside its range or with a built-in name cannot be made', () => {
    const made = (code: number, name: string) => () => new ExtensionError({ code, message: 'x', data: { code: name } });
    expect(made(-32056, 'mine')).toThrow('from -32057 to -32099');
    expect(made(-32100, 'mine')).toThrow('from -32057 to -32099');
    expect(made(-32060.5, 'mine')).toThrow('from -32057 to -32099');
    expect(made(-32060, 'cancelled')).toThrow('built-in error name');
    expect(made(-32060, 'npc_not_found')).toThrow('built-in error name');
    expect(made(-32060, 'Not Snake')).toThrow('snake_case');
  });

  test('an ExtensionError that could not be made answers as the bug it is: −32603', async () => {
    const host = thrower(() => {
      throw new ExtensionError({ code: -32001, message: 'x', data: { code: 'sneaky' } });
    });
    expect((await host.error('game/now')).data.code).toBe('internal_error');
  });

  test('anything else is −32603 internal_error, without a stack, and the host’s logger hears of it', async () => {
    const logged: Array<[string, unknown]> = [];
    const host = new Harness({ logger: (message, error) => logged.push([message, error]) });
    host.engine.registerExtension({
      prefix: 'game/',
      methods: {
        'game/now': () => {
          throw new Error('oops');
        },
        'game/later': async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'gold')");
        },
        'game/string': () => {
          throw 'a thrown string';
        },
      },
    });
    expect(await host.error('game/now')).toEqual({
      code: -32603,
      message: 'Internal error: oops',
      data: { code: 'internal_error' },
    });
    expect((await host.error('game/later')).code).toBe(-32603);
    expect((await host.error('game/string')).message).toBe('Internal error: a thrown string');
    for (const line of host.raw) expect(line).not.toMatch(/\bat .*\.ts:\d+|extensions\.test/);
    expect(logged.map(([message]) => message)).toEqual([
      'BridgeEngine: extension method "game/now" threw',
      'BridgeEngine: extension method "game/later" threw',
      'BridgeEngine: extension method "game/string" threw',
    ]);
    expect(await host.call('ping')).toEqual({});
  });
});

describe('cancellation', () => {
  test('the extension cancels a long-running call of its own: −32009 at once, nothing of it after', async () => {
    const log: string[] = [];
    const host = hostWithTavern(log);
    const brew = host.start('tavern/brew', { kind: 'dark' });
    await host.settle(3);
    expect(host.response(brew)).toBeUndefined();
    expect(await host.call('tavern/stop', { brew: String(brew) })).toEqual({ cancelled: true });
    const answer = await host.waitFor(brew);
    expect(answer.error).toMatchObject({ code: -32009, data: { code: 'cancelled' } });
    expect(log).toEqual([`brew ${brew} started`, `brew ${brew} aborted`]);
    // Its one notification came before the answer; the one told after the cancel was dropped.
    expect(host.notifications('tavern/bubbling')).toEqual([{ step: 1 }]);
    expect(host.timers.count).toBe(0);
    expect(await host.call('tavern/stop', { brew: String(brew) })).toEqual({ cancelled: false });
    const answers = host.out.filter((message) => message.id === brew && !message.method);
    expect(answers).toHaveLength(1);
  });

  test('a cancelled call that ignores its signal is still answered −32009, once, and its late result dropped', async () => {
    const host = new Harness();
    let finish: (value: unknown) => void = () => undefined;
    const handle = host.engine.registerExtension({
      prefix: 'game/',
      notifications: ['game/done'],
      methods: {
        'game/stubborn': (_params, call) =>
          new Promise((resolve) => {
            finish = (value) => {
              call.notify('game/done', {});
              resolve(value);
            };
          }),
      },
    });
    const id = host.start('game/stubborn', {}, 41);
    await host.settle(3);
    expect(handle.cancel(41, 'The game closed the shop.')).toBe(true);
    expect((await host.waitFor(id)).error).toMatchObject({ code: -32009, message: 'The game closed the shop.' });
    finish({ late: true });
    await host.settle(5);
    expect(host.out.filter((message) => message.id === 41)).toHaveLength(1);
    expect(host.notifications('game/done')).toEqual([]);
    expect(handle.cancel(41)).toBe(false);
  });

  test('a call finished in time keeps its result; an unknown id cancels nothing', async () => {
    const host = hostWithTavern();
    const brew = host.start('tavern/brew', {});
    await host.settle(3);
    expect(await host.call('tavern/stop', { brew: 'nobody' })).toEqual({ cancelled: false });
    host.timers.advance(10_000);
    expect((await host.waitFor(brew)).result).toEqual({ ale: 'pale' });
  });

  test('shutdown cancels running calls (answered before the shutdown) and then calls shutdown()', async () => {
    const log: string[] = [];
    const host = hostWithTavern(log);
    const brew = host.start('tavern/brew', {});
    await host.settle(3);
    const stop = host.start('shutdown');
    const done = await host.waitFor(stop);
    expect(done.result).toEqual({});
    const answer = host.response(brew) as Message;
    expect(answer.error).toMatchObject({ code: -32009, message: 'The bridge is shutting down.' });
    expect(host.out.indexOf(answer)).toBeLessThan(host.out.indexOf(done));
    expect(log).toEqual([`brew ${brew} started`, `brew ${brew} aborted`, 'tavern shut down']);
    expect((await host.error('tavern/purse')).code).toBe(-32023);
  });
});

describe('notifications', () => {
  test("a call's notifications come before its response; the handle's at any time until shutdown", async () => {
    const host = hostWithTavern();
    const handle = host.engine.registerExtension({ prefix: 'bell/', notifications: ['bell/rang'], methods: {} });
    handle.notify('bell/rang', { times: 3 });
    handle.notify('bell/rang');
    expect(host.notifications('bell/rang')).toEqual([{ times: 3 }, {}]);
    await host.call('world/create', { world: 'tavern', state: { player: { gold: 9 } } });
    const id = host.start('tavern/purse', {});
    const answer = await host.waitFor(id);
    const coins = host.out.findIndex((message) => message.method === 'tavern/coins');
    expect(host.out[coins]).toEqual({ jsonrpc: '2.0', method: 'tavern/coins', params: { gold: 9 } });
    expect(coins).toBeLessThan(host.out.indexOf(answer));
    await host.call('shutdown');
    handle.notify('bell/rang', { times: 1 });
    expect(host.notifications('bell/rang')).toHaveLength(2);
  });

  test('a notification not declared, or with params that are not an object, is refused', async () => {
    const host = new Harness({ logger: () => undefined });
    const handle = host.engine.registerExtension({
      prefix: 'game/',
      notifications: ['game/told'],
      methods: { 'game/tell': (params, call) => call.notify(params.requiredString('what') as never) },
    });
    expect(() => handle.notify('game/secret')).toThrow('did not declare the notification "game/secret"');
    expect(() => handle.notify('world/changed')).toThrow('did not declare');
    expect(() => handle.notify('game/told', [1, 2] as never)).toThrow('must be an object');
    const error = await host.error('game/tell', { what: 'npc/event' });
    expect(error).toMatchObject({ code: -32603, data: { code: 'internal_error' } });
    expect(host.notifications('npc/event')).toEqual([]);
  });

  test('a client may send an extension method as a notification: it runs, with no id and no answer', async () => {
    const seen: ExtensionCall[] = [];
    const host = new Harness();
    host.engine.registerExtension({
      prefix: 'game/',
      methods: {
        'game/hello': (_params, call) => {
          seen.push(call);
          return { hello: true };
        },
      },
    });
    host.send({ method: 'game/hello', params: {} });
    await host.settle(3);
    expect(seen).toHaveLength(1);
    expect(seen[0].id).toBeUndefined();
    expect(seen[0].method).toBe('game/hello');
    expect(host.out).toEqual([]);
  });
});

describe('capabilities and shutdown', () => {
  test("initialize lists the extensions' methods after the built-ins and their notifications after the 4", async () => {
    const host = hostWithTavern();
    host.engine.registerExtension({ prefix: 'bell/', notifications: ['bell/rang'], methods: { 'bell/ring': noop } });
    const { capabilities } = await host.call('initialize', { protocolVersion: '1.0' });
    const methods: string[] = capabilities.methods;
    expect(methods.slice(methods.indexOf('shutdown'))).toEqual([
      'shutdown',
      'tavern/purse',
      'tavern/pay',
      'tavern/brew',
      'tavern/stop',
      'bell/ring',
    ]);
    expect(methods).toContain('session/respond');
    expect(capabilities.notifications).toEqual([
      ...BUILT_IN_NOTIFICATIONS,
      'tavern/coins',
      'tavern/bubbling',
      'bell/rang',
    ]);
    expect(capabilities.clientRequests).toEqual(['tool/call']);
  });

  test("each extension's shutdown runs once, a failing one is logged, and shutdown still answers {}", async () => {
    const calls: string[] = [];
    const logged: string[] = [];
    const host = new Harness({
      logger: (message) => logged.push(message),
      extensions: [
        { prefix: 'first/', methods: {}, shutdown: () => void calls.push('first') },
        {
          prefix: 'second/',
          methods: {},
          shutdown: async () => {
            calls.push('second');
            throw new Error('the cellar door stuck');
          },
        },
        { prefix: 'third/', methods: {} },
      ],
    });
    expect(await host.call('shutdown')).toEqual({});
    expect(calls).toEqual(['first', 'second']);
    expect(logged).toEqual(['BridgeEngine: the shutdown of extension "second/" threw']);
  });

  test('close() (the client went away) also shuts the extensions down', async () => {
    const log: string[] = [];
    const host = hostWithTavern(log);
    const brew = host.start('tavern/brew', {});
    await host.settle(3);
    await host.engine.close();
    expect((host.response(brew) as Message).error.code).toBe(-32009);
    expect(log).toContain('tavern shut down');
  });
});
