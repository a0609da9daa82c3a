import { JsonSchema } from '../../src/core/schema';
import { AgentError } from '../../src/contract/errors';

function schemaError(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_schema');
    return error as AgentError;
  }
  throw new Error('expected an invalid_schema error');
}

describe('builders', () => {
  test('obj is closed with every property required, in order', () => {
    const schema = JsonSchema.obj({ b: JsonSchema.string(), a: JsonSchema.integer() }, { description: 'order' });
    expect(schema.json).toEqual({
      type: 'object',
      description: 'order',
      properties: { b: { type: 'string' }, a: { type: 'integer' } },
      required: ['b', 'a'],
      additionalProperties: false,
    });
    expect(schema.propertyNames()).toEqual(['b', 'a']);
  });

  test('obj optional and open', () => {
    const schema = JsonSchema.obj({ a: JsonSchema.string(), b: JsonSchema.string() }, { optional: ['b'], open: true });
    expect(schema.json).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a'],
    });
    const none = JsonSchema.obj({ a: JsonSchema.string() }, { optional: ['a'] });
    expect(none.json.required).toBeUndefined();
    expect(none.validate({})).toEqual([]);
  });

  test('obj rejects an optional name that is not a property', () => {
    expect(schemaError(() => JsonSchema.obj({ a: JsonSchema.string() }, { optional: ['b'] })).message).toContain('"b"');
  });

  test('primitive builders carry their options', () => {
    expect(
      JsonSchema.string({ description: 'd', minLength: 1, maxLength: 5, pattern: '^a', enum: ['a', 'ab'] }).json,
    ).toEqual({
      type: 'string',
      description: 'd',
      enum: ['a', 'ab'],
      minLength: 1,
      maxLength: 5,
      pattern: '^a',
    });
    expect(JsonSchema.integer({ minimum: 1, maximum: 10 }).json).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
    expect(JsonSchema.number({ minimum: 0.5 }).json).toEqual({ type: 'number', minimum: 0.5 });
    expect(JsonSchema.boolean({ description: 'flag' }).json).toEqual({ type: 'boolean', description: 'flag' });
    expect(JsonSchema.string().json).toEqual({ type: 'string' });
  });

  test('array', () => {
    expect(JsonSchema.array(JsonSchema.string(), { minItems: 1, maxItems: 3, description: 'names' }).json).toEqual({
      type: 'array',
      description: 'names',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 3,
    });
  });

  test('enumOf infers the type from the values', () => {
    expect(JsonSchema.enumOf(['a', 'b']).json).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(JsonSchema.enumOf([1, 2]).json).toEqual({ type: 'integer', enum: [1, 2] });
    expect(JsonSchema.enumOf([1.5, 2]).json).toEqual({ type: 'number', enum: [1.5, 2] });
    expect(JsonSchema.enumOf(['a', 1], { description: 'mixed' }).json).toEqual({
      description: 'mixed',
      enum: ['a', 1],
    });
    schemaError(() => JsonSchema.enumOf([]));
  });

  test('anyOf / oneOf', () => {
    expect(JsonSchema.anyOf([JsonSchema.string(), JsonSchema.integer()], 'either').json).toEqual({
      description: 'either',
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    });
    expect(JsonSchema.oneOf([JsonSchema.string(), JsonSchema.boolean()]).json).toEqual({
      oneOf: [{ type: 'string' }, { type: 'boolean' }],
    });
    schemaError(() => JsonSchema.anyOf([]));
    schemaError(() => JsonSchema.oneOf([]));
  });

  test('ref and withDefinitions; a lone ref fails when used', () => {
    const schema = JsonSchema.obj({ item: JsonSchema.ref('Item') }).withDefinitions({
      Item: JsonSchema.obj({ name: JsonSchema.string() }),
    });
    expect(schema.json.$defs).toEqual({
      Item: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
    });
    expect((schema.json.properties as Record<string, unknown>).item).toEqual({ $ref: '#/$defs/Item' });
    expect(schema.validate({ item: { name: 'x' } })).toEqual([]);
    expect(JsonSchema.ref('a/b~c').json).toEqual({ $ref: '#/$defs/a~1b~0c' });
    expect(schemaError(() => JsonSchema.ref('Missing').validate(1)).message).toContain('$.$ref');
  });

  test('definitions of nested builders are hoisted to the root', () => {
    const inner = JsonSchema.array(JsonSchema.ref('Item')).withDefinitions({ Item: JsonSchema.string() });
    const schema = JsonSchema.obj({ items: inner });
    expect(schema.json.$defs).toEqual({ Item: { type: 'string' } });
    expect(schema.validate({ items: ['a'] })).toEqual([]);
    expect(schema.validate({ items: [1] })).toEqual([{ path: '$.items[0]', message: 'must be a string; got 1' }]);
    const clash = JsonSchema.array(JsonSchema.ref('Item')).withDefinitions({ Item: JsonSchema.integer() });
    schemaError(() => JsonSchema.obj({ a: inner, b: clash }));
  });

  test('empty', () => {
    const schema = JsonSchema.empty();
    expect(schema.json).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(schema.isEmptyObject()).toBe(true);
    expect(schema.propertyNames()).toEqual([]);
    expect(schema.validate({})).toEqual([]);
    expect(schema.validate({ x: 1 })).toEqual([{ path: '$.x', message: 'is not allowed' }]);
    expect(JsonSchema.obj({ a: JsonSchema.string() }).isEmptyObject()).toBe(false);
    expect(JsonSchema.string().isEmptyObject()).toBe(false);
    expect(JsonSchema.from({ type: 'object' }).isEmptyObject()).toBe(true);
  });

  test('nullable on typed, enum, ref and composite schemas', () => {
    expect(JsonSchema.string().nullable().json).toEqual({ type: ['string', 'null'] });
    expect(JsonSchema.string().nullable().nullable().json).toEqual({ type: ['string', 'null'] });
    expect(JsonSchema.enumOf(['a', 'b']).nullable().json).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(JsonSchema.enumOf(['a', 1]).nullable().json).toEqual({ enum: ['a', 1, null] });
    expect(JsonSchema.ref('X').described('an x').nullable().json).toEqual({
      description: 'an x',
      anyOf: [{ $ref: '#/$defs/X' }, { type: 'null' }],
    });
    const schema = JsonSchema.obj({ a: JsonSchema.integer().nullable() });
    expect(schema.validate({ a: null })).toEqual([]);
    expect(schema.validate({ a: 'x' })).toEqual([{ path: '$.a', message: 'must be an integer or null; got "x"' }]);
    const enumSchema = JsonSchema.obj({ a: JsonSchema.enumOf(['x', 'y']).nullable() });
    expect(enumSchema.validate({ a: null })).toEqual([]);
  });

  test('described copies and does not change the original', () => {
    const base = JsonSchema.string();
    const described = base.described('a name');
    expect(described.json).toEqual({ type: 'string', description: 'a name' });
    expect(base.json).toEqual({ type: 'string' });
  });

  test('json is plain, serializable JSON that round-trips through parse', () => {
    const schema = JsonSchema.obj(
      { a: JsonSchema.array(JsonSchema.enumOf(['x'])), b: JsonSchema.number().nullable() },
      { optional: ['b'] },
    );
    const text = JSON.stringify(schema);
    expect(JSON.parse(text)).toEqual(schema.json);
    const back = JsonSchema.parse(text);
    expect(back.json).toEqual(schema.json);
    expect(back.render()).toBe(schema.render());
    expect(back.warnings).toEqual([]);
  });
});

describe('builder mistakes surface as invalid_schema on first use', () => {
  test.each([
    [
      'a reversed range',
      () => JsonSchema.integer({ minimum: 5, maximum: 1 }),
      '$.minimum: 5 is greater than maximum 1',
    ],
    ['a broken pattern', () => JsonSchema.string({ pattern: '(' }), '$.pattern: is not a valid regular expression'],
    ['a negative length', () => JsonSchema.string({ maxLength: -1 }), '$.maxLength: must be a non-negative integer'],
    [
      'a missing definition',
      () => JsonSchema.obj({ a: JsonSchema.ref('A') }),
      '$.properties.a.$ref: points at nothing',
    ],
  ])('%s', (_name, build, message) => {
    const schema = build();
    expect(schemaError(() => schema.validate(1)).message).toContain(message);
    expect(schemaError(() => schema.render()).message).toContain(message);
    expect(schemaError(() => schema.warnings).message).toContain(message);
  });
});
