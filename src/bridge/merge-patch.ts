/**
 * RFC 7386 JSON Merge Patch on plain JSON (npc/update's persona and options patches). A
 * `__proto__` key is written as an own member (setOwnKey), never as the result's prototype.
 */
import { setOwnKey } from '../core/json';
import { isRecord } from './params';

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete result[key];
    else
      setOwnKey(
        result,
        key,
        mergePatch(Object.prototype.hasOwnProperty.call(result, key) ? result[key] : undefined, value),
      );
  }
  return result;
}
