/**
 * Plain JSON values: checking that a value is storable, copying and comparing. The world
 * state never keeps a caller's object, only its own copy, so outside mutation cannot leak in.
 */
import { WorldPath, PathSegment, MAX_PATH_SEGMENTS } from './world-path';
import { WorldStateError } from './world-state-error';
import { setOwnKey } from '../../core/json';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Object literals and JSON.parse results, from any realm; class instances, Dates and Maps are not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * Checks that `value` is JSON and returns a private deep copy. `at` is where it will be
 * stored, so the error names the exact place of the bad part (`player.stats.hp`).
 */
export function toJsonCopy(value: unknown, at: WorldPath): JsonValue {
  return copyChecked(value, at.segments.slice(), []);
}

/** The deepest nesting a stored value may have: deeper values would break JSON.stringify of the world and every later prompt. */
export const MAX_VALUE_DEPTH = 64;

function copyChecked(value: unknown, trail: PathSegment[], ancestors: object[]): JsonValue {
  const fail = (why: string): never => {
    // The place, shortened to what a path may hold (a value may nest below a long path).
    const place =
      WorldPath.of(trail.slice(0, MAX_PATH_SEGMENTS)).toString() + (trail.length > MAX_PATH_SEGMENTS ? '…' : '');
    throw new WorldStateError(
      place,
      `${why} Only JSON values can be stored (text, numbers, true/false, null, lists, plain objects).`,
    );
  };
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) fail(`${value} is not a JSON number.`);
      return value === 0 ? 0 : value; // -0 becomes 0, as JSON would write it
    case 'undefined':
      return fail('the value is undefined; use null for "no value", or remove() the path.');
    case 'function':
      return fail('a function is not a JSON value.');
    case 'bigint':
      return fail('a bigint is not a JSON number; convert it with Number() or String().');
    case 'symbol':
      return fail('a symbol is not a JSON value.');
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.indexOf(object) >= 0) fail('the value contains a cycle (an object inside itself).');
  if (ancestors.length >= MAX_VALUE_DEPTH)
    fail(`the value is nested more than ${MAX_VALUE_DEPTH} levels deep; flatten it.`);
  if (Array.isArray(object)) {
    ancestors.push(object);
    const out: JsonValue[] = [];
    for (let index = 0; index < object.length; index++) {
      trail.push(index);
      if (!(index in object)) fail('the list has a hole (a missing item).');
      out.push(copyChecked(object[index], trail, ancestors));
      trail.pop();
    }
    ancestors.pop();
    return out;
  }
  if (!isPlainObject(object)) {
    const name = (object as { constructor?: { name?: string } }).constructor?.name || 'non-plain';
    fail(`a ${name} object is not plain JSON; convert it to a plain object first.`);
  }
  ancestors.push(object);
  const out: JsonObject = {};
  for (const key of Object.keys(object)) {
    trail.push(key);
    setOwnKey(out, key, copyChecked((object as Record<string, unknown>)[key], trail, ancestors));
    trail.pop();
  }
  ancestors.pop();
  return out;
}

/** A deep copy of an already-checked value. */
export function cloneJson<T extends JsonValue | undefined>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setOwnKey(out, key, cloneJson((value as JsonObject)[key]));
  return out as T;
}

/** Structural equality; object key order does not matter. */
export function jsonEquals(left: JsonValue | undefined, right: JsonValue | undefined): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) if (!jsonEquals(left[index], right[index])) return false;
    return true;
  }
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!hasOwn(right, key) || !jsonEquals(left[key], right[key])) return false;
  }
  return true;
}

/** Freezes a private copy handed to several listeners, so none can change what the others see. */
export function deepFreeze<T extends JsonValue | undefined>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Array.isArray(value) ? value : Object.keys(value).map((key) => (value as JsonObject)[key]))
      deepFreeze(item);
  }
  return value;
}

/** The kind of a JSON value in words, for messages. */
export function describeKind(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    default:
      return 'true/false';
  }
}
