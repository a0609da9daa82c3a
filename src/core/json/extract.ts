/**
 * Finds the JSON inside a model's answer: Markdown fences and prose around it are skipped and
 * the first candidate that really starts JSON wins. When that candidate never closes (the
 * token limit cut it off), it is read in partial mode: the outer, truncated object is the
 * answer, never a complete object nested inside it.
 */
import { parseLenient } from './lenient';
import { findBalancedEnd } from './scan';

export interface ExtractedJson {
  value: unknown;
  /** False when the value was read from text that ended before the JSON closed. */
  complete: boolean;
  /** Offsets of the JSON text inside the input (end is exclusive). */
  start: number;
  end: number;
}

/** How many opening brackets are tried before giving up, so garbage costs linear time. */
const MAX_CANDIDATES = 24;

/**
 * An array whose first element is a bare word (`[the answer]`, `[note]`) is prose, not JSON;
 * only arrays that start like JSON are taken.
 */
const JSON_LIKE_ARRAY = /^\[\s*(?:[[{"'\]+\-.\d]|true\b|false\b|null\b)/i;

/**
 * How an unclosed object must start to be read as truncated JSON: a quoted key, a bare key
 * followed by `:`/`=`, a comment, a closing brace or nothing yet. `{ to begin: {"a": 1}` in
 * prose is not such a start, so the complete object after it is still found.
 */
const JSON_LIKE_OBJECT_START = /^\{\s*(?:["'`}]|\/[/*]|[A-Za-z_$][\w$-]*\s*(?:[:=]|$)|$)/;

export function extractJson(text: string): ExtractedJson | undefined {
  const source = String(text);
  const fence = fencedRegion(source);
  if (fence) {
    const found = findFirst(source, fence.start, fence.end);
    if (found) return found;
  }
  return findFirst(source, 0, source.length) ?? readScalar(source);
}

/**
 * True as soon as the first top-level JSON object in the text has closed (and parses), so a
 * stream can be stopped early. Braces inside strings and comments do not count.
 */
export function hasCompleteObject(text: string): boolean {
  const source = String(text);
  let from = 0;
  for (let tries = 0; tries < MAX_CANDIDATES; tries++) {
    const start = source.indexOf('{', from);
    if (start < 0) return false;
    const end = findBalancedEnd(source, start);
    if (end < 0) return false;
    const parsed = parseLenient(source.slice(start, end));
    if (parsed.ok && isPlainObject(parsed.value)) return true;
    from = start + 1;
  }
  return false;
}

/** JSON.stringify that never throws (cycles, BigInt) and always returns a string. */
export function compactJson(value: unknown): string {
  try {
    const json = JSON.stringify(value, (_key, member: unknown) =>
      typeof member === 'bigint' ? member.toString() : member,
    );
    return json === undefined ? 'null' : json;
  } catch {
    return JSON.stringify(String(value));
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Contents of the first ``` fence (to the closing fence, or to the end when it never closes). */
function fencedRegion(text: string): { start: number; end: number } | undefined {
  const open = text.indexOf('```');
  if (open < 0) return undefined;
  const lineEnd = text.indexOf('\n', open + 3);
  // "```json {...}```" on one line: the info string is whatever letters follow the fence.
  let start = lineEnd < 0 ? open + 3 : lineEnd + 1;
  if (lineEnd < 0 || /[{[]/.test(text.slice(open + 3, lineEnd))) {
    start = open + 3;
    while (start < text.length && /[A-Za-z0-9_-]/.test(text[start])) start++;
  }
  const close = text.indexOf('```', start);
  return { start, end: close < 0 ? text.length : close };
}

/**
 * The first candidate in [from, to) that reads as JSON. A balanced candidate that does not
 * parse is skipped (the search goes on inside it: `[note] {…}`); an unclosed one that starts
 * like JSON is read in partial mode right away, because everything after its opening bracket
 * belongs to it.
 */
function findFirst(text: string, from: number, to: number): ExtractedJson | undefined {
  const region = to === text.length ? text : text.slice(0, to);
  let pos = from;
  for (let tries = 0; tries < MAX_CANDIDATES; tries++) {
    const start = nextOpening(region, pos);
    if (start < 0) return undefined;
    const end = findBalancedEnd(region, start);
    const found = end >= 0 ? readComplete(region, start, end) : readTruncated(region, start);
    if (found) return found;
    pos = start + 1;
  }
  return undefined;
}

function readComplete(text: string, start: number, end: number): ExtractedJson | undefined {
  const slice = text.slice(start, end);
  if (text[start] !== '{' && !JSON_LIKE_ARRAY.test(slice)) return undefined;
  const parsed = parseLenient(slice);
  return parsed.ok ? { value: parsed.value, complete: true, start, end } : undefined;
}

function readTruncated(text: string, start: number): ExtractedJson | undefined {
  let slice = text.slice(start);
  const fenceClose = slice.indexOf('```');
  if (fenceClose >= 0) slice = slice.slice(0, fenceClose);
  const jsonLike = text[start] === '{' ? JSON_LIKE_OBJECT_START.test(slice) : JSON_LIKE_ARRAY.test(slice);
  if (!jsonLike) return undefined;
  const parsed = parseLenient(slice, { partial: true });
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  return { value: parsed.value, complete: false, start, end: start + slice.length };
}

/** A whole answer that is just a string, number or literal (`"yes"`, `42`, `true`). */
function readScalar(text: string): ExtractedJson | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 100000) return undefined;
  const parsed = parseLenient(trimmed);
  if (!parsed.ok || parsed.end !== trimmed.length) return undefined;
  const start = text.indexOf(trimmed);
  return { value: parsed.value, complete: true, start, end: start + trimmed.length };
}

function nextOpening(text: string, from: number): number {
  const brace = text.indexOf('{', from);
  const bracket = text.indexOf('[', from);
  if (brace < 0) return bracket;
  if (bracket < 0) return brace;
  return Math.min(brace, bracket);
}
