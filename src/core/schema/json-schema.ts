/**
 * JsonSchema: the one schema type of the core. Tool arguments and structured replies written
 * by a small on-device model are coerced (safe fixes), validated with ajv, re-ordered, and
 * schemas are rendered in words into prompts.
 */
import { AgentError } from '../../contract/errors';
import { AnalyzedSchema, analyzeSchema } from './analyze';
import { Coercer } from './coerce';
import { orderValue } from './order';
import { SchemaRenderer, noteOf, objectShape } from './render';
import {
  SchemaNode,
  appendIndex,
  appendKey,
  deepCopy,
  deepEqual,
  escapePointerSegment,
  hasOwn,
  isPlainObject,
} from './schema-node';
import { CompiledSchema } from './validator';
import { Violation, formatViolations, toViolations } from './violations';

/** A raw JSON Schema object, as stored in persona assets and tool declarations. */
export type JsonObjectSchema = Record<string, unknown>;

export type CheckResult = { ok: true; value: unknown } | { ok: false; violations: Violation[]; problem: string };

type Described = { description?: string };

function withDescription(json: JsonObjectSchema, options?: Described): JsonObjectSchema {
  if (options && options.description !== undefined) json.description = options.description;
  return json;
}

/** Copies the options that are set, in a fixed order, onto a schema. */
function withOptions(
  json: JsonObjectSchema,
  options: Record<string, unknown> | undefined,
  keys: readonly string[],
): JsonObjectSchema {
  if (!options) return json;
  for (const key of keys) if (options[key] !== undefined) json[key] = deepCopy(options[key]);
  return json;
}

/**
 * A child's `$defs` move up to the schema being built, since `#/$defs/…` always means the
 * root's definitions; the same name with a different schema is a mistake.
 */
function hoist(child: JsonSchema, defs: Record<string, unknown>): JsonObjectSchema {
  const json = deepCopy(child.json);
  const childDefs = json.$defs;
  if (isPlainObject(childDefs)) {
    for (const name of Object.keys(childDefs)) {
      if (hasOwn(defs, name) && !deepEqual(defs[name], childDefs[name])) {
        throw new AgentError('invalid_schema', `$.$defs.${name}: defined twice with different schemas`);
      }
      defs[name] = childDefs[name];
    }
    delete json.$defs;
  }
  return json;
}

function withDefs(json: JsonObjectSchema, defs: Record<string, unknown>): JsonObjectSchema {
  if (Object.keys(defs).length > 0) json.$defs = defs;
  return json;
}

/** Values nested deeper than this are rejected before validation (no stack overflows). */
const MAX_VALUE_DEPTH = 64;

