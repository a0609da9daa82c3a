/**
 * Reads a raw JSON Schema: rejects malformed ones with an `invalid_schema` AgentError naming
 * the path (schema-problems.ts), warns about keywords it ignores, and builds the normalised tree
 * the validator, coercer, orderer and renderer share; its references are checked in schema-refs.ts.
 */
import {
  SchemaNode,
  TYPE_NAMES,
  TypeName,
  appendIndex,
  appendKey,
  deepCopy,
  hasOwn,
  isPlainObject,
} from './schema-node';
import { makeNullable } from './schema-children';
import { appendKeyword, describeValue, invalid } from './schema-problems';
import { checkReferences } from './schema-refs';

export const MAX_SCHEMA_DEPTH = 32;
export { MAX_REF_HOPS } from './schema-refs';

export interface AnalyzedSchema {
  root: SchemaNode;
  warnings: string[];
  /** JSON pointer (without "#") of every node of the normalised tree. */
  pointers: Map<SchemaNode, string>;
  /** The node a local `$ref` points at (checked during analysis). */
  resolve(ref: string): SchemaNode;
}

/** Shown to the model or metadata; accepted without a warning and not enforced. */
const SILENT_KEYWORDS = ['title', 'description', 'default', 'examples', '$schema', '$id', '$comment', 'x-order'];

/** One keyword of a schema object being read: its value, where it sits, how deep its schema is. */
interface Keyword {
  key: string;
  value: unknown;
  at: string;
  depth: number;
}

/** What a schema object says about itself rather than its value, applied once all its keywords are read. */
interface NodeFlags {
  nullable: boolean;
  xOrder?: string[];
}

function nonNegativeInteger({ value, at }: Keyword): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(at, `must be a non-negative integer; got ${describeValue(value)}`);
  }
  return value;
}

function finiteNumber({ value, at }: Keyword): number {
  if (typeof value !== 'number' || !isFinite(value)) throw invalid(at, `must be a number; got ${describeValue(value)}`);
  return value;
}

function stringValue({ value, at }: Keyword): string {
  if (typeof value !== 'string') throw invalid(at, `must be a string; got ${describeValue(value)}`);
  return value;
}

class Analyzer {
  readonly warnings: string[] = [];

