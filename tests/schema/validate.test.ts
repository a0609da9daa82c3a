import { JsonSchema, formatViolations } from '../../src/core/schema';

const order = JsonSchema.obj(
  {
    item: JsonSchema.enumOf(['ale', 'stew']),
    quantity: JsonSchema.integer({ minimum: 1, maximum: 10 }),
    note: JsonSchema.string({ minLength: 2, maxLength: 5, pattern: '^[a-z]+$' }),
    tags: JsonSchema.array(JsonSchema.string(), { minItems: 1, maxItems: 2 }),
    paid: JsonSchema.boolean(),
  },
  { optional: ['note', 'tags', 'paid'] },
);

describe('validate()', () => {
  test('a valid value has no violations', () => {
    expect(order.validate({ item: 'ale', quantity: 2 })).toEqual([]);
    expect(order.validate({ item: 'stew', quantity: 10, note: 'hot', tags: ['a'], paid: false })).toEqual([]);
  });

  test.each([
    [{ item: 'wine', quantity: 1 }, '$.item', 'must be one of "ale", "stew"; got "wine"'],
    [{ item: 'ale', quantity: 'two' }, '$.quantity', 'must be an integer; got "two"'],
    [{ item: 'ale', quantity: 2.5 }, '$.quantity', 'must be an integer; got 2.5'],
    [{ item: 'ale', quantity: 12 }, '$.quantity', 'must be at most 10; got 12'],
    [{ item: 'ale', quantity: 0 }, '$.quantity', 'must be at least 1; got 0'],
    [{ item: 'ale' }, '$.quantity', 'is required'],
    [{ item: 'ale', quantity: 1, tip: 3 }, '$.tip', 'is not allowed'],
    [{ item: 'ale', quantity: 1, note: 'a' }, '$.note', 'must be at least 2 characters; got 1'],
    [{ item: 'ale', quantity: 1, note: 'abcdef' }, '$.note', 'must be at most 5 characters; got 6'],
    [{ item: 'ale', quantity: 1, note: 'AB' }, '$.note', 'must match the pattern ^[a-z]+$; got "AB"'],
    [{ item: 'ale', quantity: 1, tags: [] }, '$.tags', 'must have at least 1 item; got 0'],
    [{ item: 'ale', quantity: 1, tags: ['a', 'b', 'c'] }, '$.tags', 'must have at most 2 items; got 3'],
    [{ item: 'ale', quantity: 1, tags: ['a', 5] }, '$.tags[1]', 'must be a string; got 5'],
    [{ item: 'ale', quantity: 1, paid: 'yes' }, '$.paid', 'must be true or false; got "yes"'],
    [{ item: 'ale', quantity: null }, '$.quantity', 'must be an integer; got null'],
    [{ item: 'ale', quantity: { n: 1 } }, '$.quantity', 'must be an integer; got an object'],
    [{ item: 'ale', quantity: [1] }, '$.quantity', 'must be an integer; got a list'],
  ])('%j → %s %s', (value, path, message) => {
    expect(order.validate(value)).toEqual([{ path, message }]);
  });

  test('a wrong type does not also report the enum', () => {
    expect(order.validate({ item: 3, quantity: 1 })).toEqual([{ path: '$.item', message: 'must be a string; got 3' }]);
  });

  test('several violations in value order', () => {
    expect(order.validate({ item: 'wine', quantity: 12, x: 1 })).toEqual([
      { path: '$.x', message: 'is not allowed' },
      { path: '$.item', message: 'must be one of "ale", "stew"; got "wine"' },
      { path: '$.quantity', message: 'must be at most 10; got 12' },
    ]);
  });

  test('root type errors', () => {
    expect(order.validate('hello')).toEqual([{ path: '$', message: 'must be an object; got "hello"' }]);
    expect(order.validate(undefined)).toEqual([{ path: '$', message: 'must be an object; got nothing' }]);
    expect(order.validate([])).toEqual([{ path: '$', message: 'must be an object; got an empty list' }]);
  });

  test('const, exclusive bounds and numbers', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: { kind: { const: 'buy' }, p: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } },
    });
    expect(schema.validate({ kind: 'sell' })).toEqual([{ path: '$.kind', message: 'must be "buy"; got "sell"' }]);
    expect(schema.validate({ p: 0 })).toEqual([{ path: '$.p', message: 'must be greater than 0; got 0' }]);
    expect(schema.validate({ p: 1 })).toEqual([{ path: '$.p', message: 'must be less than 1; got 1' }]);
    expect(schema.validate({ p: 'x' })).toEqual([{ path: '$.p', message: 'must be a number; got "x"' }]);
  });

  test('paths for arrays of objects, odd keys and array roots', () => {
    const list = JsonSchema.array(
      JsonSchema.obj({ name: JsonSchema.string(), 'full name': JsonSchema.string() }, { optional: ['full name'] }),
    );
    expect(list.validate([{ name: 'a' }, { name: 'b', 'full name': 1 }, {}])).toEqual([
      { path: '$[1]["full name"]', message: 'must be a string; got 1' },
      { path: '$[2].name', message: 'is required' },
    ]);
    const map = JsonSchema.from({ type: 'object', additionalProperties: { type: 'integer' } });
    expect(map.validate({ a: 1, '0': 'x' })).toEqual([{ path: '$["0"]', message: 'must be an integer; got "x"' }]);
  });

  test('type lists and nullable', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: { a: { type: ['string', 'integer', 'null'] }, b: { type: 'string', nullable: true } },
    });
    expect(schema.validate({ a: null, b: null })).toEqual([]);
    expect(schema.validate({ a: true })).toEqual([
      { path: '$.a', message: 'must be a string, an integer or null; got true' },
    ]);
    expect(schema.validate({ b: 1 })).toEqual([{ path: '$.b', message: 'must be a string or null; got 1' }]);
  });

  test('long enums are cut short and long strings shortened', () => {
    const values = Array.from({ length: 20 }, (_, index) => `v${index}`);
    const schema = JsonSchema.enumOf(values);
    const [violation] = schema.validate('x'.repeat(100));
    expect(violation.message).toContain('"v11", …; got "xxxxxxxx');
    expect(violation.message.length).toBeLessThan(150);
  });

  test('anyOf: the branch that fits the type reports its own errors', () => {
    const schema = JsonSchema.obj({
      pay: JsonSchema.anyOf([JsonSchema.integer({ maximum: 3 }), JsonSchema.obj({ coins: JsonSchema.integer() })]),
    });
    expect(schema.validate({ pay: 5 })).toEqual([{ path: '$.pay', message: 'must be at most 3; got 5' }]);
    expect(schema.validate({ pay: { coins: 'a' } })).toEqual([
      { path: '$.pay.coins', message: 'must be an integer; got "a"' },
    ]);
    expect(schema.validate({ pay: 2 })).toEqual([]);
  });

  test('anyOf: with no fitting branch one line says the choices in words', () => {
    const schema = JsonSchema.obj({
      pay: JsonSchema.anyOf([JsonSchema.integer({ maximum: 3 }), JsonSchema.obj({ coins: JsonSchema.integer() })]),
    });
    expect(schema.validate({ pay: 'x' })).toEqual([
      { path: '$.pay', message: 'must be integer at most 3 or { coins: integer }; got "x"' },
    ]);
    const two = JsonSchema.anyOf([
      JsonSchema.obj({ a: JsonSchema.string() }),
      JsonSchema.obj({ b: JsonSchema.string() }),
    ]);
    expect(two.validate({ c: 1 })).toEqual([
      { path: '$', message: 'must be { a: string } or { b: string }; got an object' },
    ]);
  });

  test('oneOf: none and more than one', () => {
    const schema = JsonSchema.oneOf([JsonSchema.integer(), JsonSchema.number({ maximum: 5 })]);
    expect(schema.validate(2.5)).toEqual([]);
    expect(schema.validate(3)).toEqual([{ path: '$', message: 'matches more than one of the allowed forms' }]);
    expect(schema.validate('x')).toEqual([{ path: '$', message: 'must be integer or number at most 5; got "x"' }]);
  });

  test('allOf reports each part', () => {
    const schema = JsonSchema.from({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
    });
    expect(schema.validate({ a: 'x', b: 1 })).toEqual([]);
    expect(schema.validate({ b: 'y' })).toEqual([
      { path: '$.a', message: 'is required' },
      { path: '$.b', message: 'must be an integer; got "y"' },
    ]);
  });

  test('$ref targets and nullable refs', () => {
    const schema = JsonSchema.obj({ node: JsonSchema.ref('Node') }).withDefinitions({
      Node: JsonSchema.obj(
        { name: JsonSchema.string(), child: JsonSchema.ref('Node').nullable() },
        { optional: ['child'] },
      ),
    });
    expect(schema.validate({ node: { name: 'x', child: { name: 'y', child: null } } })).toEqual([]);
    expect(schema.validate({ node: { name: 'x', child: { child: null } } })).toEqual([
      { path: '$.node.child.name', message: 'is required' },
    ]);
    expect(schema.validate({ node: { name: 'x', child: 'y' } })).toEqual([
      {
        path: '$.node.child',
        message: 'must be { name: string; child?: Node (same form as above) or null } or null; got "y"',
      },
    ]);
  });

  test('does not mutate the value', () => {
    const value = { item: 'ale', quantity: '2' };
    order.validate(value);
    expect(value).toEqual({ item: 'ale', quantity: '2' });
  });

  test('compiled validators are reused', () => {
    for (let index = 0; index < 50; index++)
      expect(order.validate({ item: 'ale', quantity: (index % 10) + 1 })).toEqual([]);
  });
});

