/**
 * The compact world summary that goes into prompts: `path: value` lines, objects flattened
 * a few levels deep, text unquoted, long values clipped, and a cap on the line count.
 */
import { isJsonObject, JsonValue } from './json-value';
import { WorldPath } from './world-path';
import { WorldStateError } from './world-state-error';

export const SUMMARY_MAX_DEPTH = 4;
export const SUMMARY_MAX_VALUE_CHARS = 200;

export function summarizeWorld(
  lookup: (path: WorldPath) => JsonValue | undefined,
  paths: readonly string[],
  maxLines = 30,
): string {
  if (!Array.isArray(paths)) throw new WorldStateError('', 'summary needs a list of paths.');
  if (!Number.isInteger(maxLines) || maxLines < 1) {
    throw new WorldStateError('', `summary's maxLines must be a whole number ≥ 1 (got ${maxLines}).`);
  }
  const lines: string[] = [];
  const seen = new Set<string>();
  const add = (line: string): void => {
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  };
  for (const raw of paths) {
    const path = WorldPath.parse(raw);
    const value = lookup(path);
    if (value === undefined) add(`${path.toString()}: (not set)`);
    else for (const line of flatten(value, path, 0)) add(line);
  }
  if (lines.length <= maxLines) return lines.join('\n');
  const kept = lines.slice(0, maxLines - 1);
  kept.push(`(${lines.length - kept.length} more not shown)`);
  return kept.join('\n');
}

/** The `path: value` lines of a value, objects flattened `depth` levels down from where it started. */
function flatten(value: JsonValue, path: WorldPath, depth: number): string[] {
  if (isJsonObject(value) && depth < SUMMARY_MAX_DEPTH) {
    const keys = Object.keys(value);
    if (keys.length > 0 || path.isRoot) {
      const lines: string[] = [];
      for (const key of keys) lines.push(...flatten(value[key], path.child(key), depth + 1));
      return lines;
    }
  }
  return [`${path.toString()}: ${renderValue(value)}`];
}

/** Text as is (one line), everything else as compact JSON, clipped. */
export function renderValue(value: JsonValue): string {
  const text = typeof value === 'string' ? value.replace(/\s*[\r\n]+\s*/g, ' ') : JSON.stringify(value);
  return clip(text, SUMMARY_MAX_VALUE_CHARS);
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
