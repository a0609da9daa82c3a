/**
 * The fuzz class for issue 29: protocol lines generated from every method's params and mutated
 * (deep, huge, wrong types, prototype names as methods and keys, id forms, non-finite numbers,
 * batches, broken JSON), pipelined, with cancels and deletes among them and tool/call requests
 * answered oddly or not at all, through one BridgeEngine. What must stay zero: a receive() that
 * throws, a promise rejected unhandled, a request answered twice or never, an output line that
 * is not JSON-RPC 2.0, a change to Object.prototype.
 */
import { BridgeEngine } from '../../src';
import { rng } from './fuzz-core';

export interface ProtocolCounts {
  inputs: number;
  thrownReceives: number;
  unhandledRejections: number;
  missingResponses: number;
  duplicateResponses: number;
  nonJsonRpcLines: number;
  pollution: number;
  /** Answers that say the wrong thing: a prototype name not answered −32601, bad params not −32602, a crash reported as a model failure. */
  wrongAnswers: number;
  firstProblems: string[];
}

/** What a request's response must be, when the mutation decides it. */
type Expectation = 'any' | 'method_not_found' | 'invalid_params';

const PERSONA = { name: 'Bram', role: 'the ferryman', fallbackLines: ['Mind the water.'] };
const TOOL = {
  name: 'pay_toll',
  description: 'Takes the toll.',
  parameters: { type: 'object', properties: { coins: { type: 'integer' } }, required: ['coins'] },
};
const SCRIPT = {
  type: 'scripted',
  steps: [{ toolCalls: [{ name: 'pay_toll', arguments: { coins: 2 } }] }, { text: 'Across we go.' }],
  fallback: { json: { emotion: 'neutral', line: 'Mind the water.' } },
};
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** A valid params object per method (the base that mutations start from). */
function baseParams(method: string, pick: <T>(list: readonly T[]) => T): Record<string, unknown> {
  const session = pick(['s1', 's2', 's3']);
  const npc = pick(['n1', 'n2']);
  const world = pick(['w1', 'w2']);
  switch (method) {
    case 'initialize':
      return { client: { name: 'fuzz' }, protocolVersion: '1.0' };
    case 'schema/validate':
      return { schema: TOOL.parameters, value: { coins: 2 } };
    case 'tools/validate':
      return { tools: [TOOL] };
    case 'session/create':
      return { session, instructions: 'You are Bram.', tools: [TOOL], model: SCRIPT };
    case 'session/respond':
      return { session, prompt: 'Take me across.', stream: pick([true, false]) };
    case 'session/setInstructions':
      return { session, instructions: 'Be brief.' };
    case 'session/setContextNote':
      return { session, contextNote: 'It rains.' };
    case 'session/setTools':
      return { session, tools: [TOOL] };
    case 'npc/create':
      return { npc, persona: PERSONA, model: SCRIPT, world: pick([undefined, world]), tools: [TOOL] };
    case 'npc/talk':
      return { npc, line: 'Evening!', stream: pick([true, false]) };
    case 'npc/bark':
      return { npc, situation: 'fog' };
    case 'npc/update':
      return { npc, options: { playerOptionCount: 1 }, persona: { role: 'the old ferryman' } };
    case 'npc/restore':
      return { npc, state: { version: 1, persona: PERSONA, memory: {}, transcript: null } };
    case 'world/create':
      return { world, state: { tide: 'high', coins: 3 } };
    case 'world/set':
      return { world, path: 'coins', value: 4 };
    case 'world/patch':
      return { world, patch: { tide: 'low' } };
    case 'decision/decide':
      return { situation: 'A storm.', options: [{ id: 'wait' }, { id: 'row' }], model: SCRIPT };
    case 'content/generate':
      return {
        schema: { type: 'object', properties: { name: { type: 'string' } } },
        prompt: 'An item.',
        model: SCRIPT,
      };
    default:
      if (method.startsWith('session/')) return { session };
      if (method.startsWith('npc/')) return { npc };
      if (method.startsWith('world/')) return { world, path: '' };
      return {};
  }
}

const deepList = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

