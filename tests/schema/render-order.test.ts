import { JsonSchema } from '../../src/core/schema';

const menuOrder = JsonSchema.obj(
  {
    item: JsonSchema.enumOf(['ale', 'stew', 'bread']),
    quantity: JsonSchema.integer({ minimum: 1, maximum: 10, description: 'how many' }),
    rush: JsonSchema.boolean(),
  },
  { optional: ['rush'] },
);

describe('render()', () => {
  test('the example from the brief', () => {
    const schema = JsonSchema.obj({
      item: JsonSchema.enumOf(['ale', 'stew', 'bread']),
      quantity: JsonSchema.integer({ minimum: 1, maximum: 10, description: 'how many' }),
    });
    expect(schema.render()).toBe('{ item: one of "ale", "stew", "bread"; quantity: integer 1-10 (how many) }');
  });

  test('optional properties get ?, booleans read true or false', () => {
    expect(menuOrder.render()).toBe(
      '{ item: one of "ale", "stew", "bread"; quantity: integer 1-10 (how many); rush?: true or false }',
    );
  });

  test('never writes | unions', () => {
    const schema = JsonSchema.obj({
      a: JsonSchema.anyOf([JsonSchema.string(), JsonSchema.integer()]),
      b: JsonSchema.enumOf(['x', 'y']).nullable(),
    });
    expect(schema.render()).not.toContain('|');
    expect(schema.render()).toBe('{ a: string or integer; b: one of "x", "y" or null }');
  });

  test.each([
    [JsonSchema.string(), 'string'],
    [JsonSchema.string({ minLength: 1, maxLength: 20 }), 'string, 1-20 characters'],
    [JsonSchema.string({ maxLength: 1 }), 'string, at most 1 character'],
    [JsonSchema.string({ minLength: 3 }), 'string, at least 3 characters'],
    [JsonSchema.string({ pattern: '^[a-z]+$' }), 'string, matching ^[a-z]+$'],
    [JsonSchema.integer(), 'integer'],
    [JsonSchema.integer({ minimum: 1 }), 'integer at least 1'],
    [JsonSchema.integer({ maximum: 9 }), 'integer at most 9'],
    [JsonSchema.integer({ minimum: -5, maximum: 5 }), 'integer from -5 to 5'],
    [JsonSchema.number({ minimum: 0, maximum: 1 }), 'number 0-1'],
    [JsonSchema.from({ type: 'number', exclusiveMinimum: 0 }), 'number above 0'],
    [JsonSchema.from({ type: 'number', exclusiveMaximum: 1, minimum: 0 }), 'number at least 0 and below 1'],
    [JsonSchema.boolean(), 'true or false'],
    [JsonSchema.from({ type: 'null' }), 'null'],
    [JsonSchema.string().nullable(), 'string or null'],
    [JsonSchema.enumOf(['a']), 'exactly "a"'],
    [JsonSchema.enumOf([1, 2]), 'one of 1, 2'],
    [JsonSchema.from({ const: 'x' }), 'exactly "x"'],
    [JsonSchema.array(JsonSchema.string()), 'list of string'],
    [JsonSchema.array(JsonSchema.integer(), { minItems: 1, maxItems: 3 }), 'list of integer (1-3 items)'],
    [JsonSchema.array(JsonSchema.string(), { maxItems: 2 }), 'list of string (at most 2 items)'],
    [JsonSchema.array(JsonSchema.string(), { minItems: 2, maxItems: 2 }), 'list of string (exactly 2 items)'],
    [JsonSchema.from({ type: 'array' }), 'list of any value'],
    [JsonSchema.empty(), '{}'],
    [JsonSchema.from({ type: 'object' }), 'object'],
    [JsonSchema.from({ type: 'object', additionalProperties: { type: 'integer' } }), '{ any other key: integer }'],
    [JsonSchema.from({}), 'any value'],
    [JsonSchema.from({ type: ['integer', 'number'] }), 'number'],
  ])('%j', (schema, words) => {
    expect(schema.render()).toBe(words);
  });

  test('descriptions, titles, defaults and examples are shown in parentheses', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: {
        a: { type: 'string', description: 'the name' },
        b: { type: 'integer', title: 'Count', default: 1 },
        c: { type: 'string', examples: ['x', 'y', 'z'] },
      },
      required: ['a'],
    });
    expect(schema.render()).toBe(
      '{ a: string (the name); b?: integer (Count; default 1); c?: string (e.g. "x", "y") }',
    );
  });

  test('odd keys are quoted', () => {
    expect(JsonSchema.obj({ 'full name': JsonSchema.string() }).render()).toBe('{ "full name": string }');
  });

  test('nested objects and lists of objects', () => {
    const schema = JsonSchema.obj({
      lines: JsonSchema.array(JsonSchema.obj({ sku: JsonSchema.string(), n: JsonSchema.integer({ minimum: 1 }) })),
    });
    expect(schema.render()).toBe('{ lines: list of { sku: string; n: integer at least 1 } }');
  });

  test('refs are expanded, recursion is named', () => {
    const schema = JsonSchema.obj({ node: JsonSchema.ref('Node') }).withDefinitions({
      Node: JsonSchema.obj(
        { name: JsonSchema.string(), kids: JsonSchema.array(JsonSchema.ref('Node')) },
        { optional: ['kids'] },
      ),
    });
    expect(schema.render()).toBe('{ node: { name: string; kids?: list of Node (same form as above) } }');
  });

  test('allOf of objects reads as one object', () => {
    const schema = JsonSchema.from({
      allOf: [
        { $ref: '#/definitions/Base' },
        { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
      definitions: { Base: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
    });
    expect(schema.render()).toBe('{ a: string; b: integer }');
    expect(schema.propertyNames()).toEqual(['a', 'b']);
    expect(JsonSchema.from({ allOf: [{ type: 'string' }, { maxLength: 3 }] }).render()).toBe('string');
  });

  test('a root description is left to the caller', () => {
    expect(JsonSchema.obj({ a: JsonSchema.string() }, { description: 'an order' }).render()).toBe('{ a: string }');
  });
});

describe('renderFields()', () => {
  test('one line per property', () => {
    expect(menuOrder.renderFields()).toBe(
      [
        '- "item": one of "ale", "stew", "bread"',
        '- "quantity": integer 1-10, how many',
        '- "rush" (optional): true or false',
      ].join('\n'),
    );
  });

  test('nested objects stay on their line', () => {
    const schema = JsonSchema.obj({ who: JsonSchema.obj({ name: JsonSchema.string() }, { description: 'the buyer' }) });
    expect(schema.renderFields()).toBe('- "who": { name: string }, the buyer');
  });

  test('empty objects have no lines; non-object roots render whole', () => {
    expect(JsonSchema.empty().renderFields()).toBe('');
    expect(JsonSchema.array(JsonSchema.string()).renderFields()).toBe('list of string');
    expect(JsonSchema.anyOf([JsonSchema.obj({ a: JsonSchema.string() }), JsonSchema.integer()]).renderFields()).toBe(
      '{ a: string } or integer',
    );
  });
});

describe('order()', () => {
  test('keys in schema order, unknown keys last, recursively', () => {
    const schema = JsonSchema.obj(
      {
        a: JsonSchema.string(),
        inner: JsonSchema.obj({ x: JsonSchema.integer(), y: JsonSchema.integer() }),
        list: JsonSchema.array(JsonSchema.obj({ p: JsonSchema.string(), q: JsonSchema.string() })),
      },
      { open: true },
    );
    const out = schema.order({ zz: 1, list: [{ q: '1', p: '2', r: 0 }], inner: { y: 1, x: 2 }, a: 'x' }) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(out)).toBe('{"a":"x","inner":{"x":2,"y":1},"list":[{"p":"2","q":"1","r":0}],"zz":1}');
  });

  test('never mutates and returns a copy', () => {
    const value = { b: 1, a: { d: 1, c: 2 } };
    const schema = JsonSchema.obj({
      a: JsonSchema.obj({ c: JsonSchema.integer(), d: JsonSchema.integer() }),
      b: JsonSchema.integer(),
    });
    const out = schema.order(value) as Record<string, unknown>;
    expect(JSON.stringify(value)).toBe('{"b":1,"a":{"d":1,"c":2}}');
    expect(JSON.stringify(out)).toBe('{"a":{"c":2,"d":1},"b":1}');
    expect(out.a).not.toBe(value.a);
  });

  test('follows refs, anyOf branches and additionalProperties schemas', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: {
        pick: { anyOf: [{ type: 'integer' }, { type: 'object', properties: { m: {}, n: {} } }] },
        ref: { $ref: '#/$defs/R' },
      },
      additionalProperties: { type: 'object', properties: { k: {}, j: {} } },
      $defs: { R: { type: 'object', properties: { s: {}, t: {} } } },
    });
    const out = schema.order({ extra: { j: 1, k: 2 }, ref: { t: 1, s: 2 }, pick: { n: 1, m: 2 } });
    expect(JSON.stringify(out)).toBe('{"pick":{"m":2,"n":1},"ref":{"s":2,"t":1},"extra":{"k":2,"j":1}}');
  });

  test('primitives and non-matching shapes pass through', () => {
    const schema = JsonSchema.obj({ a: JsonSchema.string() });
    expect(schema.order(5)).toBe(5);
    expect(schema.order(['x'])).toEqual(['x']);
    expect(schema.order(null)).toBeNull();
  });

  test('array roots order their items', () => {
    const schema = JsonSchema.array(JsonSchema.obj({ a: JsonSchema.integer(), b: JsonSchema.integer() }));
    expect(JSON.stringify(schema.order([{ b: 1, a: 2 }]))).toBe('[{"a":2,"b":1}]');
  });
});
