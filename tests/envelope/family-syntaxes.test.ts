/**
 * Tool calls in the syntaxes Gemini Nano's own family writes (Google's Gemma function-calling
 * guide, FunctionGemma's control tokens), and reasoning blocks that are never read as the answer.
 */
import { Agent, AgentTool, JsonSchema } from '../../src';
import { parseEnvelope } from '../../src/core/envelope';
import { Script, ScriptedLanguageModel } from '../../src/testing';

const TOOLS = ['take_order', 'check_menu'];
const ctx = { toolNames: TOOLS, allowRespond: true };

describe('call syntaxes of the Gemma family', () => {
  test.each([
    ['take_order(item="ale", quantity=2)', { item: 'ale', quantity: 2 }],
    ['[take_order(item="ale", quantity=2)]', { item: 'ale', quantity: 2 }],
    ["```tool_code\nprint(take_order(item='ale', quantity=2))\n```", { item: 'ale', quantity: 2 }],
    ['```python\ntake_order(item="ale", quantity=2)\n```', { item: 'ale', quantity: 2 }],
    [
      'take_order(item="a, b", quantity=2, extras=["x", "y"], rush=True, note=None)',
      { item: 'a, b', quantity: 2, extras: ['x', 'y'], rush: true, note: null },
    ],
    ['check_menu()', {}],
    [
      '<start_function_call>call:take_order{item:<escape>ale<escape>,quantity:2}<end_function_call>',
      { item: 'ale', quantity: 2 },
    ],
    ['<start_function_call>call:check_menu{}<end_function_call>', {}],
  ])('%s', (text, args) => {
    expect(parseEnvelope(text, ctx)).toEqual({ kind: 'call', tool: expect.any(String), argCandidates: [args] });
  });

  test('an unknown name in call syntax is not a call; ordinary prose with parentheses is not one either', () => {
    expect(parseEnvelope('open_door(key="x")', ctx).kind).not.toBe('call');
    expect(parseEnvelope('{"reply": "Sure (it is cheap)."}', ctx)).toMatchObject({
      kind: 'respond',
      reply: 'Sure (it is cheap).',
    });
  });

  test('a __proto__ keyword argument stays a plain key', () => {
    const env = parseEnvelope('take_order(__proto__={"admin": true})', ctx) as {
      argCandidates: Array<Record<string, unknown>>;
    };
    expect(Object.getPrototypeOf(env.argCandidates[0])).toBe(Object.prototype);
    expect((env.argCandidates[0] as { admin?: unknown }).admin).toBeUndefined();
  });
});

describe('reasoning is not the answer', () => {
  test('JSON inside <think> is ignored; the answer after it counts', () => {
    const text =
      '<think>Maybe {"tool": "take_order", "args": {"item": "stew"}}? No, they asked for ale.</think>{"tool": "take_order", "args": {"item": "ale", "quantity": 1}}';
    expect(parseEnvelope(text, ctx)).toEqual({
      kind: 'call',
      tool: 'take_order',
      argCandidates: [{ item: 'ale', quantity: 1 }],
    });
  });

  test('an unclosed reasoning block is no answer yet', () => {
    expect(parseEnvelope('<thinking>{"reply": "not this"}', ctx).kind).toBe('invalid');
  });

  test('through a turn: a Gemma-style call runs, a reply inside reasoning is never shown, the stream is not cut inside it', async () => {
    const ran: unknown[] = [];
    const order = AgentTool.local(
      {
        name: 'take_order',
        description: 'Serves an item.',
        parameters: JsonSchema.obj({ item: JsonSchema.string(), quantity: JsonSchema.integer() }),
      },
      (args: unknown) => {
        ran.push(args);
        return 'served';
      },
    );
    const model = new ScriptedLanguageModel([
      Script.text('<think>{"reply": "Hmm"} they want ale</think>[take_order(item="ale", quantity=2)]', 8),
      Script.text('<thought>{"reply": "wrong"}</thought>{"reply": "Two ales!"}', 8),
    ]);
    const agent = new Agent(model, { tools: [order] });
    const run = agent.run('Two ales');
    const shown: string[] = [];
    run.on('text', (event) => shown.push(event.text));
    const response = await run.response();
    expect(ran).toEqual([{ item: 'ale', quantity: 2 }]);
    expect(response.text).toBe('Two ales!');
    expect(shown.some((text) => text.includes('Hmm') || text.includes('wrong'))).toBe(false);
    expect(model.calls).toBe(2);
  });
});