  node(raw: unknown, path: string, depth: number): SchemaNode {
    if (!isPlainObject(raw)) throw invalid(path, `must be a schema object; got ${describeValue(raw)}`);
    if (depth > MAX_SCHEMA_DEPTH) throw invalid(path, `is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const out: SchemaNode = {};
    const flags: NodeFlags = { nullable: false };
    // Keywords are read in the schema's own order, so the normalised node keeps that order.
    for (const key of Object.keys(raw)) {
      const keyword: Keyword = { key, value: raw[key], at: appendKeyword(path, key), depth };
      const read =
        this.typeKeyword(out, keyword, flags) ||
        this.objectKeyword(out, keyword) ||
        this.arrayKeyword(out, keyword) ||
        stringKeyword(out, keyword) ||
        numberKeyword(out, keyword) ||
        valueKeyword(out, keyword) ||
        this.compositionKeyword(out, keyword) ||
        annotationKeyword(out, keyword, flags);
      if (!read && SILENT_KEYWORDS.indexOf(key) < 0) this.warnings.push(`${keyword.at}: ignored`);
    }
    this.exclusiveBounds(raw, out, path);
    this.checkRanges(out, path);
    if (out.required) {
      for (const name of out.required) {
        if (!out.properties || !hasOwn(out.properties, name)) {
          this.warnings.push(`${appendKey(path, 'required')}: ${JSON.stringify(name)} is not a property`);
        }
      }
    }
    if (out.properties) out.properties = this.ordered({ properties: out.properties, raw, xOrder: flags.xOrder, path });
    if (flags.nullable) makeNullable(out);
    return out;
  }

  /** `type` and `nullable`: which JSON types the value may have. */
  private typeKeyword(out: SchemaNode, keyword: Keyword, flags: NodeFlags): boolean {
    const { key, value, at } = keyword;
    if (key === 'type') out.type = this.type(value, at);
    else if (key === 'nullable') {
      if (typeof value !== 'boolean') throw invalid(at, `must be true or false; got ${describeValue(value)}`);
      flags.nullable = value;
    } else return false;
    return true;
  }

  /** `properties`, `required`, `additionalProperties`. */
  private objectKeyword(out: SchemaNode, keyword: Keyword): boolean {
    const { key, value, at, depth } = keyword;
    switch (key) {
      case 'properties':
        out.properties = this.schemaMap(value, at, depth);
        return true;
      case 'required':
        out.required = this.required(value, at);
        return true;
      case 'additionalProperties':
        if (typeof value === 'boolean') out.additionalProperties = value;
        else if (isPlainObject(value)) out.additionalProperties = this.node(value, at, depth + 1);
        else throw invalid(at, `must be true, false or a schema object; got ${describeValue(value)}`);
        return true;
      default:
        return false;
    }
  }

  /** `items`, `minItems`, `maxItems`. */
  private arrayKeyword(out: SchemaNode, keyword: Keyword): boolean {
    const { key, value, at, depth } = keyword;
    if (key === 'items') {
      if (Array.isArray(value))
        throw invalid(at, 'tuple items (an array of schemas) are not supported; use one schema for all items');
      out.items = this.node(value, at, depth + 1);
    } else if (key === 'minItems' || key === 'maxItems') out[key] = nonNegativeInteger(keyword);
    else return false;
    return true;
  }

  /** `anyOf`, `oneOf`, `allOf`, and the references: `$ref`, `$defs`, `definitions`. */
  private compositionKeyword(out: SchemaNode, keyword: Keyword): boolean {
    const { key, value, at, depth } = keyword;
    switch (key) {
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        out[key] = this.schemaList(value, at, depth);
        return true;
      case '$ref':
        if (typeof value !== 'string') throw invalid(at, `must be a string; got ${describeValue(value)}`);
        if (value.charAt(0) !== '#')
          throw invalid(at, `only local references ("#…") are supported; got ${JSON.stringify(value)}`);
        out.$ref = value;
        return true;
      case '$defs':
      case 'definitions':
        out[key] = this.schemaMap(value, at, depth);
        return true;
      default:
        return false;
    }
  }

  private type(value: unknown, at: string): TypeName | TypeName[] {
    const names = Array.isArray(value) ? value : [value];
    if (names.length === 0) throw invalid(at, 'must name at least one type');
    const seen: TypeName[] = [];
    for (const name of names) {
      if (typeof name !== 'string' || TYPE_NAMES.indexOf(name as TypeName) < 0) {
        throw invalid(
          at,
          `unknown type ${describeValue(name)}; use one of ${TYPE_NAMES.map((typeName) => `"${typeName}"`).join(', ')}`,
        );
      }
      if (seen.indexOf(name as TypeName) >= 0) throw invalid(at, `names type "${name}" twice`);
      seen.push(name as TypeName);
    }
    return Array.isArray(value) ? seen : seen[0];
  }

  private schemaMap(value: unknown, at: string, depth: number): Record<string, SchemaNode> {
    if (!isPlainObject(value)) throw invalid(at, `must be an object of schemas; got ${describeValue(value)}`);
    const out: Record<string, SchemaNode> = {};
    for (const name of Object.keys(value)) {
      // As a plain key it would set the map's prototype and vanish, and its value would go unchecked.
      if (name === '__proto__') throw invalid(appendKey(at, name), 'is not a name a property may have');
      out[name] = this.node(value[name], appendKey(at, name), depth + 1);
    }
    return out;
  }

  private schemaList(value: unknown, at: string, depth: number): SchemaNode[] {
    if (!Array.isArray(value)) throw invalid(at, `must be an array of schemas; got ${describeValue(value)}`);
    if (value.length === 0) throw invalid(at, 'must list at least one schema');
    return value.map((item, index) => this.node(item, appendIndex(at, index), depth + 1));
  }

  private required(value: unknown, at: string): string[] {
    if (!Array.isArray(value)) throw invalid(at, `must be an array of property names; got ${describeValue(value)}`);
    const out: string[] = [];
    value.forEach((name, index) => {
      if (typeof name !== 'string')
        throw invalid(appendIndex(at, index), `must be a property name; got ${describeValue(name)}`);
      if (out.indexOf(name) < 0) out.push(name);
    });
    return out;
  }

  /** The older boolean form, `exclusiveMinimum: true` beside `minimum`, as the number form. */
  private exclusiveBounds(raw: Record<string, unknown>, out: SchemaNode, path: string): void {
    const pairs = [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const;
    for (const [key, bound] of pairs) {
      if (raw[key] !== true) continue;
      if (out[bound] === undefined) throw invalid(appendKeyword(path, key), `true needs a "${bound}" beside it`);
      out[key] = out[bound];
      delete out[bound];
    }
  }

  private checkRanges(out: SchemaNode, path: string): void {
    const pairs: [keyof SchemaNode, keyof SchemaNode][] = [
      ['minLength', 'maxLength'],
      ['minItems', 'maxItems'],
      ['minimum', 'maximum'],
    ];
    for (const [lo, hi] of pairs) {
      const low = out[lo] as number | undefined;
      const high = out[hi] as number | undefined;
      if (low !== undefined && high !== undefined && low > high)
        throw invalid(appendKeyword(path, lo), `${low} is greater than ${hi} ${high}`);
    }
  }

  /** Properties in x-order: an object-level list of names first, else per-property numbers. */
  private ordered({
    properties,
    raw,
    xOrder,
    path,
  }: {
    properties: Record<string, SchemaNode>;
    raw: Record<string, unknown>;
    xOrder: string[] | undefined;
    path: string;
  }): Record<string, SchemaNode> {
    const names = Object.keys(properties);
    let order: string[];
    if (xOrder) {
      for (const name of xOrder) {
        if (names.indexOf(name) < 0)
          this.warnings.push(`${appendKeyword(path, 'x-order')}: ${JSON.stringify(name)} is not a property`);
      }
      const listed = xOrder.filter((name, index) => names.indexOf(name) >= 0 && xOrder.indexOf(name) === index);
      order = listed.concat(names.filter((name) => listed.indexOf(name) < 0));
    } else {
      const rawProps = raw.properties as Record<string, unknown>;
      const rank = (name: string): number => {
        const declared = (rawProps[name] as Record<string, unknown>)['x-order'];
        return typeof declared === 'number' ? declared : Infinity;
      };
      order = names
        .map((name, index) => ({ name, index, rank: rank(name) }))
        .sort((left, right) => (left.rank === right.rank ? left.index - right.index : left.rank < right.rank ? -1 : 1))
        .map((entry) => entry.name);
    }
    const out: Record<string, SchemaNode> = {};
    for (const name of order) out[name] = properties[name];
    return out;
  }
}

/** `pattern`, `minLength`, `maxLength`. */
function stringKeyword(out: SchemaNode, keyword: Keyword): boolean {
  const { key, value, at } = keyword;
  if (key === 'pattern') {
    const pattern = stringValue(keyword);
    try {
      new RegExp(pattern, 'u');
    } catch {
      throw invalid(at, `is not a valid regular expression: ${JSON.stringify(value)}`);
    }
    out.pattern = pattern;
  } else if (key === 'minLength' || key === 'maxLength') out[key] = nonNegativeInteger(keyword);
  else return false;
  return true;
}

/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`. */
function numberKeyword(out: SchemaNode, keyword: Keyword): boolean {
  const { key, value } = keyword;
  if (key === 'minimum' || key === 'maximum') out[key] = finiteNumber(keyword);
  else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
    // Draft 4 / OpenAPI 3.0 write these as booleans beside minimum/maximum; resolved by exclusiveBounds.
    if (typeof value !== 'boolean') out[key] = finiteNumber(keyword);
  } else return false;
  return true;
}

/** `enum`, `const`: the values allowed. */
function valueKeyword(out: SchemaNode, { key, value, at }: Keyword): boolean {
  if (key === 'enum') {
    if (!Array.isArray(value)) throw invalid(at, `must be an array of values; got ${describeValue(value)}`);
    if (value.length === 0) throw invalid(at, 'must list at least one value');
    out.enum = deepCopy(value);
  } else if (key === 'const') out.const = deepCopy(value);
  else return false;
  return true;
}

/** What the model is shown or the schema's reader keeps: `title`, `description`, `default`, `examples`, `x-order`. */
function annotationKeyword(out: SchemaNode, keyword: Keyword, flags: NodeFlags): boolean {
  const { key, value, at } = keyword;
  switch (key) {
    case 'x-order':
      if (Array.isArray(value) && value.every((name) => typeof name === 'string')) flags.xOrder = value as string[];
      else if (typeof value !== 'number' || !isFinite(value)) {
        throw invalid(at, `must be a list of property names or a number; got ${describeValue(value)}`);
      }
      return true;
    case 'title':
    case 'description':
      out[key] = stringValue(keyword);
      return true;
    case 'default':
    case 'examples':
      out[key] = deepCopy(value);
      return true;
    default:
      return false;
  }
}

/** Reads and checks a raw schema; throws AgentError('invalid_schema') naming the path. */
export function analyzeSchema(raw: unknown): AnalyzedSchema {
  const analyzer = new Analyzer();
  const root = analyzer.node(raw, '$', 0);
  const { pointers, resolve } = checkReferences(root);
  return { root, warnings: analyzer.warnings, pointers, resolve };
}