describe('formatViolations()', () => {
  test('joins with "; " and shows at most 4', () => {
    const violation = (index: number) => ({ path: `$.f${index}`, message: `bad ${index}` });
    expect(formatViolations([])).toBe('');
    expect(formatViolations([violation(1)])).toBe('$.f1: bad 1');
    expect(formatViolations([violation(1), violation(2)])).toBe('$.f1: bad 1; $.f2: bad 2');
    expect(formatViolations([1, 2, 3, 4].map(violation))).toBe('$.f1: bad 1; $.f2: bad 2; $.f3: bad 3; $.f4: bad 4');
    expect(formatViolations([1, 2, 3, 4, 5, 6].map(violation))).toBe(
      '$.f1: bad 1; $.f2: bad 2; $.f3: bad 3; $.f4: bad 4; and 2 more',
    );
  });
});

describe('deep values', () => {
  const tree = JsonSchema.from({
    $defs: { N: { type: 'object', properties: { n: { $ref: '#/$defs/N' }, v: { type: 'integer' } } } },
    $ref: '#/$defs/N',
  });
  const nest = (levels: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { v: 'x' };
    for (let index = 0; index < levels; index++) value = { n: value };
    return value;
  };

  test('values up to 64 levels are validated normally', () => {
    const violations = tree.validate(nest(62));
    expect(violations).toHaveLength(1);
    expect(violations[0].path).toBe('$' + '.n'.repeat(62) + '.v');
    expect(violations[0].message).toBe('must be an integer; got "x"');
  });

  test('deeper values are one violation, not a stack overflow', () => {
    const violations = tree.validate(nest(500));
    expect(violations).toEqual([{ path: '$' + '.n'.repeat(64), message: 'is nested more than 64 levels deep' }]);
    expect(tree.check(nest(500)).ok).toBe(false);
  });
});
