/**
 * Small models often send `"45"` for a number or `"yes"` for a flag. Before a model's write
 * lands, its value is fitted to the type already stored, so a number stays a number and a
 * list is never overwritten by a stray word.
 */
import { describeKind, isJsonObject, JsonValue } from './json-value';

export type FitResult = { ok: true; value: unknown } | { ok: false; message: string };

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE_WORDS = ['true', 'yes', '1'];
const GROUPED_NUMBER = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const FALSE_WORDS = ['false', 'no', '0'];

/** Fits `value` (as a model sent it) to `stored` (undefined or null: a new key). `where` names the path in messages. */
export function fitToStored(stored: JsonValue | undefined, value: unknown, where: string): FitResult {
  if (stored === undefined || stored === null) return { ok: true, value: parseLiteral(value) };
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value)
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : describeKind(value as JsonValue);
  if (typeof stored === 'number') {
    const asNumber = toNumber(value);
    return asNumber === undefined
      ? { ok: false, message: `${where} holds a number; ${shown} is not a number. Send digits, like 45.` }
      : { ok: true, value: asNumber };
  }
  if (typeof stored === 'boolean') {
    const asBoolean = toBoolean(value);
    return asBoolean === undefined
      ? { ok: false, message: `${where} holds true/false; ${shown} is neither. Send true or false.` }
      : { ok: true, value: asBoolean };
  }
  if (typeof stored === 'string') {
    if (typeof value === 'string') return { ok: true, value: unquote(value) };
    if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
    return { ok: false, message: `${where} holds text; send a string, not ${describeKind(value as JsonValue)}.` };
  }
  const wantList = Array.isArray(stored);
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (wantList ? Array.isArray(parsed) : isJsonObject(parsed)) return { ok: true, value: parsed };
  const example = wantList ? 'a JSON list like ["sword", "shield"]' : 'a JSON object like {"key": "value"}';
  return { ok: false, message: `${where} holds ${wantList ? 'a list' : 'an object'}; send ${example} (got ${shown}).` };
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  // Thousands separators only where they are unambiguous ("1,234"); "4,5" might be 4.5 or 45.
  const trimmed = value.trim();
  if (trimmed.indexOf(',') >= 0 && !GROUPED_NUMBER.test(trimmed)) return undefined;
  const text = trimmed.replace(/,/g, '');
  if (!NUMBER_TEXT.test(text)) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = unquote(value).trim().toLowerCase();
  if (TRUE_WORDS.indexOf(word) >= 0) return true;
  if (FALSE_WORDS.indexOf(word) >= 0) return false;
  return undefined;
}

/** `"\"Gorm\""` → `Gorm`: models sometimes quote text that is already a string. */
function unquote(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length >= 2 && trimmed[0] === '"' && trimmed[trimmed.length - 1] === '"') {
    const parsed = parseJson(trimmed);
    return typeof parsed === 'string' ? parsed : trimmed.slice(1, -1);
  }
  if (trimmed.length >= 2 && trimmed[0] === "'" && trimmed[trimmed.length - 1] === "'") return trimmed.slice(1, -1);
  return text;
}

/** For a new key: strict JSON literals (`45`, `true`, `[1]`, `"x"`) are parsed; bare words stay text. */
function parseLiteral(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parsed = parseJson(value);
  return parsed === undefined ? value : parsed;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}
