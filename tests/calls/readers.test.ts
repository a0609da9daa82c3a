/**
 * The call-family readers on the inputs a grammar must refuse or map with care: positional
 * arguments, repeated keys, non-literals, deep nesting, cut-off calls, prototype keys; and the
 * whole sentences a summary cut at the token cap keeps.
 */
import { findCalls, PROBLEM_CUT_OFF } from '../../src/core/calls';
import { callArguments, callContext } from '../../src/core/envelope/family-call';
import { parseEnvelope } from '../../src/core/envelope';
import { wholeSentences } from '../../src/core/player-text/whole-sentences';

const TOOLS = ['take_order', 'remember_fact'];
const CTX = callContext(TOOLS);
const order = (tool: string) => (tool === 'take_order' ? ['item', 'quantity'] : ['fact']);

describe('positional arguments', () => {
  test.each([
    ['take_order("stew", 3)', { item: 'stew', quantity: 3 }],
    ['take_order("stew", quantity=3)', { item: 'stew', quantity: 3 }],
    ['remember_fact("The player is Sam.")', { fact: 'The player is Sam.' }],
  ])('%s maps by the parameter order', (text, args) => {
    const [call] = findCalls(text, CTX);
    expect(callArguments(call, call.name, { parameterOrder: order })).toEqual({ args });
  });

  test.each([
    ['more values than parameters', 'take_order("stew", 3, "hot")'],
    ['a name given twice', 'take_order("stew", item="ale")'],
    ['a positional value after a keyword', 'take_order(item="stew", 3)'],
  ])('%s is refused, never guessed', (_name, text) => {
    const [call] = findCalls(text, CTX);
    expect('problem' in callArguments(call, call.name, { parameterOrder: order })).toBe(true);
  });

  test('without a known parameter order a positional call is refused', () => {
    const [call] = findCalls('take_order("stew", 3)', CTX);
    expect(callArguments(call, call.name, {})).toEqual({ problem: expect.stringContaining('without names') });
  });
});

describe('what a grammar refuses', () => {
  test.each([
    ['a repeated key', 'take_order(item="ale", item="stew")'],
    ['bytes', "take_order(item=b'ale')"],
    ['a name as a value', 'take_order(item=menu.first)'],
    ['a non-finite number', 'take_order(item="ale", quantity=1e999)'],
    ['a mismatched bracket', '[take_order(item="ale"])]'],
  ])('%s: the call is found, its arguments are not read', (_name, text) => {
    const calls = findCalls(text, CTX);
    expect(calls).toHaveLength(1);
    expect(calls[0].args).toBeUndefined();
  });

  test('a Gemma 4 call nested past the depth limit is unreadable, not a crash', () => {
    const deep = `<|tool_call>call:take_order{item:${'{a:'.repeat(200)}1${'}'.repeat(200)}}<tool_call|>`;
    const calls = findCalls(deep, CTX);
    expect(calls[0].args).toBeUndefined();
  });

  test.each([
    '<|tool_call>call:take_order{item:<|"|>al',
    '<start_function_call>call:take_order{item:<escape>ale<escape>,quantity:',
    '[take_order(item="ale", quantity=',
    '<tool_call>{"name": "take_order", "arguments": {"item": "al',
  ])('cut off: %j is recorded as cut off', (text) => {
    const calls = findCalls(text, CTX);
    expect(calls.map((call) => call.problem)).toEqual([PROBLEM_CUT_OFF]);
    expect(parseEnvelope(text, { toolNames: TOOLS, allowRespond: true }).kind).toBe('invalid');
  });

  test('__proto__ stays a plain key in every family', () => {
    for (const text of [
      '<|tool_call>call:take_order{__proto__:{admin:true}}<tool_call|>',
      '[take_order(__proto__={"admin": True})]',
      '<start_function_call>call:take_order{__proto__:{admin:<escape>true<escape>}}<end_function_call>',
    ]) {
      const [call] = findCalls(text, CTX);
      const args = call.args as Record<string, unknown>;
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(Object.keys(args)).toEqual(['__proto__']);
      expect((args as { admin?: unknown }).admin).toBeUndefined();
    }
  });

  test('an unknown name does not block a known call after it, and words like smile(s) are not calls', () => {
    expect(
      findCalls('I smile(s) a lot. [open_door(x=1), take_order(item="ale")]', CTX).map((call) => call.name),
    ).toEqual(['open_door', 'take_order']);
    expect(parseEnvelope('[open_door(x=1), take_order(item="ale")]', { toolNames: TOOLS, allowRespond: true })).toEqual(
      {
        kind: 'call',
        tool: 'take_order',
        argCandidates: [{ item: 'ale' }],
      },
    );
  });
});

describe('whole sentences of a summary cut at the cap', () => {
  test.each([
    ['Sam met Mr. Hale at 9 p.m. and they', ''],
    ['Sam paid. He met Mr. Hale at 9 p.m. and they', 'Sam paid.'],
    ['Sam met Dr. J. Hale. They talked about the', 'Sam met Dr. J. Hale.'],
    ['Sam paid 3 gold, e.g. for ale. Then he', 'Sam paid 3 gold, e.g. for ale.'],
    ['No sentence ended here', ''],
    ['It ended!', 'It ended!'],
  ])('%j → %j', (text, kept) => {
    expect(wholeSentences(text)).toBe(kept);
  });
});
