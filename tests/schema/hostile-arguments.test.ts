/**
 * Arguments a hostile or broken model writes never reach a handler in a form the schema
 * forbids: non-finite numbers are invalid (1e400 parses as Infinity), and `__proto__`,
 * `constructor` and `prototype` keys stay plain data at every depth, never a prototype.
 */
import { Agent, AgentTool, JsonSchema } from '../../src';
import { Script, ScriptedLanguageModel } from '../../src/testing';

function recordingTool(parameters: Record<string, unknown>) {
  const seen: unknown[] = [];
  const tool = AgentTool.local({ name: 'set_flag', description: 'Sets a flag.', parameters }, (args: unknown) => {
    seen.push(args);
    return 'ok';
  });
  return { tool, seen };
}

async function runWith(tool: AgentTool, answers: string[]) {
  const model = new ScriptedLanguageModel(answers.map((answer) => Script.text(answer)).concat([Script.reply('Done.')]));
  const agent = new Agent(model, { tools: [tool] });
  const response = await agent.run('go').response();
  return { response, model };
}

describe('non-finite numbers', () => {
  test.each(['1e400', '-1e400', '1e999'])(
    '%s is not an integer or a number: repaired once, never run with Infinity',
    async (literal) => {
      const { tool, seen } = recordingTool({
        type: 'object',
        properties: { n: { type: 'integer' }, x: { type: 'number' } },
        required: ['n'],
      });
      const { response, model } = await runWith(tool, [
        `{"tool":"set_flag","args":{"n":${literal}}}`,
        `{"tool":"set_flag","args":{"n":${literal}}}`,
      ]);
      expect(seen).toEqual([]);
      expect(response.toolCalls).toHaveLength(1);
      expect(response.toolCalls[0]).toMatchObject({
        rejected: true,
        output: { kind: 'error', message: expect.stringMatching(/must be an integer; got -?Infinity/) },
      });
      expect(model.requests.filter((request) => request.isRepair)).toHaveLength(1); // one repair, then "not made"
      expect(response.text).toBe('Done.');
    },
  );

  test('a finite value after the repair runs', async () => {
    const { tool, seen } = recordingTool({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    await runWith(tool, ['{"tool":"set_flag","args":{"n":1e400}}', '{"tool":"set_flag","args":{"n":12.5}}']);
    expect(seen).toEqual([{ n: 12.5 }]);
  });

  test('JsonSchema validation refuses Infinity and NaN directly', () => {
    const schema = JsonSchema.obj({ n: JsonSchema.number() });
    expect(schema.validate({ n: Infinity })).not.toEqual([]);
    expect(schema.validate({ n: NaN })).not.toEqual([]);
    expect(schema.validate({ n: 1 })).toEqual([]);
  });
});

describe('prototype keys are plain data', () => {
  const KEYS = ['__proto__', 'constructor', 'prototype'];

  test.each(KEYS)('"%s" nested in an argument object is an own key, never a prototype', async (key) => {
    const { tool, seen } = recordingTool({ type: 'object', properties: { meta: { type: 'object' } } });
    await runWith(tool, [`{"tool":"set_flag","args":{"meta":{"${key}":{"admin":true}}}}`]);
    expect(seen).toHaveLength(1);
    const meta = (seen[0] as { meta: Record<string, unknown> }).meta;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect((meta as { admin?: unknown }).admin).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(meta, key)).toBe(true);
    expect(({} as { admin?: unknown }).admin).toBeUndefined(); // nothing polluted
  });

  test('at the top level, in arrays, under additionalProperties and through coercion of a JSON string', async () => {
    const { tool, seen } = recordingTool({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object' } },
        bag: { type: 'object', additionalProperties: { type: 'object' } },
        text: { type: 'object' },
      },
    });
    await runWith(tool, [
      JSON.stringify({
        tool: 'set_flag',
        args: {
          __proto__x: 1,
          list: [{ ['__proto__']: { a: 1 } }],
          bag: { k: { ['__proto__']: { b: 2 } } },
          text: '{"__proto__":{"c":3}}',
        },
      }).replace('__proto__x', '__proto__'),
    ]);
    expect(seen).toHaveLength(1);
    /** A plain object's own fields; `a`, `b` and `c` are what the `__proto__` keys above would leak. */
    type Plain = Record<string, unknown> & { a?: unknown; b?: unknown; c?: unknown };
    const args = seen[0] as Plain & { list: Plain[]; bag: Record<string, Plain>; text: Plain };
    for (const value of [args, args.list[0], args.bag.k, args.text]) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(value.a ?? value.b ?? value.c).toBeUndefined();
    }
  });
});
