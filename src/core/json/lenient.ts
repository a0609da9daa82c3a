/**
 * A forgiving JSON reader for the sloppy JSON small on-device models write. It accepts strict
 * JSON plus: single-quoted (and backtick) strings, unquoted keys, trailing commas, `//` and
 * `/* *\/` comments, Python/JS literals (True, False, None, nil, undefined), bare words as
 * strings, `=` for `:`, a leading `+` on numbers, raw newlines in strings, unescaped quotes
 * inside strings when no delimiter follows them, and copied unions (`"a" | "b"`: first wins).
 *
 * Repairs, as jsonrepair makes them where the meaning is clear: curly quotes as the only quotes
 * (`{“a”:“b”}`), Unicode spaces, a missing colon after a quoted key (`{"a" 2}`), a closer of the
 * wrong kind (`{"a":2]`, `[1,2}`) or a missing one inside (`{"v":[1,2\n}`), `...` placeholders,
 * double-encoded JSON (`{\"a\": 1}`), a closing quote written after the closers (`{"t":"12:20}`).
 *
 * Partial mode reads text cut off mid-stream: open strings, arrays and objects are closed,
 * a dangling key or an incomplete escape at the end is dropped, and an incomplete literal or
 * number at the very end is dropped when it cannot be read.
 *
 * It never throws and never recurses deeper than MAX_DEPTH containers.
 */
import { decodeEscape } from './escapes';
import { isClosingQuote, isQuote, isSpace, skipComment } from './scan';
import { setOwnKey } from './own-key';
import { closersAtEnd, ellipsisAt, repairedText } from './repairs';
import { LITERALS, MEMBER_START, NUMBER, clip, couldStillBecomeValue } from './lenient-words';

export interface LenientOptions {
  /** Accept text cut off mid-value (streaming or max-token truncation). */
  partial?: boolean;
}

export type LenientResult = { ok: true; value: unknown; end: number } | { ok: false; error: string; offset: number };

export const MAX_DEPTH = 64;

export function parseLenient(text: string, options?: LenientOptions): LenientResult {
  return readAll(new Reader(repairedText(String(text)), options?.partial === true));
}

function readAll(reader: Reader): LenientResult {
  try {
    reader.skipBlank();
    const value = reader.readValue(0, 'top');
    if (value === DROPPED) return { ok: false, error: 'unexpected end of input', offset: reader.pos };
    return { ok: true, value, end: reader.valueEnd };
  } catch (caught) {
    if (caught instanceof ParseFailure) return { ok: false, error: caught.message, offset: caught.offset };
    // Anything else is a bug; report it as a parse failure rather than throwing at callers.
    return { ok: false, error: 'internal parser error: ' + String(caught), offset: reader.pos };
  }
}

/**
 * Partial-mode parse that also says where the value cut off by the end of the text starts
 * (a string without its closing quote, or a bare word running to the end), or -1. Streaming
 * readers use it to tell whether more text could still change a value.
 */
export function parsePartialWithCut(text: string): { result: LenientResult; cutValueAt: number } {
  const reader = new Reader(String(text), true);
  const result = readAll(reader);
  return { result, cutValueAt: result.ok ? reader.cutValueAt : -1 };
}

class ParseFailure {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

/** Marker for a value that partial mode left out (cut off before it could be read). */
const DROPPED: unique symbol = Symbol('dropped');
type Read = unknown | typeof DROPPED;

/** Where a value sits: it decides which characters end a bare word. */
type Place = 'top' | 'array' | 'member';

class Reader {
  pos = 0;
  /** End of the last complete value read at top level (before trailing blanks). */
  valueEnd = 0;
  /** Start of the value (not key) that the end of a partial text cut off, or -1. */
  cutValueAt = -1;
  /** The open containers, innermost last: a closer of the wrong kind is read against it. */
  private readonly open: Array<'{' | '['> = [];

  constructor(
    readonly text: string,
    readonly partial: boolean,
  ) {}

  fail(message: string, offset = this.pos): never {
    throw new ParseFailure(message, offset);
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** Skips whitespace and comments. */
  skipBlank(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const char = text[this.pos];
      if (isSpace(char)) this.pos++;
      else if (char === '/' && (text[this.pos + 1] === '/' || text[this.pos + 1] === '*'))
        this.pos = skipComment(text, this.pos);
      else break;
    }
  }

