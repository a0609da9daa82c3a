/**
 * The world state's JSON tree one slot at a time: reading the child at a path segment, checking
 * that a segment can be written in a list or object, writing it, and building the missing
 * branch of a new path. Errors name the full path and what would be valid there.
 */
import { hasOwn, isJsonObject, type JsonObject, type JsonValue } from './json-value';
import { indexOf, type PathSegment, type WorldPath } from './world-path';
import { WorldStateError } from './world-state-error';
import { setOwnKey } from '../../core/json';

/** A value that holds others: an object or a list. */
export type Container = JsonObject | JsonValue[];

export function childOf(node: JsonValue | undefined, segment: PathSegment): JsonValue | undefined {
  if (Array.isArray(node)) {
    const index = indexOf(segment);
    return index === undefined ? undefined : node[index];
  }
  if (isJsonObject(node)) {
    const key = String(segment);
    return hasOwn(node, key) ? node[key] : undefined;
  }
  return undefined;
}

/**
 * Throws unless the segment of `fullPath` after `nodePath` can be written in `node` (the value
 * at `nodePath`): a list needs an index from 0 to its length.
 */
export function checkSlot(node: Container, nodePath: WorldPath, fullPath: WorldPath): void {
  if (!Array.isArray(node)) return;
  const segment = fullPath.segments[nodePath.segments.length];
  const index = indexOf(segment);
  const name = nodePath.isRoot ? 'the root' : nodePath.toString();
  if (index === undefined) {
    throw new WorldStateError(
      fullPath.toString(),
      `${name} is a list; use an index like ${nodePath.child(0).toString()}, not "${segment}".`,
    );
  }
  if (index > node.length) {
    throw new WorldStateError(
      fullPath.toString(),
      `index ${index} is past the end of ${name} (${node.length} items); use 0..${Math.max(node.length - 1, 0)} to replace or ${node.length} to append.`,
    );
  }
}

export function putChild(node: Container, segment: PathSegment, value: JsonValue): void {
  if (Array.isArray(node)) node[indexOf(segment) as number] = value;
  else setOwnKey(node, String(segment), value);
}

/**
 * A new nested value for the missing tail of `fullPath` after `at`: `[n]` segments make lists
 * (only [0] is valid).
 */
export function buildBranch(value: JsonValue, at: WorldPath, fullPath: WorldPath): JsonValue {
  if (at.segments.length >= fullPath.segments.length) return value;
  const segment = fullPath.segments[at.segments.length];
  const inner = buildBranch(value, at.child(segment), fullPath);
  if (typeof segment === 'number') {
    if (segment !== 0) {
      throw new WorldStateError(
        fullPath.toString(),
        `${at.toString()} does not exist yet, so the only index it can take is [0] (got [${segment}]).`,
      );
    }
    return [inner];
  }
  const object: JsonObject = {};
  setOwnKey(object, segment, inner);
  return object;
}
