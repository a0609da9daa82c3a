/**
 * Protocol v1.0 conformance (reference §3.1, §3.2, §3.5, §3.6): framing, ids, errors with
 * data.code, the core methods and shutdown, as the exchanges the reference documents.
 */
import { AgentError } from '../../src/contract/errors';
import { BridgeEngine } from '../../src/bridge';
import { toRpcError } from '../../src/bridge/errors';
import { ScriptedLanguageModel } from '../../src/scripted/scripted-model';
import { Harness, scripted, type Message } from './harness';

describe('initialize', () => {
  test('reports protocol 1.0, the server, every method, the 4 notifications and the limits', async () => {
    const host = new Harness();
    const result = await host.call('initialize', { client: { name: 'test' }, protocolVersion: '1.0' });
    expect(result.protocolVersion).toBe('1.0');
    expect(result.server.name).toBe('oam-cocos');
    const capabilities = result.capabilities;
    expect(capabilities.notifications).toEqual(['session/event', 'tool/cancel', 'npc/event', 'world/changed']);
    expect(capabilities.clientRequests).toEqual(['tool/call']);
    expect(capabilities.models).toEqual(['system', 'scripted']);
    expect(capabilities).toMatchObject({
      streaming: true,
      clientTools: true,
      structuredOutput: true,
      maxSessions: 64,
      batch: false,
    });
    for (const method of [
      'initialize',
      'ping',
      'model/availability',
      'schema/validate',
      'tools/validate',
      'shutdown',
      'session/create',
      'session/respond',
      'session/cancel',
      'session/reset',
      'session/delete',
      'session/list',
      'session/transcript',
      'session/setInstructions',
      'session/setContextNote',
      'session/setTools',
      'session/compact',
      'npc/create',
      'npc/talk',
      'npc/bark',
      'npc/state',
      'npc/restore',
      'npc/update',
      'npc/reset',
      'npc/cancel',
      'npc/delete',
      'npc/list',
      'decision/decide',
      'decision/decideMany',
      'world/create',
      'world/get',
      'world/set',
      'world/merge',
      'world/remove',
      'world/snapshot',
      'world/delete',
      'world/list',
      'world/subscribe',
      'world/unsubscribe',
      'content/generate',
    ]) {
      expect(capabilities.methods).toContain(method);
    }
  });

  test('another major version is -32602; a minor one is fine', async () => {
    const host = new Harness();
    const error = await host.error('initialize', { protocolVersion: '2.0' });
    expect(error.code).toBe(-32602);
    expect(error.data.code).toBe('invalid_params');
    await expect(host.call('initialize', { protocolVersion: '1.3' })).resolves.toMatchObject({
      protocolVersion: '1.0',
    });
  });

  test('maxSessions follows the host setting', async () => {
    const host = new Harness({ maxSessions: 3 });
    expect((await host.call('initialize')).capabilities.maxSessions).toBe(3);
  });
});

describe('model/availability', () => {
  test("the system model's availability with the Android extras", async () => {
    const model = new ScriptedLanguageModel([], {
      availability: { status: 'downloading', bytesDownloaded: 10, totalBytes: 40 },
    });
    const host = new Harness({ systemModel: model });
    const result = await host.call('model/availability');
    expect(result).toMatchObject({
      available: false,
      reason: 'model_not_ready',
      contextSize: 4000,
      supportedLanguages: [],
      status: 'downloading',
      bytesDownloaded: 10,
      totalBytes: 40,
    });
  });

  test("no system model: unavailable, and a reason outside the seed's list reads unknown with a detail", async () => {
    expect(await new Harness().call('model/availability')).toMatchObject({
      available: false,
      reason: 'unknown',
      status: 'unavailable',
    });
    const model = new ScriptedLanguageModel([], { availability: { status: 'unavailable', reason: 'unreachable' } });
    expect(await new Harness({ systemModel: model }).call('model/availability')).toMatchObject({
      reason: 'unknown',
      detail: 'unreachable',
    });
  });
});

