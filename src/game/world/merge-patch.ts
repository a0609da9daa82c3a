/**
 * RFC 7386 JSON Merge Patch, computed without touching the input: `null` deletes a key,
 * objects merge key by key, anything else replaces. It also lists each effective change so
 * observers see exactly which keys moved.
 */
import { cloneJson, hasOwn, isJsonObject, jsonEquals, JsonObject, JsonValue } from './json-value';
import { setOwnKey } from '../../core/json';
import { WorldPath } from './world-path';

export interface ChangeDraft {
  path: WorldPath;
  oldValue?: JsonValue;
  newValue?: JsonValue;
}

/** The patched value (undefined when the patch removed it) and its changes, in order. */
export function applyMergePatch(
  target: JsonValue | undefined,
  patch: JsonValue,
  at: WorldPath,
): { merged: JsonValue | undefined; changes: ChangeDraft[] } {
  const changes: ChangeDraft[] = [];
  return { merged: mergeInto(target, patch, { at, changes }), changes };
}

/** Where a merge is: the path of the value, and the list its changes go to. */
interface MergeSpot {
  at: WorldPath;
  changes: ChangeDraft[];
}

function mergeInto(target: JsonValue | undefined, patch: JsonValue, spot: MergeSpot): JsonValue | undefined {
  const { at, changes } = spot;
  if (!isJsonObject(patch)) {
    if (!jsonEquals(target, patch)) changes.push(draft(at, target, patch));
    return patch;
  }
  if (!isJsonObject(target)) {
    // A non-object target becomes {} first (RFC 7386 §2); report the whole replacement once.
    const result = mergeInto({}, patch, { at, changes: [] }) as JsonObject;
    if (!jsonEquals(target, result)) changes.push(draft(at, target, result));
    return result;
  }
  const result: JsonObject = {};
  for (const key of Object.keys(target)) setOwnKey(result, key, target[key]);
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      if (hasOwn(result, key)) {
        changes.push(draft(at.child(key), result[key], undefined));
        delete result[key];
      }
      continue;
    }
    const merged = mergeInto(hasOwn(result, key) ? result[key] : undefined, value, { at: at.child(key), changes });
    setOwnKey(result, key, merged as JsonValue);
  }
  return result;
}

function draft(path: WorldPath, oldValue: JsonValue | undefined, newValue: JsonValue | undefined): ChangeDraft {
  const out: ChangeDraft = { path };
  if (oldValue !== undefined) out.oldValue = cloneJson(oldValue);
  if (newValue !== undefined) out.newValue = cloneJson(newValue);
  return out;
}
