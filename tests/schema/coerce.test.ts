import { JsonSchema } from '../../src/core/schema';

const order = JsonSchema.obj(
  {
    item_name: JsonSchema.enumOf(['ale', 'hot_stew', 'bread']),
    quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
    price: JsonSchema.number(),
    paid: JsonSchema.boolean(),
    note: JsonSchema.string(),
    tags: JsonSchema.array(JsonSchema.string()),
    extra: JsonSchema.obj({ a: JsonSchema.integer() }),
  },
  { optional: ['price', 'paid', 'note', 'tags', 'extra'] },
);

const base = { item_name: 'ale', quantity: 1 };

describe('coerce()', () => {
  test.each([
    ['numeric string → integer', { quantity: '2' }, { quantity: 2 }],
    ['padded numeric string → number', { price: ' 3.5 ' }, { price: 3.5 }],
    ['integral float string → integer', { quantity: '2.0' }, { quantity: 2 }],
    ['signed and exponent numbers', { price: '-1e2' }, { price: -100 }],
    ['"true" → true', { paid: 'true' }, { paid: true }],
    ['"Yes" → true', { paid: 'Yes' }, { paid: true }],
    ['"false" → false', { paid: 'false' }, { paid: false }],
    ['"no" → false', { paid: ' no ' }, { paid: false }],
    ['number → string', { note: 5 }, { note: '5' }],
    ['boolean → string', { note: true }, { note: 'true' }],
    ['JSON text → object', { extra: '{"a": "1"}' }, { extra: { a: 1 } }],
    ['JSON text → array', { tags: '["x","y"]' }, { tags: ['x', 'y'] }],
    ['single value → one-element array', { tags: 'x' }, { tags: ['x'] }],
    ['single number → one string in an array', { tags: 3 }, { tags: ['3'] }],
    ['enum ignoring case', { item_name: 'Ale' }, { item_name: 'ale' }],
    ['enum ignoring separators', { item_name: 'HOT-STEW' }, { item_name: 'hot_stew' }],
    ['enum with spaces', { item_name: 'hot stew' }, { item_name: 'hot_stew' }],
    ['null on an optional property is removed', { note: null }, {}],
  ])('%s', (_name, patch, expected) => {
    expect(order.coerce({ ...base, ...patch })).toEqual({ ...base, ...expected });
  });

  test('a missing required key takes its one near miss: the same word longer or shorter (the seed writes reasoning)', () => {
    const decision = JsonSchema.obj({ choice: JsonSchema.string(), reason: JsonSchema.string() });
    expect(decision.check({ choice: 'warn', reasoning: 'Armed.' })).toEqual({
      ok: true,
      value: { choice: 'warn', reason: 'Armed.' },
    });
    expect(decision.coerce({ choices: 'warn', reason: 'x' })).toEqual({ choice: 'warn', reason: 'x' });
    // Two candidates, a key already there, or a word too short to tell: nothing is renamed.
    expect(decision.coerce({ choice: 'a', reasoning: 'x', reasons: 'y' })).toEqual({
      choice: 'a',
      reasoning: 'x',
      reasons: 'y',
    });
    expect(decision.coerce({ choice: 'a', reason: 'x', reasoning: 'y' })).toEqual({ choice: 'a', reason: 'x' });
    expect(JsonSchema.obj({ id: JsonSchema.string() }).coerce({ i: 'x' })).toEqual({ i: 'x' });
  });

  test('keys differing in case or separators are renamed', () => {
    expect(order.coerce({ itemName: 'ale', Quantity: 1 })).toEqual({ item_name: 'ale', quantity: 1 });
    expect(order.coerce({ 'Item Name': 'ale', QUANTITY: 1 })).toEqual({ item_name: 'ale', quantity: 1 });
    const camel = JsonSchema.obj({ itemName: JsonSchema.string() });
    expect(camel.coerce({ item_name: 'x' })).toEqual({ itemName: 'x' });
  });

  test('a key is not renamed onto a key already present', () => {
    expect(order.coerce({ item_name: 'ale', itemName: 'bread', quantity: 1 })).toEqual({
      item_name: 'ale',
      quantity: 1,
    });
    expect(order.coerce({ item_name: 'ale', itemName: 'bread' })).toEqual({ item_name: 'ale', itemName: 'bread' });
  });

  test('unknown keys of a closed object are dropped when nothing required is missing', () => {
    expect(order.coerce({ ...base, mood: 'happy' })).toEqual(base);
    expect(order.coerce({ item_name: 'ale', mood: 'happy' })).toEqual({ item_name: 'ale', mood: 'happy' });
    const open = JsonSchema.obj({ a: JsonSchema.string() }, { open: true });
    expect(open.coerce({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
  });

  test('ambiguous enum matches are left alone', () => {
    const schema = JsonSchema.enumOf(['hot_stew', 'hotstew', 'ale']);
    expect(schema.coerce('HOT-STEW')).toBe('HOT-STEW');
    expect(schema.coerce('ALE')).toBe('ale');
    expect(schema.check('HOT-STEW').ok).toBe(false);
  });

  test('const matches loosely too', () => {
    const schema = JsonSchema.from({ const: 'check_menu' });
    expect(schema.coerce('Check Menu')).toBe('check_menu');
    expect(schema.coerce('other')).toBe('other');
  });

  test('number enums take numeric strings', () => {
    const schema = JsonSchema.enumOf([1, 2, 3]);
    expect(schema.coerce('2')).toBe(2);
    expect(schema.coerce('4')).toBe(4);
  });

  test('what it leaves alone', () => {
    expect(order.coerce({ ...base, quantity: 'two' })).toEqual({ ...base, quantity: 'two' });
    expect(order.coerce({ ...base, quantity: '2.5' })).toEqual({ ...base, quantity: 2.5 });
    expect(order.coerce({ ...base, paid: 'maybe' })).toEqual({ ...base, paid: 'maybe' });
    expect(order.coerce({ ...base, paid: 1 })).toEqual({ ...base, paid: 1 });
    expect(order.coerce({ ...base, extra: '{broken' })).toEqual({ ...base, extra: '{broken' });
    expect(order.coerce({ ...base, note: { a: 1 } })).toEqual({ ...base, note: { a: 1 } });
    expect(order.coerce({ ...base, tags: null })).toEqual(base);
    expect(order.coerce({ item_name: null, quantity: 1 })).toEqual({ item_name: null, quantity: 1 });
    expect(order.coerce('not an object')).toBe('not an object');
    expect(order.coerce(null)).toBeNull();
    expect(JsonSchema.array(JsonSchema.string()).coerce(null)).toBeNull();
  });

  test('a null on an optional nullable property is kept', () => {
    const schema = JsonSchema.obj(
      { a: JsonSchema.string().nullable(), b: JsonSchema.from({}) },
      { optional: ['a', 'b'] },
    );
    expect(schema.coerce({ a: null, b: null })).toEqual({ a: null, b: null });
  });

  test('never mutates the input', () => {
    const value = { itemName: 'Ale', quantity: '2', tags: 'x', mood: 1, extra: { a: '3' } };
    const copy = JSON.parse(JSON.stringify(value));
    const out = order.coerce(value);
    expect(value).toEqual(copy);
    expect(out).toEqual({ item_name: 'ale', quantity: 2, tags: ['x'], extra: { a: 3 } });
  });

  test('nested arrays of objects and additionalProperties schemas', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } },
      additionalProperties: { type: 'number' },
    });
    expect(schema.coerce({ rows: [{ n: '1' }, { n: 2 }], x: '1.5' })).toEqual({ rows: [{ n: 1 }, { n: 2 }], x: 1.5 });
  });

  test('anyOf coerces into the first branch that then validates', () => {
    const schema = JsonSchema.anyOf([JsonSchema.boolean(), JsonSchema.obj({ coins: JsonSchema.integer() })]);
    expect(schema.coerce('yes')).toBe(true);
    expect(schema.coerce({ coins: '3' })).toEqual({ coins: 3 });
    expect(schema.coerce(true)).toBe(true);
    expect(schema.coerce('x')).toBe('x');
  });

  test('type lists coerce only when the value type is not accepted', () => {
    const schema = JsonSchema.from({ type: ['integer', 'string'] });
    expect(schema.coerce('2')).toBe('2');
    const nullable = JsonSchema.from({ type: ['integer', 'null'] });
    expect(nullable.coerce('7')).toBe(7);
  });

  test('refs and allOf are followed', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: {
        p: { $ref: '#/$defs/P' },
        q: { allOf: [{ type: 'object', properties: { n: { type: 'integer' } } }] },
      },
      $defs: { P: { type: 'boolean' } },
    });
    expect(schema.coerce({ p: 'no', q: { n: '4' } })).toEqual({ p: false, q: { n: 4 } });
  });

  test('non-object roots', () => {
    const list = JsonSchema.array(JsonSchema.integer(), { maxItems: 3 });
    expect(list.coerce('[1,"2"]')).toEqual([1, 2]);
    expect(list.coerce('5')).toEqual([5]);
    expect(JsonSchema.integer().coerce('42')).toBe(42);
    expect(JsonSchema.string().coerce(4.5)).toBe('4.5');
  });

  test('very deep values stop being coerced instead of overflowing', () => {
    const tree = JsonSchema.from({
      $defs: { N: { type: 'object', properties: { n: { $ref: '#/$defs/N' }, v: { type: 'integer' } } } },
      $ref: '#/$defs/N',
    });
    let value: Record<string, unknown> = { v: '1' };
    for (let index = 0; index < 200; index++) value = { n: value };
    expect(() => tree.coerce(value)).not.toThrow();
    const shallow = tree.coerce({ n: { v: '2' } });
    expect(shallow).toEqual({ n: { v: 2 } });
  });
});

describe('check()', () => {
  test('coerces, validates and orders', () => {
    const result = order.check({ quantity: '3', mood: 'x', ItemName: 'HOT STEW' });
    expect(result).toEqual({ ok: true, value: { item_name: 'hot_stew', quantity: 3 } });
    if (result.ok) expect(Object.keys(result.value as object)).toEqual(['item_name', 'quantity']);
  });

  test('reports violations and a formatted problem', () => {
    const result = order.check({ item_name: 'wine', quantity: 12, mood: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      // a required key is fine here, so the unknown key was dropped before validation
      expect(result.violations).toEqual([
        { path: '$.item_name', message: 'must be one of "ale", "hot_stew", "bread"; got "wine"' },
        { path: '$.quantity', message: 'must be at most 10; got 12' },
      ]);
      expect(result.problem).toBe(
        '$.item_name: must be one of "ale", "hot_stew", "bread"; got "wine"; $.quantity: must be at most 10; got 12',
      );
    }
  });

  test('a missing required key keeps the unknown keys so both are reported', () => {
    const result = order.check({ item_name: 'ale', qty: 2 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.violations).toEqual([
        { path: '$.quantity', message: 'is required' },
        { path: '$.qty', message: 'is not allowed' },
      ]);
    }
  });
});
