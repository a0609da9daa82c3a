import { compactJson, extractJson, hasCompleteObject } from '../../src/core/json';

describe('extractJson', () => {
  it('reads a plain object', () => {
    expect(extractJson('{"a": 1}')).toEqual({ value: { a: 1 }, complete: true, start: 0, end: 8 });
  });

  it('skips prose around the object and reports its offsets', () => {
    const text = 'Sure! Here you go: {"action": "respond"} Hope that helps.';
    const found = extractJson(text);
    expect(found).toMatchObject({ value: { action: 'respond' }, complete: true });
    expect(text.slice(found!.start, found!.end)).toBe('{"action": "respond"}');
  });

  it('prefers the fenced block over braces in the prose before it', () => {
    const text = 'Use {braces} like this:\n```json\n{"tool": "check_menu"}\n```\nDone {x}';
    expect(extractJson(text)?.value).toEqual({ tool: 'check_menu' });
  });

  it('reads a fence written on one line and an unclosed fence', () => {
    expect(extractJson('```json {"a": 1}```')?.value).toEqual({ a: 1 });
    expect(extractJson('```json\n{"a": 1}\n')?.value).toEqual({ a: 1 });
  });

  it('skips a bracketed prose word but takes a JSON array', () => {
    expect(extractJson('[thinking] {"a": 1}')?.value).toEqual({ a: 1 });
    expect(extractJson('Result: [1, 2, 3]')?.value).toEqual([1, 2, 3]);
    expect(extractJson('[{"a": 1}]')?.value).toEqual([{ a: 1 }]);
  });

  it('skips a balanced candidate that does not parse', () => {
    expect(extractJson('{not: valid: json} then {"b": 2}')?.value).toEqual({ not: 'valid: json' });
    expect(extractJson('{:} then {"b": 2}')?.value).toEqual({ b: 2 });
  });

  it('falls back to a truncated object in partial mode', () => {
    const text = 'Here: {"action": "take_order", "arguments": {"item": "al';
    expect(extractJson(text)).toEqual({
      value: { action: 'take_order', arguments: { item: 'al' } },
      complete: false,
      start: 6,
      end: text.length,
    });
  });

  describe('an outer object cut off by the token limit wins over a complete inner one', () => {
    it.each<[string, unknown]>([
      [
        '{"tool":"take_order","args":{"item":"ale","quantity":2}',
        { tool: 'take_order', args: { item: 'ale', quantity: 2 } },
      ],
      ['{"title":"X","steps":[{"goal":"a","reward":0},{"go', { title: 'X', steps: [{ goal: 'a', reward: 0 }, {}] }],
      ['{"emotion":"happy","line":"Hi","options":["a","b"]', { emotion: 'happy', line: 'Hi', options: ['a', 'b'] }],
      ['Sure:\n```json\n{"a": {"b": 1}\n```', { a: { b: 1 } }],
      ['[{"a": 1}, {"b": 2}', [{ a: 1 }, { b: 2 }]],
      ['{tool: take_order, args: {item: ale}', { tool: 'take_order', args: { item: 'ale' } }],
    ])('%j', (text, value) => {
      expect(extractJson(text)).toMatchObject({
        value,
        complete: false,
        start: text.indexOf(text[0] === 'S' ? '{' : text[0]),
      });
    });

    it('still skips prose in brackets or braces before the JSON', () => {
      expect(extractJson('[note {"tool": "check_menu"}')?.value).toEqual({ tool: 'check_menu' });
      expect(extractJson('I will use { to start: {"tool": "check_menu"}')?.value).toEqual({ tool: 'check_menu' });
      expect(extractJson('[note] {"tool": "check_menu", "args": {"a": 1}')).toMatchObject({
        value: { tool: 'check_menu', args: { a: 1 } },
        complete: false,
      });
      expect(extractJson('{oops} {"a": {"b": 1}')).toMatchObject({ value: { a: { b: 1 } }, complete: false, start: 7 });
    });

    it('keeps a complete object that comes before a truncated one', () => {
      expect(extractJson('{"a": 1} {"b": {"c": 2}')).toMatchObject({ value: { a: 1 }, complete: true });
    });
  });

  it('reads a truncated object inside an unclosed fence without the fence', () => {
    expect(extractJson('```json\n{"a": [1, 2')).toMatchObject({ value: { a: [1, 2] }, complete: false });
  });

  it('reads a whole answer that is a scalar', () => {
    expect(extractJson('  "yes" ')?.value).toBe('yes');
    expect(extractJson('42')?.value).toBe(42);
  });

  it.each(['', 'no json here', '}{', ']]]', 'respond', '{{{{', '```\n```'])('returns undefined for %j', (text) => {
    const found = extractJson(text);
    if (found !== undefined) expect(typeof found.value === 'object').toBe(true);
    else expect(found).toBeUndefined();
  });

  it('stays fast on many unmatched brackets', () => {
    const garbage = '{ ['.repeat(20000);
    expect(() => extractJson(garbage)).not.toThrow();
    expect(() => hasCompleteObject(garbage)).not.toThrow();
  });
});

describe('hasCompleteObject', () => {
  it.each<[string, boolean]>([
    ['', false],
    ['prose only', false],
    ['{"a": 1', false],
    ['{"a": 1}', true],
    ['Sure: {"a": {"b": [1]}} and more', true],
    ['{"a": "}"', false],
    ['{"a": "}"}', true],
    ['{"a": "\\"}"', false],
    ['{"a": "\\"}"}', true],
    ["{'a': '}'", false],
    ["{'a': '}'}", true],
    ['{"a": "x"} {"b": ', true],
    ['{"a": // }\n', false],
    ['{"a": /* } */ 1', false],
    ['{"a": /* } */ 1}', true],
    ["{a: I don't know}", true],
    ['{"reply": "He said "hi"', false],
    ['{"reply": "He said "hi""}', true],
    ['{oops} {"a": 1', false],
    ['{oops} {"a": 1}', true],
  ])('%j → %s', (text, expected) => {
    expect(hasCompleteObject(text)).toBe(expected);
  });

  it('turns true exactly when the closing brace arrives in a stream', () => {
    const text = '```json\n{"tool": "take_order", "args": {"item": "a}le", "quantity": 2}}\n```';
    const close = text.lastIndexOf('}') + 1;
    for (let index = 0; index <= text.length; index++)
      expect(hasCompleteObject(text.slice(0, index))).toBe(index >= close);
  });
});

describe('compactJson', () => {
  it('stringifies without spaces and never throws', () => {
    expect(compactJson({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(compactJson(undefined)).toBe('null');
    expect(compactJson(BigInt(5))).toBe('"5"');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(typeof compactJson(cycle)).toBe('string');
  });
});