/** One mutation of a params object, or a raw line; the text of the line to send. */
function mutatedLine({
  method,
  params,
  id,
  random,
}: {
  method: string;
  params: Record<string, unknown>;
  id: number;
  random: () => number;
}): { text: string; expectsResponse: boolean; expect?: Expectation } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const keys = Object.keys(params);
  const key = keys.length > 0 ? pick(keys) : 'x';
  const request = (body: unknown, methodName = method) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: methodName, params: body });
  switch (Math.floor(random() * 16)) {
    case 0:
      return { text: request(params), expectsResponse: true };
    case 1:
      return {
        text: request({ ...params, [key]: pick([42, 'x', [], {}, null, true, -1, 1.5]) }),
        expectsResponse: true,
      };
    case 2: {
      const copy = { ...params };
      delete copy[key];
      return { text: request(copy), expectsResponse: true };
    }
    case 3: {
      // Deep values as text: JSON.stringify itself recurses.
      // Deep values as text (JSON.stringify itself recurses), at the top or inside a member.
      const depth = pick([62, 64, 200, 5000]);
      const inside = random() < 0.5 ? { [key]: { note: '@DEEP@' } } : { [key]: '@DEEP@' };
      const text = request({ ...params, ...inside }).replace('"@DEEP@"', `${'['.repeat(depth)}1${']'.repeat(depth)}`);
      return { text, expectsResponse: true, expect: depth >= 64 ? 'invalid_params' : 'any' };
    }
    case 4:
      return { text: request({ ...params, [key]: 'z'.repeat(pick([129, 10_000, 300_000])) }), expectsResponse: true };
    case 5:
      return { text: request(params, pick(PROTOTYPE_NAMES)), expectsResponse: true, expect: 'method_not_found' };
    case 6: {
      const text = request({ ...params, [pick(PROTOTYPE_NAMES)]: { admin: true } }).replace(
        /"(constructor|toString|hasOwnProperty|valueOf|__defineGetter__)"/,
        '"__proto__"',
      );
      return { text, expectsResponse: true };
    }
    case 7:
      return {
        text: request({ ...params, [key]: pick(['', 'a\u0000b', 'a\nb', '\ud800', '🍺'.repeat(70)]) }),
        expectsResponse: true,
      };
    case 8:
      return {
        text: request({ ...params, [key]: '@INF@' }).replace('"@INF@"', pick(['1e400', '-1e999'])),
        expectsResponse: true,
        expect: 'invalid_params',
      };
    case 9:
      return { text: request(pick([[1, 2], 'params', 7, deepList(3)])), expectsResponse: true };
    case 10:
      // A notification: never answered.
      return { text: JSON.stringify({ jsonrpc: '2.0', method, params }), expectsResponse: false };
    case 11:
      return {
        text: pick([
          '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
          'not json',
          '{"jsonrpc":"2.0","id":',
          '{"jsonrpc":"1.0","id":1,"method":"ping"}',
          `{"jsonrpc":"2.0","id":${pick(['null', '{}', '[]', 'true', '1e400', '9007199254740993'])},"method":"ping"}`,
          '{"jsonrpc":"2.0","id":"t-1","result":{"output":1}}',
          '',
        ]),
        expectsResponse: false,
      };
    case 12:
      return { text: request({ ...params, unknownMember: pick([1, 'x', { a: 1 }]) }), expectsResponse: true };
    case 13:
      return {
        text: request({ session: pick(['s1', 's2', 's3']) }, pick(['session/cancel', 'session/delete'])),
        expectsResponse: true,
      };
    case 14:
      return {
        text: request({ npc: pick(['n1', 'n2']) }, pick(['npc/cancel', 'npc/delete', 'npc/state'])),
        expectsResponse: true,
      };
    default:
      return {
        text: request({ ...params, [key]: { nested: { [pick(PROTOTYPE_NAMES)]: deepList(10) } } }),
        expectsResponse: true,
      };
  }
}

function isJsonRpc(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const fields = message as Record<string, unknown>;
  if (fields.jsonrpc !== '2.0') return false;
  if (typeof fields.method === 'string') return true;
  if (!('id' in fields)) return false;
  if ('error' in fields) {
    const error = fields.error as { code?: unknown; message?: unknown } | null;
    return !!error && typeof error.code === 'number' && typeof error.message === 'string';
  }
  return 'result' in fields;
}

const settle = (rounds = 5) =>
  new Array(rounds)
    .fill(0)
    .reduce<Promise<void>>((chain) => chain.then(() => new Promise((done) => setImmediate(done))), Promise.resolve());

/** Counts with nothing found yet: what a clean run ends with, besides its inputs. */
export function emptyProtocolCounts(): ProtocolCounts {
  return {
    inputs: 0,
    thrownReceives: 0,
    unhandledRejections: 0,
    missingResponses: 0,
    duplicateResponses: 0,
    nonJsonRpcLines: 0,
    pollution: 0,
    wrongAnswers: 0,
    firstProblems: [],
  };
}