  readValue(depth: number, place: Place): Read {
    const first = this.readSingleValue(depth, place);
    this.valueEnd = this.pos;
    // A copied union (`"a" | "b"`): keep the first alternative, read and drop the rest.
    for (;;) {
      const save = this.pos;
      this.skipBlank();
      if (this.text[this.pos] !== '|') {
        this.pos = save;
        break;
      }
      this.pos++;
      if (this.text[this.pos] === '|') this.pos++;
      this.skipBlank();
      if (this.atEnd()) {
        if (this.partial) break;
        this.fail('unexpected end of input after "|"');
      }
      this.readSingleValue(depth, place);
      this.valueEnd = this.pos;
    }
    return first;
  }

  readSingleValue(depth: number, place: Place): Read {
    if (this.atEnd()) {
      if (this.partial) return DROPPED;
      this.fail('unexpected end of input');
    }
    const start = this.pos;
    const char = this.text[start];
    if (char === '{') return this.readObject(depth + 1);
    if (char === '[') return this.readArray(depth + 1);
    if (isQuote(char)) {
      const value = this.readString();
      if (!this.lastStringClosed) this.cutValueAt = start;
      return value;
    }
    const value = this.readBare(place);
    if (value !== DROPPED && this.atEnd()) this.cutValueAt = start;
    return value;
  }

  enter(depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting deeper than ' + MAX_DEPTH + ' levels');
  }

  readObject(depth: number): Read {
    this.enter(depth);
    this.open.push('{');
    const value = this.readMembers(depth);
    this.open.pop();
    return value;
  }

  /** `…` or `...` where a value or member could be: a placeholder for "and so on", skipped. */
  skipEllipsis(): boolean {
    const length = ellipsisAt(this.text, this.pos);
    this.pos += length;
    return length > 0;
  }

  /** A closer of the other kind (`]` in an object): ends this container too; the enclosing one takes it when it is of that kind. */
  wrongCloser(): void {
    const outer = this.open[this.open.length - 2];
    const char = this.text[this.pos];
    if (!(outer === '[' && char === ']') && !(outer === '{' && char === '}')) this.pos++;
  }

  readMembers(depth: number): Read {
    const open = this.pos;
    this.pos++;
    const result: Record<string, unknown> = {};
    for (;;) {
      this.skipBlank();
      if (this.atEnd()) return this.partial ? result : this.fail('unclosed object', open);
      const char = this.text[this.pos];
      if (char === '}') {
        this.pos++;
        return result;
      }
      if (char === ',') {
        this.pos++; // stray or trailing commas are harmless
        continue;
      }
      if (char === ']') {
        this.wrongCloser();
        return result;
      }
      if (this.skipEllipsis()) continue;
      const quotedKey = isQuote(char);
      const key = this.readKey();
      if (key === DROPPED) return result;
      this.skipBlank();
      // A key without a value: dropped while streaming, unreadable in a whole text.
      if (this.atEnd()) return this.partial ? result : this.fail('unclosed object', open);
      const sep = this.text[this.pos];
      if (sep === ':' || sep === '=') this.pos++;
      // `{"a" 2}`: a quoted key followed straight by a value lost its colon.
      else if (!quotedKey || !/["'`{[\d\-tfnTFN]/.test(sep)) this.fail('expected ":" after key "' + clip(key) + '"');
      this.skipBlank();
      if (this.atEnd()) {
        if (this.partial) return result;
        this.fail('unexpected end of input');
      }
      const next = this.text[this.pos];
      // `{"a": }` or `{"a": ,}`: a missing value reads as null.
      const value = next === ',' || next === '}' ? null : this.readValue(depth, 'member');
      if (value === DROPPED) return result;
      setOwnKey(result, key, value);
    }
  }

  readKey(): string | typeof DROPPED {
    const char = this.text[this.pos];
    if (isQuote(char)) {
      // A key holds no quote of its own: the next one closes it, whatever follows (`{"a" 2}`).
      const close = this.nextQuote(char);
      if (close >= 0 && !isClosingQuote(this.text, close)) {
        const key = this.text.slice(this.pos + 1, close);
        if (key.indexOf('\\') < 0 && key.indexOf('\n') < 0) {
          this.pos = close + 1;
          return key;
        }
      }
      const key = this.readString(false);
      // A key cut off inside its quotes is dropped, not kept half-written.
      if (!this.lastStringClosed) return DROPPED;
      return key as string;
    }
    const start = this.pos;
    const text = this.text;
    while (this.pos < text.length && ':={}[],"\'`\n\r'.indexOf(text[this.pos]) < 0) this.pos++;
    const key = text.slice(start, this.pos).trim();
    if (this.atEnd()) {
      if (this.partial) return DROPPED;
      this.fail('unexpected end of input in a key');
    }
    if (key === '') this.fail('unexpected character "' + text[this.pos] + '"');
    return key;
  }

  /** The next `quote` after the one at pos, or -1. */
  nextQuote(quote: string): number {
    return this.text.indexOf(quote, this.pos + 1);
  }

  /** Whether the last string read ended with its closing quote (partial mode may cut it). */
  lastStringClosed = false;

  readArray(depth: number): Read {
    this.enter(depth);
    this.open.push('[');
    const value = this.readItems(depth);
    this.open.pop();
    return value;
  }

  readItems(depth: number): Read {
    const open = this.pos;
    this.pos++;
    const result: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.atEnd()) return this.partial ? result : this.fail('unclosed array', open);
      const char = this.text[this.pos];
      if (char === ']') {
        this.pos++;
        return result;
      }
      if (char === ',') {
        this.pos++;
        continue;
      }
      if (char === '}') {
        this.wrongCloser();
        return result;
      }
      if (this.skipEllipsis()) continue;
      const value = this.readValue(depth, 'array');
      if (value === DROPPED) return result;
      result.push(value);
    }
  }

