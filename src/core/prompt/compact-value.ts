/**
 * A lookup's value as a prompt writes it. A flat table of numbers (a menu's prices, a stat
 * block, an inventory's counts) reads as `ale 3, stew 5, bread 1, cider 4`: 5 Gemma tokens
 * fewer than its JSON for four entries, on every turn that reads it ahead. Anything else stays
 * JSON, which says exactly what the value is.
 */
import { setOwnKey } from '../json';

const PLAIN_KEY = /^[A-Za-z_][\w-]*$/;

export function compactValue(value: unknown, json: string): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return json;
  const entries = Object.entries(value as Record<string, unknown>);
  const table =
    entries.length > 0 &&
    entries.every(([key, entry]) => PLAIN_KEY.test(key) && typeof entry === 'number' && Number.isFinite(entry));
  return table ? entries.map(([key, entry]) => `${key} ${String(entry)}`).join(', ') : json;
}

const TABLE_ENTRY = /^([A-Za-z_][\w-]*) (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/i;

/** The table compactValue wrote (`ale 3, stew 5`) as its value again; undefined for any other text. */
export function readCompactTable(text: string): Record<string, number> | undefined {
  const pairs = text.split(', ').map((pair) => TABLE_ENTRY.exec(pair));
  if (pairs.some((pair) => pair === null)) return undefined;
  const table: Record<string, number> = {};
  for (const pair of pairs as RegExpExecArray[]) setOwnKey(table, pair[1], Number(pair[2]));
  return table;
}
