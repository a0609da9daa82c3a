/**
 * Keeps a world-state read inside the tool output budget. A big object becomes a preview of
 * its keys, a big list keeps its leading items, and a note tells the model how to read more.
 */
import { isJsonObject, JsonObject, JsonValue } from './json-value';
import { setOwnKey } from '../../core/json';
import { WorldPath } from './world-path';

export const PREVIEW_TEXT_CHARS = 77;

/** Returns `value` if its compact JSON fits in `maxChars`, else a shortened stand-in that does. */
export function shortenForOutput(value: JsonValue, path: WorldPath, maxChars: number): JsonValue {
  const full = JSON.stringify(value);
  if (full.length <= maxChars) return value;
  if (Array.isArray(value)) return shortenList(value, path, maxChars);
  if (isJsonObject(value)) return shortenObject(value, path, maxChars);
  if (typeof value === 'string') {
    const suffix = `… (${value.length} characters in all)`;
    // Leave room for the quotes and escapes JSON adds.
    let keep = Math.max(0, maxChars - suffix.length - 2);
    while (keep > 0 && JSON.stringify(value.slice(0, keep) + suffix).length > maxChars) keep--;
    return value.slice(0, keep) + suffix;
  }
  return value; // numbers, booleans and null are always short
}

/** One-line stand-in for a nested value: `{object with N keys}`, `[list of N items]`, clipped text. */
export function previewOf(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return `[list of ${value.length} item${value.length === 1 ? '' : 's'}]`;
  if (isJsonObject(value)) {
    const keyCount = Object.keys(value).length;
    return `{object with ${keyCount} key${keyCount === 1 ? '' : 's'}}`;
  }
  if (typeof value === 'string' && value.length > PREVIEW_TEXT_CHARS)
    return `${value.slice(0, PREVIEW_TEXT_CHARS - 3)}...`;
  return value;
}

function shortenObject(value: JsonObject, path: WorldPath, maxChars: number): JsonObject {
  const keys = Object.keys(value);
  const example = keys.find((key) => typeof value[key] === 'object' && value[key] !== null) ?? keys[0];
  const readHint = `read a key such as "${path.child(example).toString()}" for its full value`;
  const build = (count: number): JsonObject => {
    const out: JsonObject = {};
    for (const key of keys.slice(0, count)) setOwnKey(out, key, previewOf(value[key]));
    const shown = count === keys.length ? `all ${keys.length} keys` : `${count} of ${keys.length} keys`;
    setOwnKey(out, '_note', `Shortened to fit (${shown} shown, nested values previewed); ${readHint}.`);
    return out;
  };
  const all = build(keys.length);
  if (JSON.stringify(all).length <= maxChars) return all;
  // Otherwise keep the leading keys that fit; the note stays even if it alone is over budget.
  let count = 0;
  while (count < keys.length && JSON.stringify(build(count + 1)).length <= maxChars) count++;
  return build(count);
}

function shortenList(value: JsonValue[], path: WorldPath, maxChars: number): JsonObject {
  const build = (count: number): JsonObject => {
    const note =
      count === 0
        ? `A list of ${value.length} items, too long to show; read ${path.child(0).toString()} for the first item.`
        : `Showing the first ${count} of ${value.length} items; read ${path.child(count).toString()} and on for the rest.`;
    return { items: value.slice(0, count), _note: note };
  };
  // Grow while the next item still fits (each try is small: outputs are capped at a few KB).
  let count = 0;
  while (count < value.length && JSON.stringify(build(count + 1)).length <= maxChars) count++;
  return build(count);
}
