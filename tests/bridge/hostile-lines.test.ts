/**
 * Lines a hostile or broken client may send (issue 29): the engine answers each request once,
 * never throws from receive(), never leaves a promise rejected unhandled, dispatches only its
 * own method names, and reports a client's bad input as invalid params (−32602), never as a
 * model failure.
 */
import { MAX_DEPTH } from '../../src/bridge/value-limits';
import { Harness, scripted, type Message } from './harness';

// Deep values as JSON text: JSON.stringify itself recurses and overflows on them.
const deepList = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObject = (depth: number): string => `${'{"note":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

/** Sends a request whose params are JSON text; returns its id. */
let nextId = 0;
function sendText(host: Harness, method: string, params: string): string {
  const id = `h${++nextId}`;
  host.line(`{"jsonrpc":"2.0","id":"${id}","method":${JSON.stringify(method)},"params":${params}}`);
  return id;
}

/** Rejections nobody handled while `run` and a few turns after it ran. */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await run();
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return seen;
}

const ORDER_TOOL = {
  name: 'take_order',
  description: 'Serves an item.',
  parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
};

describe('method names', () => {
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'])(
    '"%s" is an unknown method (−32601), with or without deep params',
    async (method) => {
      const host = new Harness();
      const plain = await host.error(method, { a: 1 });
      expect(plain).toMatchObject({ code: -32601, data: { code: 'method_not_found' } });
      // The value limits are checked before the method is looked up: a prototype name with deep params is −32602.
      const deep = (await host.waitFor(sendText(host, method, `{"a":${deepObject(5000)}}`))).error;
      expect(deep.code).toBe(-32602);
      host.send({ method, params: { a: 1 } }); // a notification: no answer at all
      expect(host.out.filter((message) => message.id === undefined)).toEqual([]);
    },
  );

  test('a 3 MB method name is not echoed back whole', async () => {
    const host = new Harness();
    const error = await host.error('m'.repeat(3_000_000));
    expect(error.code).toBe(-32601);
    expect(host.raw[host.raw.length - 1].length).toBeLessThan(1000);
  });

  test('a line over 4 MiB is refused with one short invalid-message error (id null)', async () => {
    const host = new Harness();
    host.line(`{"jsonrpc":"2.0","id":1,"method":"${'m'.repeat(5_000_000)}"}`);
    expect(host.out).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32600, message: expect.stringMatching(/at most 4194304 bytes/) }),
      },
    ]);
    expect(host.raw[0].length).toBeLessThan(300);
    expect(await host.call('ping')).toEqual({});
  });
});

describe('depth and numbers', () => {
  test.each([
    ['schema/validate', `{"schema":${deepObject(5000)},"value":1}`],
    ['session/create', `{"session":"deep","instructions":"x","contextNote":${deepObject(5000)}}`],
    ['npc/create', `{"persona":{"name":"Ada"},"options":{"note":${deepObject(5000)}}}`],
    ['npc/update', `{"npc":"npc1","options":${deepObject(5000)}}`],
    ['content/generate', `{"schema":{"type":"object"},"prompt":"x","context":${deepList(5000)}}`],
    ['session/respond', `{"session":"s","prompt":"x","context":${deepList(5000)}}`],
    ['world/create', `{"world":"w","state":{"a":${deepList(MAX_DEPTH)}}}`],
  ])('%s with params nested too deep is invalid params (−32602), not a model failure', async (method, params) => {
    const host = new Harness();
    const error = (await host.waitFor(sendText(host, method, params))).error;
    expect(error).toMatchObject({ code: -32602, data: { code: 'invalid_params' } });
    expect(error.message).toMatch(/nests deeper than 64 levels/);
  });

  test('the limit is exact: 64 levels pass the check, 65 do not', async () => {
    const host = new Harness();
    // params itself is level 0: {value: [...]} puts the innermost list at the given depth.
    const ok = await host.waitFor(
      sendText(host, 'schema/validate', `{"schema":{},"value":${deepList(MAX_DEPTH - 1)}}`),
    );
    expect(ok.result).toBeDefined();
    const refused = await host.waitFor(
      sendText(host, 'schema/validate', `{"schema":{},"value":${deepList(MAX_DEPTH)}}`),
    );
    expect(refused.error.code).toBe(-32602);
  });

  test('a number that overflows to Infinity anywhere in params is invalid params', async () => {
    const host = new Harness();
    host.line(
      '{"jsonrpc":"2.0","id":1,"method":"schema/validate","params":{"schema":{"type":"object"},"value":{"meta":{"n":1e400}}}}',
    );
    const response = await host.waitFor(1);
    expect(response.error).toMatchObject({ code: -32602, message: expect.stringMatching(/params\.value\.meta\.n/) });
  });

  test('npc/create with a deep note, then npc/state: both answered, nothing rejected unhandled, the host carries on', async () => {
    const host = new Harness();
    const unhandled = await unhandledDuring(async () => {
      const created = sendText(
        host,
        'npc/create',
        `{"npc":"deep","persona":{"name":"Ada"},"options":{"note":${deepObject(5000)}}}`,
      );
      const state = host.start('npc/state', { npc: 'deep' });
      expect((await host.waitFor(created)).error.code).toBe(-32602);
      expect((await host.waitFor(state)).error.code).toBe(-32050); // never created
      expect(await host.call('ping')).toEqual({});
    });
    expect(unhandled).toEqual([]);
  });

  test('a tool/call answered with a 10,000-deep error and no message fails that call, and the turn goes on', async () => {
    const host = new Harness();
    host.answerTools = () => undefined;
    host.onMessage = (message: Message) => {
      if (message.method === 'tool/call')
        host.line(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"error":${deepObject(10_000)}}`);
    };
    await host.call('session/create', {
      session: 'bar',
      tools: [ORDER_TOOL],
      model: scripted([
        { toolCalls: [{ name: 'take_order', arguments: { item: 'Ale' } }] },
        { text: 'No ale, sorry.' },
      ]),
    });
    const unhandled = await unhandledDuring(async () => {
      const response = await host.call('session/respond', { session: 'bar', prompt: 'An ale.' });
      expect(response.text).toBe('No ale, sorry.');
      expect(response.toolCalls[0]).toMatchObject({
        isError: true,
        output: expect.stringMatching(/answer was refused.*deeper than 64/),
      });
    });
    expect(unhandled).toEqual([]);
  });
});