describe('framing', () => {
  test('a line that is not JSON is -32700 with a null id', () => {
    const host = new Harness();
    host.line('{"jsonrpc":"2.0","id":1,"method":');
    expect(host.out).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700, data: { code: 'parse_error' } }) },
    ]);
  });

  test('invalid messages are -32600, with their id when it is readable (else null)', () => {
    const host = new Harness();
    for (const line of [
      '"hello"',
      '{"id":1,"method":"ping"}',
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":1}',
    ]) {
      host.line(line);
    }
    expect(host.out).toHaveLength(7);
    // As the seed's ProtocolTest.invalidMessagesAreRejected: a good id comes back; {} and null do not.
    expect(host.out.map((message) => message.id)).toEqual([null, 1, 1, null, null, 1, 1]);
    for (const message of host.out)
      expect(message.error).toMatchObject({ code: -32600, data: { code: 'invalid_message' } });
  });

  test('call(method, params, id) sends a request as a line would (in-process hosts)', () => {
    const host = new Harness();
    host.engine.call('ping', undefined, 7);
    host.engine.call('world/create', { world: 'w' });
    expect(host.out).toEqual([
      { jsonrpc: '2.0', id: 7, result: {} },
      { jsonrpc: '2.0', id: 'c-1', result: { world: 'w', version: 0 } },
    ]);
  });

  test('a batch is rejected as one -32600', () => {
    const host = new Harness();
    host.line('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]');
    expect(host.out).toHaveLength(1);
    expect(host.out[0]).toMatchObject({ id: null, error: { code: -32600, data: { code: 'invalid_message' } } });
  });

  test('blank lines are ignored', () => {
    const host = new Harness();
    host.line('');
    host.line('   ');
    host.line('\t');
    expect(host.out).toHaveLength(0);
  });

  test('an unknown method is -32601 with data.method', () => {
    const host = new Harness();
    host.start('teleport', {}, 5);
    expect(host.out[0]).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32601, message: expect.any(String), data: { code: 'method_not_found', method: 'teleport' } },
    });
  });

  test('ids come back exactly: strings, integers as plain digits, the largest safe integer', () => {
    const host = new Harness();
    host.line('{"jsonrpc":"2.0","id":"abc","method":"ping"}');
    host.line('{"jsonrpc":"2.0","id":42,"method":"ping"}');
    host.line('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}');
    host.line('{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}');
    expect(host.raw).toEqual([
      '{"jsonrpc":"2.0","id":"abc","result":{}}',
      '{"jsonrpc":"2.0","id":42,"result":{}}',
      '{"jsonrpc":"2.0","id":9007199254740991,"result":{}}',
      '{"jsonrpc":"2.0","id":-9007199254740991,"result":{}}',
    ]);
  });

  test('a numeric id of 2^53 or more is -32600 with a null id', () => {
    const host = new Harness();
    host.line('{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}');
    host.line('{"jsonrpc":"2.0","id":1e300,"method":"ping"}');
    expect(host.out.map((message) => [message.id, message.error.code])).toEqual([
      [null, -32600],
      [null, -32600],
    ]);
  });

  test('notifications get no response, not even for an unknown method or bad params', async () => {
    const host = new Harness();
    host.send({ method: 'ping' });
    host.send({ method: 'teleport' });
    host.send({ method: 'session/cancel', params: { session: 'nobody' } });
    host.send({ method: 'world/create', params: [1, 2] });
    await host.settle(5);
    expect(host.out).toHaveLength(0);
  });

  test('a reply to an id that no tool/call has is ignored', async () => {
    const host = new Harness();
    host.send({ id: 't-99', result: { output: 'late' } });
    host.send({ id: 'x', error: { code: 1, message: 'no' } });
    await host.settle(2);
    expect(host.out).toHaveLength(0);
  });

  test('every message goes out as one line, even with line breaks in the text', async () => {
    const host = new Harness();
    await host.call('session/create', { session: 'a', model: scripted([{ text: 'one\ntwo\u2028three' }]) });
    const result = await host.call('session/respond', { session: 'a', prompt: 'say\nit', stream: true });
    expect(result.text).toBe('one\ntwo\u2028three');
    for (const line of host.raw) expect(line).not.toMatch(/\n/);
  });

  test('params must be an object: absent means {}, null members count as absent', async () => {
    const host = new Harness();
    expect((await host.error('world/create', [1])).code).toBe(-32602);
    expect(await host.call('world/create', { world: null, state: null })).toEqual({ world: 'w1', version: 0 });
    expect(await host.call('session/list')).toEqual({ sessions: [] });
  });
});

describe('invalid params', () => {
  test('tool definitions: bad names, the reserved "respond", duplicates, a non-client execution', async () => {
    const host = new Harness();
    const bad = [
      [{ name: 'has space', description: 'x' }],
      [{ name: 'x'.repeat(65), description: 'x' }],
      [{ name: 'respond', description: 'x' }],
      [
        { name: 'a', description: 'x' },
        { name: 'a', description: 'y' },
      ],
      [{ name: 'a', description: 'x', execution: 'server' }],
      ['not a tool'],
    ];
    for (const tools of bad) {
      const error = await host.error('session/create', { tools, model: 'scripted' });
      expect(error).toMatchObject({ code: -32602, data: { code: 'invalid_params' } });
    }
  });

  test('a scripted step the script cannot play, an unknown model type, labels, an out-of-range timeout', async () => {
    const host = new Harness();
    for (const params of [
      { model: scripted([{ bogus: true }]) },
      { model: { type: 'quantum' } },
      { model: scripted([]), options: { userLabel: 'Us:er' } },
      { model: scripted([]), options: { toolTimeoutSeconds: 86401 } },
      { model: scripted([]), options: { toolTimeoutSeconds: -1 } },
      { model: scripted([]), options: { toolChoice: 'sometimes' } },
      { session: '', model: scripted([]) },
      { session: 'x'.repeat(129), model: scripted([]) },
    ]) {
      expect((await host.error('session/create', params)).code).toBe(-32602);
    }
    expect(await host.call('session/list')).toEqual({ sessions: [] });
  });

  test('a scripted model is refused when the host does not allow them', async () => {
    const host = new Harness({ allowsScriptedModels: false });
    expect((await host.error('session/create', { model: scripted([]) })).code).toBe(-32602);
  });

  test('unknown members are reported as warnings, not refused', async () => {
    const host = new Harness();
    const result = await host.call('session/create', {
      model: scripted([]),
      colour: 'blue',
      options: { speed: 3, sampling: { topP: 0.9, seed: 4 } },
    });
    expect(result.warnings.join('\n')).toMatch(/colour/);
    expect(result.warnings.join('\n')).toMatch(/speed/);
    expect(result.warnings.join('\n')).toMatch(/topP/);
  });
});

