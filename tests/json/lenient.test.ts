import { parseLenient, MAX_DEPTH } from '../../src/core/json';

function value(text: string, partial = false): unknown {
  const result = parseLenient(text, { partial });
  if (!result.ok) throw new Error('expected ok for ' + JSON.stringify(text) + ': ' + result.error);
  return result.value;
}

describe('parseLenient: strict JSON', () => {
  it.each([
    '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
    '[1, -2.5, 3e2, "x", {}]',
    '"just a string"',
    '42',
    '{"esc":"\\n\\t\\"\\\\\\/\\u00e9"}',
  ])('reads %s like JSON.parse', (text) => {
    expect(value(text)).toEqual(JSON.parse(text));
  });

  it('keeps the insertion order of keys', () => {
    expect(Object.keys(value('{"zeta":1,"alpha":2,"mid":3}') as object)).toEqual(['zeta', 'alpha', 'mid']);
  });

  it('reports where the value ends', () => {
    const result = parseLenient('{"a":1}  trailing prose');
    expect(result).toEqual({ ok: true, value: { a: 1 }, end: 7 });
  });

  it('keeps "__proto__" as an own member without touching the prototype', () => {
    const parsed = value('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseLenient: sloppy syntax', () => {
  it.each<[string, unknown]>([
    ["{'a': 'b'}", { a: 'b' }],
    ['{action: "respond", arguments: {}}', { action: 'respond', arguments: {} }],
    ['{"a": [1, 2,], "b": 3,}', { a: [1, 2], b: 3 }],
    ['{// line comment\n"a": /* block */ 1 // after\n}', { a: 1 }],
    [
      '{a: True, b: False, c: None, d: nil, e: null, f: undefined, g: TRUE}',
      { a: true, b: false, c: null, d: null, e: null, f: null, g: true },
    ],
    ['{action: respond}', { action: 'respond' }],
    ['{"a" = 1, b = "x"}', { a: 1, b: 'x' }],
    ['{"a": +5, "b": +1.5}', { a: 5, b: 1.5 }],
    ['{"a": "line one\nline two"}', { a: 'line one\nline two' }],
    ['{"action": "check_menu" | "respond"}', { action: 'check_menu' }],
    ['{"n": 1 | 2, "s": yes | no}', { n: 1, s: 'yes' }],
    ['["a" | "b", "c"]', ['a', 'c']],
    ['{"reply": "He said "hi" to me"}', { reply: 'He said "hi" to me' }],
    ["{'reply': 'I don't know'}", { reply: "I don't know" }],
    ['{reply: Hello, friend}', { reply: 'Hello, friend' }],
    ['{reply: Hello, mood: happy}', { reply: 'Hello', mood: 'happy' }],
    ['{"link": http://example.com/a}', { link: 'http://example.com/a' }],
    ['{"a": 1 "b": 2}', { a: '1 "b": 2' }],
    ['{"a": }', { a: null }],
    ['{"quantity": 2 mugs}', { quantity: '2 mugs' }],
    ['{`a`: `b`}', { a: 'b' }],
    ['{"a": "\\x41\\q"}', { a: 'Aq' }],
    ['{"a":"\\ud83d\\ude00"}', { a: '😀' }],
    ['\uFEFF  {"a": 1}', { a: 1 }],
    ['{,,"a":1,,}', { a: 1 }],
    ['{tool name: check_menu}', { 'tool name': 'check_menu' }],
  ])('%s', (text, expected) => {
    expect(value(text)).toEqual(expected);
  });
});

describe('parseLenient: errors', () => {
  it.each([
    ['', 'unexpected end of input'],
    ['   ', 'unexpected end of input'],
    ['hello world', 'expected a JSON value'],
    ['{"a": 1', 'unclosed object'],
    ['[1, 2', 'unclosed array'],
    ['{"a": "x', 'unclosed string'],
    ['{a 1}', 'expected ":"'],
  ])('%j fails with %s', (text, message) => {
    const result = parseLenient(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(message);
      expect(result.offset).toBeGreaterThanOrEqual(0);
      expect(result.offset).toBeLessThanOrEqual(text.length);
    }
  });

  it('gives the offset of an unclosed string', () => {
    expect(parseLenient('{"a": "x')).toMatchObject({ ok: false, offset: 6 });
  });

  it('refuses nesting deeper than the limit instead of overflowing the stack', () => {
    for (const open of ['[', '{"a":']) {
      const deep = open.repeat(100000);
      for (const partial of [false, true]) {
        const result = parseLenient(deep, { partial });
        expect(result).toMatchObject({ ok: false, error: expect.stringContaining('nesting') });
      }
    }
    const atLimit = '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH);
    expect(parseLenient(atLimit).ok).toBe(true);
    expect(parseLenient('[' + atLimit + ']').ok).toBe(false);
  });

  it('does not throw for non-string input smuggled past the types', () => {
    expect(() => parseLenient(undefined as unknown as string)).not.toThrow();
    expect(parseLenient(12 as unknown as string)).toMatchObject({ ok: true, value: 12 });
  });
});

describe('parseLenient: partial mode', () => {
  it.each<[string, unknown]>([
    ['{"a": {"b": [1, {"c": "d', { a: { b: [1, { c: 'd' }] } }],
    ['{"reply": "Hel', { reply: 'Hel' }],
    ['{"a": 1, "b', { a: 1 }],
    ['{"a": 1, "b"', { a: 1 }],
    ['{"a": 1, "b":', { a: 1 }],
    ['{"a": 1, "b": ', { a: 1 }],
    ['{"a": 1, b', { a: 1 }],
    ['{"a": "x\\', { a: 'x' }],
    ['{"a": "x\\u00', { a: 'x' }],
    ['{"a": "x\\u00e9', { a: 'xé' }],
    ['{"a": tr', {}],
    ['{"a": true', { a: true }],
    ['{"a": -', {}],
    ['{"a": 1.', { a: 1 }],
    ['{"a": 12', { a: 12 }],
    ['[1, 2, 1e', [1, 2]],
    ['[1, 2, 1e5', [1, 2, 100000]],
    ['{"a": "b" |', { a: 'b' }],
    ['{"a": bare wor', { a: 'bare wor' }],
    ['[', []],
    ['{', {}],
    ['{"a": [', { a: [] }],
  ])('%j', (text, expected) => {
    expect(value(text, true)).toEqual(expected);
    const end = parseLenient(text, { partial: true });
    expect(end.ok && end.end).toBe(text.length);
  });

  it('still fails on text that is wrong rather than cut off', () => {
    expect(parseLenient('{:1}', { partial: true }).ok).toBe(false);
    expect(parseLenient('', { partial: true }).ok).toBe(false);
    expect(parseLenient('tru', { partial: true }).ok).toBe(false);
  });

  it('reads complete text the same as non-partial mode', () => {
    const text = '{"tool": "take_order", "args": {"item": "ale", "quantity": 2}}';
    expect(value(text, true)).toEqual(value(text));
  });
});

/** jsonrepair's repairs that keep a model's meaning (josdejong/jsonrepair src/index.test.ts; tests/fixtures/peer/jsonrepair.json has them all). */
describe('parseLenient: repairs', () => {
  it.each([
    ['curly quotes as the only quotes', '{“a”:“b”}', { a: 'b' }],
    ['curly single quotes', '{‘a’:‘b’}', { a: 'b' }],
    ['curly quotes inside straight ones stay words', '{"a":"it’s “fine”"}', { a: 'it’s “fine”' }],
    ['an em space and an ideographic space before values', '{"a":\u2003"b",\u3000"c":1}', { a: 'b', c: 1 }],
    ['a missing colon', '{"a" 2}', { a: 2 }],
    ['a missing colon before a string', '{"a" "b"}', { a: 'b' }],
    ['a missing colon before a literal', '{"a" true}', { a: true }],
    ['] closing an object', '{"a":2]', { a: 2 }],
    ['} closing an array', '[2,}', [2]],
    ['an array missing its ] inside an object', '{\n"values":[1,2,3\n}', { values: [1, 2, 3] }],
    ['an object missing its } inside an array', '[{"b":2]', [{ b: 2 }]],
    ['an ellipsis in an array', '[1,2,3,...]', [1, 2, 3]],
    ['an ellipsis mid-array', '[1,2,3,...,9]', [1, 2, 3, 9]],
    ['an ellipsis in an object', '{"a":2,"b":3,...}', { a: 2, b: 3 }],
    ['the unicode ellipsis', '[1, …]', [1]],
    ['double-encoded JSON', '{\\"stringified\\": \\"content\\"}', { stringified: 'content' }],
    ['double-encoded JSON in a list', '[\\"a\\", 1]', ['a', 1]],
  ])('%s: %j', (_name, text, value) => {
    const result = parseLenient(
      text.replace(/\\u(2003|3000)/g, (_match, code: string) => String.fromCharCode(parseInt(code, 16))),
    );
    expect(result).toMatchObject({ ok: true, value });
  });

  it('a strict parse of a key without its value fails; partial mode drops the key', () => {
    expect(parseLenient('{"a"').ok).toBe(false);
    expect(parseLenient('{"a"', { partial: true })).toMatchObject({ ok: true, value: {} });
  });

  it('"..." inside a string stays text', () => {
    expect(parseLenient('{"a":"wait..."}')).toMatchObject({ ok: true, value: { a: 'wait...' } });
  });
});