describe('receive() never throws', () => {
  test.each([
    ['not a string', 42 as unknown as string],
    ['undefined', undefined as unknown as string],
    ['a lone surrogate method', '{"jsonrpc":"2.0","id":1,"method":"\\ud800"}'],
    ['a reply to nothing', '{"jsonrpc":"2.0","id":"t-99","result":{"output":1}}'],
    ['a reply with a deep result', `{"jsonrpc":"2.0","id":"t-1","result":${deepList(10_000)}}`],
    ['a request with 100,000-deep params', `{"jsonrpc":"2.0","id":7,"method":"ping","params":${deepList(100_000)}}`],
  ])('%s', async (_name, line) => {
    const host = new Harness();
    expect(() => host.line(line)).not.toThrow();
    expect(await host.call('ping')).toEqual({});
  });

  test('a result that cannot be written as JSON is answered with an internal error, not an unhandled rejection', async () => {
    // A host's own availability answer with a BigInt in it: JSON.stringify throws on the result.
    const host = new Harness({
      modelAvailability: () => Promise.resolve({ status: 'downloading', bytesDownloaded: BigInt(10) } as never),
    });
    const unhandled = await unhandledDuring(async () => {
      const error = await host.error('model/availability');
      expect(error).toMatchObject({ code: -32603, data: { code: 'internal_error' } });
      expect(await host.call('ping')).toEqual({});
    });
    expect(unhandled).toEqual([]);
  });
});

describe('params by name only', () => {
  test.each(['ping', 'session/list', 'npc/list', 'model/availability'])(
    '%s refuses params given as a list or a string',
    async (method) => {
      const host = new Harness();
      expect(await host.error(method, [1, 2])).toMatchObject({ code: -32602 });
      expect(await host.error(method, 'x')).toMatchObject({ code: -32602 });
      expect(await host.call(method, {})).toBeDefined();
    },
  );
});

describe('BridgeEngine.call() for in-process hosts', () => {
  test('params JSON cannot write, too deep or not finite are answered under the id, never thrown', async () => {
    const host = new Harness();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: unknown = 1;
    for (let level = 0; level < 20_000; level++) deep = [deep];
    expect(() => host.engine.call('schema/validate', { schema: {}, value: cyclic }, 'cyclic')).not.toThrow();
    expect(() => host.engine.call('schema/validate', { schema: {}, value: deep }, 'deep')).not.toThrow();
    expect(() => host.engine.call('schema/validate', { schema: {}, value: { n: Infinity } }, 'inf')).not.toThrow();
    expect(() => host.engine.call('schema/validate', { schema: {}, value: BigInt(10) }, 'big')).not.toThrow();
    for (const id of ['cyclic', 'deep', 'inf', 'big'])
      expect((await host.waitFor(id)).error).toMatchObject({ code: -32602 });
  });

  test('close() while a shutdown runs waits for it', async () => {
    const host = new Harness();
    await host.call('session/create', {
      session: 's',
      model: scripted([{ text: 'slow', delayMs: 1000 }]),
    });
    host.start('session/respond', { session: 's', prompt: 'x' });
    const shutdown = host.start('shutdown');
    let closed = false;
    const closing = host.engine.close().then(() => (closed = true));
    await host.settle(5);
    expect(closed).toBe(host.response(shutdown) !== undefined);
    host.timers.advance(2000);
    await closing;
    expect(host.response(shutdown)).toBeDefined();
  });
});

test('a tool parameter named __proto__ is an invalid schema, not a property that vanishes unchecked', async () => {
  const host = new Harness();
  host.line(
    '{"jsonrpc":"2.0","id":"p","method":"tools/validate","params":{"tools":[{"name":"pay","description":"x","parameters":{"type":"object","properties":{"__proto__":{"type":"number"}}}}]}}',
  );
  expect((await host.waitFor('p')).error).toMatchObject({ code: -32007 });
});