export async function fuzzProtocol(count: number, seed: number): Promise<ProtocolCounts> {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const counts = emptyProtocolCounts();
  const expectations = new Map<number, Expectation>();
  const CRASH = /Maximum call stack|Cannot read prop|is not a function|is not defined|undefined/;
  const note = (problem: string) => {
    if (counts.firstProblems.length < 5) counts.firstProblems.push(problem.slice(0, 300));
  };
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).join(',');
  const onUnhandled = (reason: unknown) => {
    counts.unhandledRejections++;
    note(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`);
  };
  process.on('unhandledRejection', onUnhandled);
  const responses = new Map<number, number>();
  const expected = new Set<number>();
  /** Answers to messages that were not JSON-RPC, by the id they carried. */
  const invalidAnswers = new Map<number, number>();
  let engine: BridgeEngine | undefined = undefined;
  const answerTool = (message: Record<string, unknown>) => {
    const reply = pick([
      { result: { output: 'paid' } },
      { result: { output: { coins: 2 }, isError: pick([true, false]) } },
      { error: { code: -1, message: 'no coins' } },
      { error: 'bare' },
      { result: '@DEEP@' },
      null, // never answered: the call times out
    ]);
    if (!reply || !engine) return;
    const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply }).replace(
      '"@DEEP@"',
      `${'['.repeat(3000)}1${']'.repeat(3000)}`,
    );
    const target = engine;
    setImmediate(() => target.receive(text));
  };
  engine = new BridgeEngine({
    defaultToolTimeoutSeconds: 0.05,
    shutdownGraceMs: 2000,
    send: (line) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line);
      } catch {
        counts.nonJsonRpcLines++;
        note(`not JSON: ${line.slice(0, 200)}`);
        return;
      }
      if (!isJsonRpc(message)) {
        counts.nonJsonRpcLines++;
        note(`not JSON-RPC: ${line.slice(0, 200)}`);
        return;
      }
      if (message.method === 'tool/call') answerTool(message);
      if (typeof message.id === 'number' && message.method === undefined) {
        const error = message.error as { code: number; message: string; data?: { code?: string } } | undefined;
        // A message that is not JSON-RPC is answered with whatever id it carried (as the seed
        // does): a mutated line's id may be any earlier request's, so such answers are kept apart.
        if (error?.code === -32600 && error.data?.code === 'invalid_message') {
          invalidAnswers.set(message.id, (invalidAnswers.get(message.id) ?? 0) + 1);
          return;
        }
        responses.set(message.id, (responses.get(message.id) ?? 0) + 1);
        const wanted = expectations.get(message.id);
        const wrong =
          (wanted === 'method_not_found' && error?.code !== -32601) ||
          (wanted === 'invalid_params' && error?.code !== -32602) ||
          (error?.data?.code === 'generation_failed' && CRASH.test(error.message));
        if (wrong) {
          counts.wrongAnswers++;
          note(`wanted ${wanted ?? 'no crash'} for request ${String(message.id)}; got ${line.slice(0, 200)}`);
        }
      }
    },
  });
  const methods = (
    await new Promise<{ capabilities: { methods: string[] } }>((done) => {
      const probe = new BridgeEngine({ send: (line) => done(JSON.parse(line).result) });
      probe.receive('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1.0"}}');
    })
  ).capabilities.methods.filter((method) => method !== 'shutdown');
  for (let index = 1; index <= count; index++) {
    const method = pick(methods);
    const line = mutatedLine({ method, params: baseParams(method, pick), id: index, random });
    counts.inputs++;
    if (line.expectsResponse) expected.add(index);
    if (line.expect) expectations.set(index, line.expect);
    try {
      engine.receive(line.text);
    } catch (error) {
      counts.thrownReceives++;
      note(`receive threw on ${line.text.slice(0, 160)}: ${(error as Error).message}`);
    }
    if (index % 200 === 0) await settle(3);
  }
  await new Promise((done) => setTimeout(done, 300));
  const shutdownId = count + 1;
  expected.add(shutdownId);
  engine.receive(JSON.stringify({ jsonrpc: '2.0', id: shutdownId, method: 'shutdown' }));
  for (let round = 0; round < 400 && !responses.has(shutdownId); round++)
    await new Promise((done) => setTimeout(done, 10));
  await settle(10);
  for (const id of expected) {
    const seen = responses.get(id) ?? 0;
    if (seen === 0 && (invalidAnswers.get(id) ?? 0) === 0) {
      counts.missingResponses++;
      note(`no response to request ${id}`);
    } else if (seen > 1) {
      counts.duplicateResponses++;
      note(`${seen} responses to request ${id}`);
    }
  }
  process.off('unhandledRejection', onUnhandled);
  if (Object.getOwnPropertyNames(Object.prototype).join(',') !== prototypeKeys) {
    counts.pollution++;
    note('Object.prototype changed');
  }
  if (({} as Record<string, unknown>).admin !== undefined) {
    counts.pollution++;
    note('Object.prototype gained "admin"');
  }
  return counts;
}

export function protocolProblems(counts: ProtocolCounts): number {
  return (
    counts.thrownReceives +
    counts.unhandledRejections +
    counts.missingResponses +
    counts.duplicateResponses +
    counts.nonJsonRpcLines +
    counts.pollution +
    counts.wrongAnswers
  );
}
