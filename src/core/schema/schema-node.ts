/**
 * The normalised schema tree every part of this module works on: only supported keywords,
 * OpenAPI `nullable` folded into `type`/`enum`/`anyOf`, draft-4 boolean exclusive bounds turned
 * into numbers, properties already in their final (x-order) order.
 */
import { isPlainObject } from '../json/extract';
import { setOwnKey } from '../json/own-key';

export type TypeName = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export const TYPE_NAMES: readonly TypeName[] = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];

export interface SchemaNode {
  type?: TypeName | TypeName[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: SchemaNode;
  minItems?: number;
  maxItems?: number;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
  $id?: string;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown;
}

export { isPlainObject };

export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The JSON type of a value as a schema would name it (integral numbers are "integer"). */
export function jsonTypeOf(value: unknown): TypeName | 'undefined' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    case 'undefined':
      return 'undefined';
    default:
      return 'other';
  }
}

/** The types a node declares, or inferred from enum/const/keywords; undefined when anything goes. */
export function declaredTypes(node: SchemaNode): TypeName[] | undefined {
  if (node.type !== undefined) return Array.isArray(node.type) ? node.type : [node.type];
  const values = node.enum ?? (hasOwn(node, 'const') ? [node.const] : undefined);
  if (values) {
    const types: TypeName[] = [];
    for (const value of values) {
      const type = jsonTypeOf(value);
      if (type === 'undefined' || type === 'other') continue;
      if (types.indexOf(type) < 0) types.push(type);
    }
    return types;
  }
  if (node.properties || node.required || node.additionalProperties !== undefined) return ['object'];
  if (node.items || node.minItems !== undefined || node.maxItems !== undefined) return ['array'];
  return undefined;
}

/** Whether a value of the given JSON type satisfies a type list. */
export function typeAccepts(types: readonly TypeName[], valueType: string): boolean {
  if (types.indexOf(valueType as TypeName) >= 0) return true;
  return valueType === 'integer' && types.indexOf('number') >= 0;
}

/** Decodes a local `$ref` ("#", "#/$defs/x", "#/properties/a~1b") into pointer segments. */
export function refSegments(ref: string): string[] | undefined {
  if (ref.charAt(0) !== '#') return undefined;
  let fragment = ref.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (fragment === '') return [];
  if (fragment.charAt(0) !== '/') return undefined;
  return fragment
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function resolvePointer(root: unknown, segments: readonly string[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isPlainObject(current) && hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `$.a.b`, `$["odd key"]`, `$[2]`: the path style of warnings, errors and violations. */
export function appendKey(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function appendIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}

/** Lower case without whitespace, "_" or "-": how keys and enum values are matched loosely. */
export function looseKey(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) if (!deepEqual(left[index], right[index])) return false;
    return true;
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const ka = Object.keys(left);
    if (ka.length !== Object.keys(right).length) return false;
    for (const key of ka) if (!hasOwn(right, key) || !deepEqual(left[key], right[key])) return false;
    return true;
  }
  return false;
}

/** A JSON-safe deep copy (the schema and values are plain JSON). */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => deepCopy(item)) as unknown as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwnKey(out, key, deepCopy(value[key]));
    return out as T;
  }
  return value;
}