  /** A string; `asValue` allows the misplaced-quote repair (a key cut off is dropped instead). */
  readString(asValue = true): Read {
    const text = this.text;
    const quote = text[this.pos];
    const open = this.pos;
    this.pos++;
    let out = '';
    let chunkStart = this.pos;
    this.lastStringClosed = false;
    while (this.pos < text.length) {
      const char = text[this.pos];
      if (char === quote && isClosingQuote(text, this.pos)) {
        out += text.slice(chunkStart, this.pos);
        this.pos++;
        this.lastStringClosed = true;
        return out;
      }
      if (char !== '\\') {
        this.pos++;
        continue;
      }
      out += text.slice(chunkStart, this.pos);
      const decoded = this.readEscape();
      if (decoded === undefined) {
        // partial: an escape cut off at the very end is dropped
        this.pos = text.length;
        return out;
      }
      out += decoded;
      chunkStart = this.pos;
    }
    if (!this.partial) this.fail('unclosed string', open);
    const rest = text.slice(chunkStart, this.pos);
    const closers = asValue ? closersAtEnd(rest, this.open) : 0;
    if (closers === 0) return out + rest;
    // `{"time":"12:20}`: the quote was left out before the closers that end the text.
    this.pos = text.length - closers;
    this.lastStringClosed = true;
    return out + rest.slice(0, rest.length - closers);
  }

  /** Reads the escape at pos (a backslash); undefined when partial text ends inside it. */
  readEscape(): string | undefined {
    const escape = decodeEscape(this.text, this.pos, this.partial);
    if (escape === undefined) {
      if (this.partial) return undefined;
      this.fail('unclosed string');
    }
    this.pos = escape.next;
    return escape.value;
  }

  /**
   * Inside an object, prose values keep their commas (`{reply: Hello, friend}`) unless a new
   * member follows the comma or the word so far is a number or literal.
   */
  commaEndsWord(start: number): boolean {
    const text = this.text;
    // Only short words can be numbers or literals; checking long ones would cost O(n²).
    if (this.pos - start <= 40) {
      const soFar = text.slice(start, this.pos).trim();
      if (NUMBER.test(soFar) || LITERALS[soFar.toLowerCase()] !== undefined) return true;
    }
    return MEMBER_START.test(text.slice(this.pos + 1, this.pos + 200));
  }

  /** A number, literal or bare word, read up to the next delimiter. */
  readBare(place: Place): Read {
    const text = this.text;
    const start = this.pos;
    while (this.pos < text.length) {
      const char = text[this.pos];
      if (char === '}' || char === ']' || char === '|' || char === '\n' || char === '\r') break;
      if (
        char === '/' &&
        isSpace(text[this.pos - 1] ?? ' ') &&
        (text[this.pos + 1] === '/' || text[this.pos + 1] === '*')
      )
        break;
      if (char === ',' && (place !== 'member' || this.commaEndsWord(start))) break;
      this.pos++;
    }
    const word = text.slice(start, this.pos).trim();
    const cutOff = this.pos >= text.length;
    if (word === '') this.fail('unexpected character "' + (text[this.pos] ?? '') + '"');
    if (NUMBER.test(word)) return Number(word);
    const literal = LITERALS[word.toLowerCase()];
    if (literal !== undefined) return literal;
    if (this.partial && cutOff && couldStillBecomeValue(word)) return DROPPED;
    if (place === 'top') this.fail('expected a JSON value', start);
    return word;
  }
}
