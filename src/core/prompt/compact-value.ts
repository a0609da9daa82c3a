/**
 * A lookup's value as a prompt writes it. A flat table of numbers (a menu's prices, a stat
 * block, an inventory's counts) reads as `ale 3, stew 5, bread 1, cider 4`: 5 Gemma tokens
 * fewer than its JSON for four entries, on every turn that reads it ahead. Anything else stays
 * JSON, which says exactly what the value is.
 */
const PLAIN_KEY = /^[A-Za-z_][\w-]*$/;

export function compactValue(value: unknown, json: string): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return json;
  const entries = Object.entries(value as Record<string, unknown>);
  const table =
    entries.length > 0 &&
    entries.every(([key, entry]) => PLAIN_KEY.test(key) && typeof entry === 'number' && Number.isFinite(entry));
  return table ? entries.map(([key, entry]) => `${key} ${String(entry)}`).join(', ') : json;
}