describe('schema/validate and tools/validate', () => {
  test('a good schema: its warnings, the generation schema and its rendering', async () => {
    const host = new Harness();
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', format: 'email' }, qty: { type: 'integer', minimum: 1 } },
      required: ['name'],
    };
    const result = await host.call('schema/validate', { schema, name: 'order' });
    // Closed, as the seed reads an object with properties and no additionalProperties.
    expect(result.generationSchema).toEqual({ ...schema, additionalProperties: false });
    expect(result.warnings.join(' ')).toMatch(/format/);
    expect(typeof result.rendered).toBe('string');
  });

  test('a malformed schema is -32007 with data.path (the param) and data.schemaPath (the keyword)', async () => {
    const host = new Harness();
    const error = await host.error('schema/validate', {
      schema: { type: 'object', properties: { qty: { type: 'integr' } } },
    });
    expect(error.code).toBe(-32007);
    expect(error.data).toEqual({
      code: 'invalid_schema',
      path: 'schema',
      schemaPath: '#/properties/qty/type',
    });
  });

  test("tools/validate: each tool with its warnings and generation schema; OpenAI's wrapper is accepted", async () => {
    const host = new Harness();
    const result = await host.call('tools/validate', {
      tools: [
        {
          type: 'function',
          function: {
            name: 'take_order',
            description: 'Serves a drink.',
            parameters: { type: 'object', properties: { item: { type: 'string' } } },
          },
        },
        { name: 'wave' },
      ],
    });
    expect(result.tools.map((tool: Message) => tool.name)).toEqual(['take_order', 'wave']);
    expect(result.tools[0].generationSchema).toEqual({
      type: 'object',
      properties: { item: { type: 'string' } },
      additionalProperties: false,
    });
    expect(result.warnings.join(' ')).toMatch(/wave: .*description/);
    const error = await host.error('tools/validate', {
      tools: [{ name: 'x', description: 'x', parameters: { type: 'object', properties: { a: { type: 7 } } } }],
    });
    expect(error).toMatchObject({
      code: -32007,
      data: { code: 'invalid_schema', path: 'tools[0].parameters', schemaPath: '#/properties/a/type' },
    });
  });
});

describe('shutdown', () => {
  test('cancels what runs (-32009 first), answers {}, then later requests get -32023; onShutdown runs after the response', async () => {
    const order: string[] = [];
    const host = new Harness({ onShutdown: () => order.push(`onShutdown after ${host.out.length} messages`) });
    await host.call('session/create', { session: 'a', model: scripted([{ text: 'never', delayMs: 1_000_000 }]) });
    const turn = host.start('session/respond', { session: 'a', prompt: 'hi' });
    await host.settle(3);
    const stop = host.start('shutdown');
    const shutdown = await host.waitFor(stop);
    expect(shutdown.result).toEqual({});
    const cancelled = host.response(turn) as Message;
    expect(cancelled.error).toMatchObject({ code: -32009, data: { code: 'cancelled' } });
    expect(host.out.indexOf(cancelled)).toBeLessThan(host.out.indexOf(shutdown));
    expect(order).toEqual([`onShutdown after ${host.out.length} messages`]);
    const late = await host.error('ping');
    expect(late).toMatchObject({ code: -32023, data: { code: 'shut_down' } });
  });
});

describe('error objects', () => {
  test('rate_limited carries retryAfter (ISO 8601) and retryAfterSeconds; details go into data under the wire code', () => {
    const limited = toRpcError(new AgentError('rate_limited', 'slow down', { retryAfterMs: 2500 }));
    expect(limited).toEqual({
      code: -32005,
      message: 'slow down',
      data: { code: 'rate_limited', retryAfter: 'PT3S', retryAfterSeconds: 3 },
    });
    const turns = toRpcError(
      new AgentError('generation_failed', 'too many steps', { details: { reason: 'max_turns_exceeded' } }),
    );
    expect(turns.data).toEqual({ code: 'generation_failed', reason: 'max_turns_exceeded' });
    // Only what a backend reported is a model failure: a bug is the host's internal error (issue 29).
    expect(toRpcError(new Error('a bug'))).toMatchObject({ code: -32603, data: { code: 'internal_error' } });
  });

  test('the engine refuses bad settings at once', () => {
    expect(() => new BridgeEngine({ send: () => undefined, maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => new BridgeEngine({ send: () => undefined, defaultToolTimeoutSeconds: -1 })).toThrow(
      /defaultToolTimeoutSeconds/,
    );
    expect(() => new BridgeEngine({} as never)).toThrow(/send/);
  });
});