/** The path of the first container nested deeper than MAX_VALUE_DEPTH, if any. */
function tooDeepPath(value: unknown): string | undefined {
  const visit = (node: unknown, path: string, depth: number): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    if (depth >= MAX_VALUE_DEPTH) return path;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const found = visit(node[index], appendIndex(path, index), depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    for (const key of Object.keys(node)) {
      const found = visit((node as Record<string, unknown>)[key], appendKey(path, key), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(value, '$', 0);
}

export class JsonSchema {
  /** The plain JSON Schema (serializable). */
  readonly json: JsonObjectSchema;
  private analyzedCache?: AnalyzedSchema;
  private compiledCache?: CompiledSchema;
  private renderedWords?: string;
  private renderedFields?: string;

  private constructor(json: JsonObjectSchema) {
    this.json = json;
  }

  // ---- builders -------------------------------------------------------------------------

  /** A closed object (`additionalProperties: false`); every property required unless listed optional. */
  static obj(
    properties: Record<string, JsonSchema>,
    options: { optional?: string[]; description?: string; open?: boolean } = {},
  ): JsonSchema {
    const names = Object.keys(properties);
    const optional = options.optional ?? [];
    for (const name of optional) {
      if (names.indexOf(name) < 0)
        throw new AgentError('invalid_schema', `$.required: optional ${JSON.stringify(name)} is not a property`);
    }
    const defs: Record<string, unknown> = {};
    const props: Record<string, unknown> = {};
    for (const name of names) props[name] = hoist(properties[name], defs);
    const json: JsonObjectSchema = { type: 'object' };
    withDescription(json, options);
    json.properties = props;
    const required = names.filter((name) => optional.indexOf(name) < 0);
    if (required.length > 0) json.required = required;
    if (!options.open) json.additionalProperties = false;
    return new JsonSchema(withDefs(json, defs));
  }

  static string(options?: {
    description?: string;
    minLength?: number;
    maxLength?: number;
    pattern?: string;
    enum?: string[];
  }): JsonSchema {
    return new JsonSchema(
      withOptions(withDescription({ type: 'string' }, options), options, ['enum', 'minLength', 'maxLength', 'pattern']),
    );
  }

  static integer(options?: { description?: string; minimum?: number; maximum?: number }): JsonSchema {
    return new JsonSchema(withOptions(withDescription({ type: 'integer' }, options), options, ['minimum', 'maximum']));
  }

  static number(options?: { description?: string; minimum?: number; maximum?: number }): JsonSchema {
    return new JsonSchema(withOptions(withDescription({ type: 'number' }, options), options, ['minimum', 'maximum']));
  }

  static boolean(options?: { description?: string }): JsonSchema {
    return new JsonSchema(withDescription({ type: 'boolean' }, options));
  }

  static array(
    items: JsonSchema,
    options?: { description?: string; minItems?: number; maxItems?: number },
  ): JsonSchema {
    const defs: Record<string, unknown> = {};
    const json = withDescription({ type: 'array' }, options);
    json.items = hoist(items, defs);
    return new JsonSchema(withDefs(withOptions(json, options, ['minItems', 'maxItems']), defs));
  }

  /** A fixed set of strings and/or numbers; the type follows the values. */
  static enumOf(values: readonly (string | number)[], options?: Described): JsonSchema {
    if (values.length === 0) throw new AgentError('invalid_schema', '$.enum: must list at least one value');
    const json: JsonObjectSchema = {};
    const strings = values.every((value) => typeof value === 'string');
    const numbers = values.every((value) => typeof value === 'number');
    if (strings) json.type = 'string';
    else if (numbers) json.type = values.every((value) => Number.isInteger(value)) ? 'integer' : 'number';
    withDescription(json, options);
    json.enum = values.slice();
    return new JsonSchema(json);
  }

  static anyOf(options: JsonSchema[], description?: string): JsonSchema {
    return JsonSchema.composition('anyOf', options, description);
  }

  static oneOf(options: JsonSchema[], description?: string): JsonSchema {
    return JsonSchema.composition('oneOf', options, description);
  }

  private static composition(keyword: 'anyOf' | 'oneOf', options: JsonSchema[], description?: string): JsonSchema {
    if (options.length === 0) throw new AgentError('invalid_schema', `$.${keyword}: must list at least one schema`);
    const defs: Record<string, unknown> = {};
    const json: JsonObjectSchema = {};
    if (description !== undefined) json.description = description;
    json[keyword] = options.map((option) => hoist(option, defs));
    return new JsonSchema(withDefs(json, defs));
  }

  /** A reference to `#/$defs/<name>`; give the definition with withDefinitions on the root. */
  static ref(name: string): JsonSchema {
    return new JsonSchema({ $ref: `#/$defs/${escapePointerSegment(name)}` });
  }

  /** A closed object with no properties: the arguments of a parameterless tool. */
  static empty(): JsonSchema {
    return new JsonSchema({ type: 'object', properties: {}, additionalProperties: false });
  }

  withDefinitions(defs: Record<string, JsonSchema>): JsonSchema {
    const all: Record<string, unknown> = {};
    const json = hoist(this, all);
    for (const name of Object.keys(defs)) {
      const def = hoist(defs[name], all);
      if (hasOwn(all, name) && !deepEqual(all[name], def)) {
        throw new AgentError('invalid_schema', `$.$defs.${name}: defined twice with different schemas`);
      }
      all[name] = def;
    }
    return new JsonSchema(withDefs(json, all));
  }

  /** The same schema that also accepts null. */
  nullable(): JsonSchema {
    const json = deepCopy(this.json);
    const type = json.type;
    if (typeof type === 'string' || Array.isArray(type)) {
      const types = (Array.isArray(type) ? type : [type]).slice();
      if (types.indexOf('null') < 0) types.push('null');
      json.type = types;
      if (Array.isArray(json.enum) && json.enum.indexOf(null) < 0) json.enum = json.enum.concat([null]);
      if (hasOwn(json, 'const')) {
        json.enum = json.const === null ? [null] : [json.const, null];
        delete json.const;
      }
      return new JsonSchema(json);
    }
    if (Array.isArray(json.enum)) {
      if (json.enum.indexOf(null) < 0) json.enum = json.enum.concat([null]);
      return new JsonSchema(json);
    }
    const defs = isPlainObject(json.$defs) ? json.$defs : undefined;
    delete json.$defs;
    const description = json.description;
    delete json.description;
    const wrapped: JsonObjectSchema = {};
    if (description !== undefined) wrapped.description = description;
    wrapped.anyOf = [json, { type: 'null' }];
    if (defs) wrapped.$defs = defs;
    return new JsonSchema(wrapped);
  }

  described(description: string): JsonSchema {
    const json = deepCopy(this.json);
    json.description = description;
    return new JsonSchema(json);
  }

  // ---- reading existing schemas ---------------------------------------------------------

  /** Reads an existing schema object; throws AgentError('invalid_schema') naming the path when malformed. */
  static from(json: unknown): JsonSchema {
    if (json instanceof JsonSchema) return json;
    if (!isPlainObject(json)) {
      const got = json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json;
      throw new AgentError('invalid_schema', `$: must be a schema object; got ${got}`);
    }
    const schema = new JsonSchema(deepCopy(json));
    schema.analyzed();
    return schema;
  }

  /** JSON text → from(). */
  static parse(text: string): JsonSchema {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new AgentError(
        'invalid_schema',
        `$: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    return JsonSchema.from(json);
  }

  // ---- facts ----------------------------------------------------------------------------

  /** Ignored or unsupported keywords, e.g. `$.properties.x.format: ignored`. */
  get warnings(): string[] {
    return this.analyzed().warnings.slice();
  }

  /** An object schema without properties (a parameterless tool). */
  isEmptyObject(): boolean {
    const root = this.analyzed().root;
    const shape = objectShape(root, this.analyzed());
    return shape !== undefined && shape.properties.length === 0 && !root.anyOf && !root.oneOf;
  }

  /** Top-level property names in order; [] for non-object schemas. */
  propertyNames(): string[] {
    const shape = objectShape(this.analyzed().root, this.analyzed());
    return shape ? shape.properties.map(([name]) => name) : [];
  }

  // ---- values ---------------------------------------------------------------------------

  validate(value: unknown): Violation[] {
    const compiled = this.compiled();
    const tooDeep = tooDeepPath(value);
    if (tooDeep !== undefined)
      return [{ path: tooDeep, message: `is nested more than ${MAX_VALUE_DEPTH} levels deep` }];
    const errors = compiled.errors(value);
    if (errors.length === 0) return [];
    const analyzed = this.analyzed();
    const renderer = new SchemaRenderer(analyzed);
    const violations = toViolations(errors, value, {
      resolve: (ref) => analyzed.resolve(ref),
      words: (node) => renderer.words(node),
    });
    // ajv said no; make sure the caller always gets at least one reason.
    return violations.length > 0 ? violations : [{ path: '$', message: 'does not match the schema' }];
  }

  /** Safe fixes only; returns a new value and never mutates the input. */
  coerce(value: unknown): unknown {
    const compiled = this.compiled();
    const analyzed = this.analyzed();
    const coercer = new Coercer({
      resolve: (ref) => analyzed.resolve(ref),
      matches: (node, candidate) => compiled.matches(node, candidate),
    });
    return coercer.coerce(analyzed.root, value);
  }

  /** Object keys recursively in schema property order, unknown keys last. */
  order(value: unknown): unknown {
    const compiled = this.compiled();
    const analyzed = this.analyzed();
    return orderValue(analyzed.root, value, {
      resolve: (ref) => analyzed.resolve(ref),
      matches: (node, candidate) => compiled.matches(node, candidate),
    });
  }

  /** coerce → validate → order. */
  check(value: unknown): CheckResult {
    const coerced = this.coerce(value);
    const violations = this.validate(coerced);
    if (violations.length > 0) return { ok: false, violations, problem: formatViolations(violations) };
    return { ok: true, value: this.order(coerced) };
  }

  // ---- prompts --------------------------------------------------------------------------

  /** Compact text in words, e.g. `{ item: one of "ale", "stew"; quantity: integer 1-10 (how many) }`. */
  render(): string {
    // A schema never changes once built, and its words go into every prompt that lists it.
    if (this.renderedWords === undefined) {
      const analyzed = this.analyzed();
      this.renderedWords = new SchemaRenderer(analyzed).words(analyzed.root);
    }
    return this.renderedWords;
  }

  /**
   * One line per top-level property: `- "key" (optional): <type in words>, <description>`.
   * A schema that is not an object renders as render(); an object without properties as "".
   */
  renderFields(): string {
    if (this.renderedFields === undefined) this.renderedFields = this.renderFieldsNow();
    return this.renderedFields;
  }

  private renderFieldsNow(): string {
    const analyzed = this.analyzed();
    const shape = objectShape(analyzed.root, analyzed);
    const renderer = new SchemaRenderer(analyzed);
    if (!shape || analyzed.root.anyOf || analyzed.root.oneOf) return renderer.words(analyzed.root);
    return shape.properties
      .map(([name, prop]: [string, SchemaNode]) => {
        const optional = shape.required.indexOf(name) < 0 ? ' (optional)' : '';
        const note = noteOf(prop);
        return `- ${JSON.stringify(name)}${optional}: ${renderer.words(prop)}${note ? `, ${note}` : ''}`;
      })
      .join('\n');
  }

  toJSON(): JsonObjectSchema {
    return this.json;
  }

  private analyzed(): AnalyzedSchema {
    if (!this.analyzedCache) this.analyzedCache = analyzeSchema(this.json);
    return this.analyzedCache;
  }

  private compiled(): CompiledSchema {
    if (!this.compiledCache) this.compiledCache = new CompiledSchema(this.analyzed());
    return this.compiledCache;
  }
}
