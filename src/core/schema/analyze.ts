/**
 * Reads a raw JSON Schema: rejects malformed ones with an `invalid_schema` AgentError naming
 * the path, warns about keywords it ignores, and builds the normalised tree the validator,
 * coercer, orderer and renderer share.
 */
import { AgentError } from '../../contract/errors';
import {
  SchemaNode,
  TYPE_NAMES,
  TypeName,
  appendIndex,
  appendKey,
  deepCopy,
  escapePointerSegment,
  hasOwn,
  isPlainObject,
  refSegments,
  resolvePointer,
} from './schema-node';
import { childNodes, makeNullable } from './schema-children';

export const MAX_SCHEMA_DEPTH = 32;
export const MAX_REF_HOPS = 16;

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

/** Keywords read `$.x-order`, `$.$ref`; odd ones are quoted like property names. */
function appendKeyword(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? `${path}.${key}` : appendKey(path, key);
}

function invalid(path: string, reason: string): AgentError {
  return new AgentError('invalid_schema', `${path}: ${reason}`);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 30 ? value.slice(0, 30) + '…' : value);
  return String(value);
}

class Analyzer {
  readonly warnings: string[] = [];

  node(raw: unknown, path: string, depth: number): SchemaNode {
    if (!isPlainObject(raw)) throw invalid(path, `must be a schema object; got ${describeValue(raw)}`);
    if (depth > MAX_SCHEMA_DEPTH) throw invalid(path, `is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const out: SchemaNode = {};
    let nullable = false;
    let xOrder: string[] | undefined;
    for (const key of Object.keys(raw)) {
      const value = raw[key];
      const at = appendKeyword(path, key);
      switch (key) {
        case 'type':
          out.type = this.type(value, at);
          break;
        case 'nullable':
          if (typeof value !== 'boolean') throw invalid(at, `must be true or false; got ${describeValue(value)}`);
          nullable = value;
          break;
        case 'properties':
          out.properties = this.schemaMap(value, at, depth);
          break;
        case 'required':
          out.required = this.required(value, at);
          break;
        case 'additionalProperties':
          if (typeof value === 'boolean') out.additionalProperties = value;
          else if (isPlainObject(value)) out.additionalProperties = this.node(value, at, depth + 1);
          else throw invalid(at, `must be true, false or a schema object; got ${describeValue(value)}`);
          break;
        case 'enum':
          if (!Array.isArray(value)) throw invalid(at, `must be an array of values; got ${describeValue(value)}`);
          if (value.length === 0) throw invalid(at, 'must list at least one value');
          out.enum = deepCopy(value);
          break;
        case 'const':
          out.const = deepCopy(value);
          break;
        case 'pattern':
          if (typeof value !== 'string') throw invalid(at, `must be a string; got ${describeValue(value)}`);
          try {
            new RegExp(value, 'u');
          } catch {
            throw invalid(at, `is not a valid regular expression: ${JSON.stringify(value)}`);
          }
          out.pattern = value;
          break;
        case 'minLength':
        case 'maxLength':
        case 'minItems':
        case 'maxItems':
          if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
            throw invalid(at, `must be a non-negative integer; got ${describeValue(value)}`);
          }
          out[key] = value;
          break;
        case 'minimum':
        case 'maximum':
          if (typeof value !== 'number' || !isFinite(value))
            throw invalid(at, `must be a number; got ${describeValue(value)}`);
          out[key] = value;
          break;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          // Draft 4 / OpenAPI 3.0 write these as booleans beside minimum/maximum; resolved below.
          if (typeof value === 'boolean') break;
          if (typeof value !== 'number' || !isFinite(value))
            throw invalid(at, `must be a number; got ${describeValue(value)}`);
          out[key] = value;
          break;
        case 'items':
          if (Array.isArray(value))
            throw invalid(at, 'tuple items (an array of schemas) are not supported; use one schema for all items');
          out.items = this.node(value, at, depth + 1);
          break;
        case 'anyOf':
        case 'oneOf':
        case 'allOf':
          out[key] = this.schemaList(value, at, depth);
          break;
        case '$ref':
          if (typeof value !== 'string') throw invalid(at, `must be a string; got ${describeValue(value)}`);
          if (value.charAt(0) !== '#')
            throw invalid(at, `only local references ("#…") are supported; got ${JSON.stringify(value)}`);
          out.$ref = value;
          break;
        case '$defs':
        case 'definitions':
          out[key] = this.schemaMap(value, at, depth);
          break;
        case 'x-order':
          if (Array.isArray(value) && value.every((name) => typeof name === 'string')) xOrder = value as string[];
          else if (typeof value !== 'number' || !isFinite(value)) {
            throw invalid(at, `must be a list of property names or a number; got ${describeValue(value)}`);
          }
          break;
        case 'title':
        case 'description':
          if (typeof value !== 'string') throw invalid(at, `must be a string; got ${describeValue(value)}`);
          out[key] = value;
          break;
        case 'default':
        case 'examples':
          out[key] = deepCopy(value);
          break;
        default:
          if (SILENT_KEYWORDS.indexOf(key) < 0) this.warnings.push(`${at}: ignored`);
      }
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
    if (out.properties) out.properties = this.ordered({ properties: out.properties, raw, xOrder, path });
    if (nullable) makeNullable(out);
    return out;
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

/** Reads and checks a raw schema; throws AgentError('invalid_schema') naming the path. */
export function analyzeSchema(raw: unknown): AnalyzedSchema {
  const analyzer = new Analyzer();
  const root = analyzer.node(raw, '$', 0);
  const pointers = new Map<SchemaNode, string>();
  const paths = new Map<SchemaNode, string>();
  const refNodes: SchemaNode[] = [];
  const walk = (node: SchemaNode, pointer: string, path: string): void => {
    pointers.set(node, pointer);
    paths.set(node, path);
    if (node.$ref !== undefined) refNodes.push(node);
    for (const child of childNodes(node)) {
      const [key, rest] = child.segments;
      const keyPath = appendKey(path, key);
      const childPath =
        rest === undefined
          ? keyPath
          : key === 'anyOf' || key === 'oneOf' || key === 'allOf'
            ? appendIndex(keyPath, Number(rest))
            : appendKey(keyPath, rest);
      walk(child.node, pointer + '/' + child.segments.map(escapePointerSegment).join('/'), childPath);
    }
  };
  walk(root, '', '$');

  const targets = new Map<string, SchemaNode>();
  const resolveAt = (ref: string, path: string): SchemaNode => {
    const known = targets.get(ref);
    if (known) return known;
    const segments = refSegments(ref);
    const target = segments ? resolvePointer(root, segments) : undefined;
    if (!isPlainObject(target) || !pointers.has(target as SchemaNode)) {
      throw invalid(appendKey(path, '$ref'), `points at nothing: ${JSON.stringify(ref)}`);
    }
    targets.set(ref, target as SchemaNode);
    return target as SchemaNode;
  };
  for (const node of refNodes) resolveAt(node.$ref as string, paths.get(node) as string);

  // A chain of references that never reaches a real schema, or a schema that contains itself
  // without descending into a property or item, would recurse forever: reject both.
  const state = new Map<SchemaNode, 1 | 2>();
  const sameValueEdges = (node: SchemaNode): SchemaNode[] => {
    const out: SchemaNode[] = [];
    if (node.$ref !== undefined) out.push(targets.get(node.$ref) as SchemaNode);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (node[key]) out.push(...(node[key] as SchemaNode[]));
    return out;
  };
  const visit = (node: SchemaNode): void => {
    state.set(node, 1);
    for (const next of sameValueEdges(node)) {
      const seen = state.get(next);
      if (seen === 1)
        throw invalid(paths.get(node) as string, '$ref cycle: the schema refers to itself without nesting');
      if (seen === undefined) visit(next);
    }
    state.set(node, 2);
  };
  pointers.forEach((_p, node) => {
    if (!state.has(node)) visit(node);
  });

  for (const node of refNodes) {
    let hops = 0;
    let current: SchemaNode = node;
    while (current.$ref !== undefined) {
      hops++;
      if (hops > MAX_REF_HOPS)
        throw invalid(appendKey(paths.get(node) as string, '$ref'), `more than ${MAX_REF_HOPS} $ref hops`);
      current = targets.get(current.$ref) as SchemaNode;
    }
  }
  return {
    root,
    warnings: analyzer.warnings,
    pointers,
    resolve(ref: string): SchemaNode {
      return targets.get(ref) ?? resolveAt(ref, '$');
    },
  };
}
