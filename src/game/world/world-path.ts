/**
 * Paths into the world state. Accepted forms: `player.gold`, `party[0].name`, `player/gold`,
 * `$.player.gold`, `["odd.key"]`; `""` (or `$`) is the root. Empty segments are errors.
 * Bracketed numbers are list indexes; a bare number segment (`party.0`) is a key that also
 * works as an index when it meets a list.
 */
import { WorldStateError } from './world-state-error';

export type PathSegment = string | number;

const INDEX_TEXT = /^(0|[1-9][0-9]*)$/;
/** The most segments a path may have, and the longest path text: both keep paths, and the values under them, small enough to print and walk. */
export const MAX_PATH_SEGMENTS = 64;
const MAX_PATH_CHARS = 4096;
/** Keys that can be written bare in the canonical form; anything else is bracket-quoted. */
const NEEDS_QUOTES = /[.[\]/"']|^\$|^\s|\s$/;

function isBareKey(key: string): boolean {
  return key !== '' && !NEEDS_QUOTES.test(key);
}

export class WorldPath {
  readonly segments: readonly PathSegment[];

  private constructor(segments: readonly PathSegment[]) {
    this.segments = segments;
  }

  static readonly root: WorldPath = new WorldPath([]);

  static of(segments: readonly PathSegment[]): WorldPath {
    if (segments.length > MAX_PATH_SEGMENTS) throw tooLong(segments.length);
    for (const segment of segments) {
      if (
        typeof segment === 'number'
          ? !(Number.isInteger(segment) && segment >= 0)
          : typeof segment !== 'string' || segment === ''
      ) {
        throw new WorldStateError(
          String(segments.join('.')),
          `bad segment ${JSON.stringify(segment)}; use non-empty keys and whole-number indexes.`,
        );
      }
    }
    return new WorldPath(segments.slice());
  }

  /** Parses any accepted form; a WorldPath passes through. */
  static parse(path: string | WorldPath): WorldPath {
    if (path instanceof WorldPath) return path;
    if (typeof path !== 'string') {
      throw new WorldStateError(String(path), `a path must be a string (got ${typeof path}).`);
    }
    return new WorldPath(parseSegments(path));
  }

  get isRoot(): boolean {
    return this.segments.length === 0;
  }

  get length(): number {
    return this.segments.length;
  }

  /** The enclosing path; the root has none. */
  get parent(): WorldPath | undefined {
    return this.isRoot ? undefined : new WorldPath(this.segments.slice(0, -1));
  }

  get last(): PathSegment | undefined {
    return this.segments[this.segments.length - 1];
  }

  child(...segments: PathSegment[]): WorldPath {
    return WorldPath.of(this.segments.concat(segments));
  }

  slice(start: number, end?: number): WorldPath {
    return new WorldPath(this.segments.slice(start, end));
  }

  /** True when this path is `other` or one of its ancestors (`""` starts every path). */
  isPrefixOf(other: WorldPath, ignoreCase = false): boolean {
    if (this.segments.length > other.segments.length) return false;
    for (let index = 0; index < this.segments.length; index++) {
      if (!sameSegment(this.segments[index], other.segments[index], ignoreCase)) return false;
    }
    return true;
  }

  equals(other: WorldPath, ignoreCase = false): boolean {
    return this.segments.length === other.segments.length && this.isPrefixOf(other, ignoreCase);
  }

  /** True when one path contains the other: a change at either touches both. */
  overlaps(other: WorldPath): boolean {
    return this.isPrefixOf(other) || other.isPrefixOf(this);
  }

  /** The canonical dot/bracket form: `party[0].name`, `["odd.key"]`, `""` for the root. */
  toString(): string {
    let out = '';
    for (const segment of this.segments) {
      if (typeof segment === 'number') out += `[${segment}]`;
      else if (isBareKey(segment)) out += out === '' ? segment : `.${segment}`;
      else out += `[${JSON.stringify(segment)}]`;
    }
    return out;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Keys and indexes compare as text, so `party.0` and `party[0]` name the same place. */
export function sameSegment(
  left: PathSegment | undefined,
  right: PathSegment | undefined,
  ignoreCase = false,
): boolean {
  if (left === undefined || right === undefined) return false;
  const leftText = String(left);
  const rightText = String(right);
  return ignoreCase ? leftText.toLowerCase() === rightText.toLowerCase() : leftText === rightText;
}

/** The list index a segment names, or undefined when it is not a whole non-negative number. */
export function indexOf(segment: PathSegment): number | undefined {
  if (typeof segment === 'number') return segment;
  return INDEX_TEXT.test(segment) && segment.length < 16 ? Number(segment) : undefined;
}

function tooLong(count: number | string): WorldStateError {
  return new WorldStateError(
    '',
    `the path has ${typeof count === 'number' ? `${count} segments` : 'too many characters'}; at most ${MAX_PATH_SEGMENTS} segments and ${MAX_PATH_CHARS} characters.`,
  );
}

function parseSegments(raw: string): PathSegment[] {
  if (raw.length > MAX_PATH_CHARS) throw tooLong('chars');
  let text = raw.trim();
  if (text === '' || text === '$') return [];
  if (text.startsWith('$.') || text.startsWith('$/')) text = text.slice(2);
  else if (text.startsWith('$[')) text = text.slice(1);
  else if (text.startsWith('/')) text = text.slice(1); // JSON-Pointer-like "/player/gold"
  const fail = (why: string): never => {
    throw new WorldStateError(raw, why);
  };
  if (text === '') fail('empty segment after the root marker.');

  const segments: PathSegment[] = [];
  let index = 0;
  // After a segment we expect a separator, a bracket or the end.
  let expectSegment = true;
  while (index < text.length) {
    const ch = text[index];
    if (ch === '[') {
      const close = findClosingBracket(text, index);
      if (close < 0) fail(`unclosed "[" at character ${index + 1}.`);
      segments.push(parseBracket(text.slice(index + 1, close), raw));
      if (segments.length > MAX_PATH_SEGMENTS) throw tooLong(segments.length);
      index = close + 1;
      expectSegment = false;
      continue;
    }
    if (ch === '.' || ch === '/') {
      if (expectSegment) fail(`empty segment at character ${index + 1}.`);
      index++;
      expectSegment = true;
      if (index === text.length) fail('the path ends with a separator (empty segment).');
      if (text[index] === '[') fail(`"${ch}[" leaves an empty segment; write party[0], not party.[0].`);
      continue;
    }
    if (ch === ']') fail(`unexpected "]" at character ${index + 1}.`);
    if (!expectSegment) fail(`missing "." before character ${index + 1}.`);
    let end = index;
    while (end < text.length && text[end] !== '.' && text[end] !== '/' && text[end] !== '[' && text[end] !== ']') end++;
    const key = text.slice(index, end).trim();
    if (key === '') fail(`empty segment at character ${index + 1}.`);
    segments.push(key);
    if (segments.length > MAX_PATH_SEGMENTS) throw tooLong(segments.length);
    index = end;
    expectSegment = false;
  }
  return segments;
}

function findClosingBracket(text: string, open: number): number {
  const quote = text[open + 1];
  if (quote === '"' || quote === "'") {
    for (let index = open + 2; index < text.length; index++) {
      if (text[index] === '\\') {
        index++;
        continue;
      }
      if (text[index] === quote) return text[index + 1] === ']' ? index + 1 : -1;
    }
    return -1;
  }
  return text.indexOf(']', open);
}

function parseBracket(inner: string, raw: string): PathSegment {
  const body = inner.trim();
  if (body === '') throw new WorldStateError(raw, 'empty brackets "[]"; put an index or a quoted key inside.');
  if (/^-?[0-9]+$/.test(body)) {
    const index = indexOf(body);
    if (index === undefined)
      throw new WorldStateError(raw, `bad list index [${body}]; indexes are whole numbers from 0.`);
    return index;
  }
  const quote = body[0];
  if (quote === '"' || quote === "'") {
    if (body.length < 2 || body[body.length - 1] !== quote)
      throw new WorldStateError(raw, `unclosed quote in [${body}].`);
    let key: unknown;
    try {
      key = JSON.parse(quote === '"' ? body : `"${body.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`);
    } catch {
      throw new WorldStateError(raw, `bad quoted key [${body}].`);
    }
    if (typeof key !== 'string' || key === '') throw new WorldStateError(raw, 'empty key in brackets.');
    return key;
  }
  // A bare word in brackets (`items[sword]`) is read as a key, which is what models mean.
  return body;
}
