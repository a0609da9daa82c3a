import { JsonSchema } from '../../src/core/schema';
import { AgentError } from '../../src/contract/errors';

function invalid(json: unknown): string {
  try {
    JsonSchema.from(json);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('invalid_schema');
    return (error as AgentError).message;
  }
  throw new Error(`expected invalid_schema for ${JSON.stringify(json)}`);
}

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let index = 0; index < depth; index++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('from() and parse()', () => {
  test('reads a full schema with every supported keyword without warnings', () => {
    const schema = JsonSchema.from({
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: 'Order',
      type: 'object',
      properties: {
        item: { type: 'string', enum: ['ale', 'stew'], description: 'what' },
        note: { type: ['string', 'null'], minLength: 1, maxLength: 9, pattern: '^[a-z]+$' },
        qty: { type: 'integer', minimum: 1, maximum: 10, default: 1, examples: [2] },
        price: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 100 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 3 },
        kind: { const: 'order' },
        extra: { type: 'object', additionalProperties: { type: 'integer' } },
        pick: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        one: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        all: { allOf: [{ $ref: '#/definitions/Base' }, { $ref: '#/$defs/More' }] },
        old: { type: 'string', nullable: true },
      },
      required: ['item'],
      additionalProperties: false,
      definitions: { Base: { type: 'object', properties: { a: { type: 'string' } } } },
      $defs: { More: { type: 'object', properties: { b: { type: 'string' } } } },
    });
    expect(schema.warnings).toEqual([]);
    expect(schema.propertyNames()).toEqual([
      'item',
      'note',
      'qty',
      'price',
      'tags',
      'kind',
      'extra',
      'pick',
      'one',
      'all',
      'old',
    ]);
    expect(schema.validate({ item: 'ale', old: null, all: { a: 'x', b: 'y' } })).toEqual([]);
  });

  test('keeps the given json as a copy', () => {
    const raw = { type: 'object', properties: { a: { type: 'string', format: 'email' } } };
    const schema = JsonSchema.from(raw);
    expect(schema.json).toEqual(raw);
    expect(schema.json).not.toBe(raw);
    raw.properties.a.type = 'integer';
    expect(schema.validate({ a: 'x' })).toEqual([]);
  });

  test('warns about ignored keywords with their paths', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: {
        x: { type: 'string', format: 'email' },
        y: { type: 'array', items: { type: 'integer', multipleOf: 2 }, uniqueItems: true },
      },
      required: ['x', 'z'],
      patternProperties: { '^a': { type: 'string' } },
    });
    expect(schema.warnings).toEqual([
      '$.properties.x.format: ignored',
      '$.properties.y.items.multipleOf: ignored',
      '$.properties.y.uniqueItems: ignored',
      '$.patternProperties: ignored',
      '$.required: "z" is not a property',
    ]);
    // ignored means not enforced
    expect(schema.validate({ x: 'not an email', y: [1, 1] }).map((violation) => violation.path)).toEqual(['$.z']);
  });

  test('warnings is a copy', () => {
    const schema = JsonSchema.from({ type: 'string', format: 'date' });
    expect(JsonSchema.from({ 'x-vendor': 1, 'odd key': 2 }).warnings).toEqual([
      '$.x-vendor: ignored',
      '$["odd key"]: ignored',
    ]);
    schema.warnings.push('x');
    expect(schema.warnings).toEqual(['$.format: ignored']);
  });

  test('parse reads JSON text and rejects other text', () => {
    expect(JsonSchema.parse('{"type":"integer","maximum":3}').validate(4)).toEqual([
      { path: '$', message: 'must be at most 3; got 4' },
    ]);
    expect(() => JsonSchema.parse('{type: integer}')).toThrow(AgentError);
    try {
      JsonSchema.parse('not json');
    } catch (error) {
      expect((error as AgentError).code).toBe('invalid_schema');
      expect((error as AgentError).message).toMatch(/^\$: not valid JSON/);
    }
    expect(invalid(JSON.parse('[1]'))).toBe('$: must be a schema object; got an array');
  });

  test.each([
    ['a non-object root', 'str', '$: must be a schema object; got string'],
    ['null root', null, '$: must be a schema object; got null'],
    ['an unknown type name', { type: 'text' }, '$.type: unknown type "text"'],
    ['an unknown type in a list', { type: ['string', 'date'] }, '$.type: unknown type "date"'],
    ['an empty type list', { type: [] }, '$.type: must name at least one type'],
    ['a repeated type', { type: ['string', 'string'] }, '$.type: names type "string" twice'],
    [
      'a non-object property schema',
      { type: 'object', properties: { a: 'string' } },
      '$.properties.a: must be a schema object; got "string"',
    ],
    ['a boolean property schema', { properties: { a: true } }, '$.properties.a: must be a schema object; got true'],
    ['properties not an object', { properties: [] }, '$.properties: must be an object of schemas'],
    ['required not an array', { required: 'a' }, '$.required: must be an array of property names'],
    ['a non-string required name', { required: [1] }, '$.required[0]: must be a property name'],
    [
      'a bad additionalProperties',
      { additionalProperties: 'no' },
      '$.additionalProperties: must be true, false or a schema object',
    ],
    ['a non-array enum', { enum: 'a' }, '$.enum: must be an array of values'],
    ['an empty enum', { enum: [] }, '$.enum: must list at least one value'],
    ['a non-string pattern', { pattern: 5 }, '$.pattern: must be a string'],
    ['a broken pattern', { pattern: '([a-z' }, '$.pattern: is not a valid regular expression'],
    ['a negative minLength', { minLength: -1 }, '$.minLength: must be a non-negative integer'],
    ['a fractional maxItems', { maxItems: 1.5 }, '$.maxItems: must be a non-negative integer'],
    ['a string maximum', { maximum: '10' }, '$.maximum: must be a number'],
    ['a string exclusiveMinimum', { exclusiveMinimum: 'x' }, '$.exclusiveMinimum: must be a number'],
    [
      'exclusiveMaximum true without maximum',
      { exclusiveMaximum: true },
      '$.exclusiveMaximum: true needs a "maximum" beside it',
    ],
    ['minimum above maximum', { minimum: 5, maximum: 1 }, '$.minimum: 5 is greater than maximum 1'],
    ['minLength above maxLength', { minLength: 5, maxLength: 1 }, '$.minLength: 5 is greater than maxLength 1'],
    ['tuple items', { type: 'array', items: [{ type: 'string' }] }, '$.items: tuple items'],
    ['a non-object items', { items: 'string' }, '$.items: must be a schema object'],
    ['an empty anyOf', { anyOf: [] }, '$.anyOf: must list at least one schema'],
    ['a non-array oneOf', { oneOf: {} }, '$.oneOf: must be an array of schemas'],
    ['a bad allOf member', { allOf: [{ type: 'string' }, 3] }, '$.allOf[1]: must be a schema object; got 3'],
    ['a remote $ref', { $ref: 'http://example.com/s.json' }, '$.$ref: only local references'],
    ['a non-string $ref', { $ref: 1 }, '$.$ref: must be a string'],
    [
      'a missing $ref target',
      { properties: { a: { $ref: '#/$defs/Nope' } } },
      '$.properties.a.$ref: points at nothing: "#/$defs/Nope"',
    ],
    [
      'a $ref into a non-schema',
      { enum: [1], properties: { a: { $ref: '#/enum/0' } } },
      '$.properties.a.$ref: points at nothing',
    ],
    ['a non-object $defs', { $defs: [] }, '$.$defs: must be an object of schemas'],
    ['a bad definition', { definitions: { A: 'x' } }, '$.definitions.A: must be a schema object'],
    ['a bad nullable', { type: 'string', nullable: 'yes' }, '$.nullable: must be true or false'],
    ['a bad description', { description: 5 }, '$.description: must be a string'],
    ['a bad x-order', { 'x-order': { a: 1 } }, '$.x-order: must be a list of property names or a number'],
    ['a ref cycle', { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } }, '$ref cycle'],
    ['a self-including allOf', { $defs: { A: { allOf: [{ $ref: '#/$defs/A' }] } } }, '$ref cycle'],
    ['a root that refers to itself', { $ref: '#' }, '$ref cycle'],
  ])('rejects %s', (_name, json, message) => {
    expect(invalid(json)).toContain(message);
  });

  test('every invalid_schema message starts with the path', () => {
    const msg = invalid({
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'object', properties: { 'b c': { type: 'wat' } } } } },
    });
    expect(msg).toMatch(/^\$\.properties\.a\.items\.properties\["b c"\]\.type: unknown type "wat"/);
    expect(invalid({ anyOf: [{ type: 'string' }, { type: 'x' }] })).toMatch(/^\$\.anyOf\[1\]\.type:/);
  });

  test('a chain of more than 16 $ref hops is rejected, 16 is fine', () => {
    const chain = (count: number): Record<string, unknown> => {
      const defs: Record<string, unknown> = {};
      for (let index = 0; index < count; index++) defs[`D${index}`] = { $ref: `#/$defs/D${index + 1}` };
      defs[`D${count}`] = { type: 'string' };
      return { $ref: '#/$defs/D0', $defs: defs };
    };
    expect(JsonSchema.from(chain(15)).validate('x')).toEqual([]);
    expect(invalid(chain(20))).toContain('more than 16 $ref hops');
  });

  test('nesting deeper than 32 levels is rejected', () => {
    expect(JsonSchema.from(nested(32)).warnings).toEqual([]);
    expect(invalid(nested(33))).toContain('is nested deeper than 32 levels');
  });

  test('recursive schemas through properties are fine', () => {
    const tree = JsonSchema.from({
      $ref: '#/$defs/Node',
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['name'],
        },
      },
    });
    expect(tree.validate({ name: 'a', kids: [{ name: 'b', kids: [{ name: 'c' }] }] })).toEqual([]);
    expect(tree.validate({ name: 'a', kids: [{ name: 'b', kids: [{}] }] })).toEqual([
      { path: '$.kids[0].kids[0].name', message: 'is required' },
    ]);
    const self = JsonSchema.from({ type: 'object', properties: { next: { $ref: '#' }, v: { type: 'integer' } } });
    expect(self.validate({ next: { next: { v: 'x' } } })).toEqual([
      { path: '$.next.next.v', message: 'must be an integer; got "x"' },
    ]);
  });

  test('any JSON pointer works as a local $ref, including escaped segments', () => {
    const schema = JsonSchema.from({
      type: 'object',
      properties: { 'a/b': { type: 'integer', maximum: 3 }, copy: { $ref: '#/properties/a~1b' } },
    });
    expect(schema.validate({ copy: 4 })).toEqual([{ path: '$.copy', message: 'must be at most 3; got 4' }]);
  });

  test('draft-4 boolean exclusive bounds are read as numbers', () => {
    const schema = JsonSchema.from({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: false,
    });
    expect(schema.validate(0)).toEqual([{ path: '$', message: 'must be greater than 0; got 0' }]);
    expect(schema.validate(1)).toEqual([]);
  });

  test('x-order as a list or per-property numbers sets the property order', () => {
    const list = JsonSchema.from({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
      'x-order': ['c', 'a', 'zz'],
    });
    expect(list.propertyNames()).toEqual(['c', 'a', 'b']);
    expect(list.warnings).toEqual(['$.x-order: "zz" is not a property']);
    const ranks = JsonSchema.from({
      type: 'object',
      properties: { a: { type: 'string', 'x-order': 2 }, b: { type: 'string' }, c: { type: 'string', 'x-order': 1 } },
    });
    expect(ranks.propertyNames()).toEqual(['c', 'a', 'b']);
    expect(ranks.order({ b: 1, a: 2, c: 3 })).toEqual({ c: 3, a: 2, b: 1 });
    expect(Object.keys(ranks.order({ b: 1, a: 2, c: 3 }) as object)).toEqual(['c', 'a', 'b']);
  });

  test('from() of a JsonSchema returns it', () => {
    const schema = JsonSchema.string();
    expect(JsonSchema.from(schema)).toBe(schema);
  });
});
