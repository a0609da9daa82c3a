/**
 * The argument block of Gemma 4 and FunctionGemma calls (Google's Gemma 4 and FunctionGemma
 * model cards; vLLM's gemma4 and functiongemma tool parsers read the same grammar):
 *
 *     args   := '{' (member (','? member)*)? '}'      a missing ',' is read (FunctionGemma streams drop it)
 *     member := key ':' value
 *     key    := identifier | STR | JSON string
 *     value  := STR | number | true | false | null | args | '[' (value (',' value)*)? ']'
 *             | JSON string | a bare word (text up to the next , } or ])
 *     STR    := D … D, where D is Gemma 4's <|"|> or FunctionGemma's <escape> (the same D closes)
 *
 * FunctionGemma escapes every value, numbers too: an <escape> string that is exactly a number,
 * true, false or null is read as that value (vLLM asserts `count:<escape>42<escape>` → 42); the
 * tool's schema turns it back into text where the tool wants text. Reading is linear; nesting
 * deeper than MAX_ARG_DEPTH, a non-finite number or any other character is a failure, never a guess.
 */
import { setOwnKey } from '../json/own-key';
import { MAX_ARG_DEPTH } from './written-call';

export const GEMMA4_QUOTE = '<|"|>';
export const FUNCTION_GEMMA_QUOTE = '<escape>';
const QUOTES = [GEMMA4_QUOTE, FUNCTION_GEMMA_QUOTE];

export type ArgsRead =
  { ok: true; value: Record<string, unknown>; end: number } | { ok: false; cutOff: boolean; end: number };

class Failure {
  constructor(
    readonly cutOff: boolean,
    readonly at: number,
  ) {}
}

/** Reads the argument block whose `{` is at `open`. */
export function readDelimitedArgs(text: string, open: number): ArgsRead {
  const reader = new BlockReader(text);
  try {
    const value = reader.object(open, 0);
    return { ok: true, value, end: reader.pos };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, cutOff: error.cutOff, end: error.at };
    throw error;
  }
}

const NUMBER = /^-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?/;
const IDENTIFIER = /^[A-Za-z_$][\w$.-]*/;
/**
 * FunctionGemma's `<escape>42<escape>` as the value it names: true, false, null, or a number
 * that reads back as the same text (`007`, `1.50` and 20-digit ids stay text, so nothing is
 * lost; the tool's schema coerces text to a number where it wants one).
 */
function typedValue(raw: string): unknown {
  const text = raw.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?\d+(?:\.\d+)?$/.test(text) && String(Number(text)) === text) return Number(text);
  return raw;
}

class BlockReader {
  pos = 0;
  constructor(private readonly text: string) {}

  private fail(): never {
    throw new Failure(this.pos >= this.text.length, this.pos);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private quoteAt(at: number): string | undefined {
    for (const quote of QUOTES) if (this.text.startsWith(quote, at)) return quote;
    return undefined;
  }

  object(open: number, depth: number): Record<string, unknown> {
    if (depth > MAX_ARG_DEPTH || this.text[open] !== '{') this.fail();
    this.pos = open + 1;
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      const key = this.key();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      // {a:1,a:2}: which one the model meant is a guess.
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail();
      setOwnKey(out, key, this.value(depth));
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === '}') {
        this.pos++;
        return out;
      }
      if (next === ',') {
        this.pos++;
        this.skipSpace();
      } else if (this.pos >= this.text.length) this.fail();
      // No comma: another member may follow directly (`city:<escape>NYC<escape>unit:…`).
    }
  }

  private key(): string {
    this.skipSpace();
    const quote = this.quoteAt(this.pos);
    if (quote) return this.delimited(quote, false) as string;
    if (this.text[this.pos] === '"') return this.jsonString();
    const word = IDENTIFIER.exec(this.text.slice(this.pos, this.pos + 128));
    if (!word) this.fail();
    this.pos += word[0].length;
    return word[0];
  }

  private value(depth: number): unknown {
    this.skipSpace();
    const char = this.text[this.pos];
    if (char === undefined) this.fail();
    const quote = this.quoteAt(this.pos);
    if (quote) return this.delimited(quote, quote === FUNCTION_GEMMA_QUOTE);
    if (char === '{') return this.object(this.pos, depth + 1);
    if (char === '[') return this.list(depth + 1);
    if (char === '"') return this.jsonString();
    const rest = this.text.slice(this.pos, this.pos + 64);
    const number = NUMBER.exec(rest);
    if (number && !/^[\w.]/.test(rest.slice(number[0].length))) {
      const value = Number(number[0]);
      if (!Number.isFinite(value)) this.fail();
      this.pos += number[0].length;
      return value;
    }
    const literal = /^(true|false|null|True|False|None)(?![\w])/.exec(rest);
    if (literal) {
      this.pos += literal[1].length;
      return literal[1] === 'true' || literal[1] === 'True'
        ? true
        : literal[1] === 'null' || literal[1] === 'None'
          ? null
          : false;
    }
    return this.bareWord();
  }

  private list(depth: number): unknown[] {
    if (depth > MAX_ARG_DEPTH) this.fail();
    this.pos++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ']') {
        this.pos++;
        return out;
      }
      if (next !== ',') this.fail();
      this.pos++;
    }
  }

  private delimited(quote: string, typed: boolean): unknown {
    const start = this.pos + quote.length;
    const close = this.text.indexOf(quote, start);
    if (close < 0) {
      this.pos = this.text.length;
      this.fail();
    }
    this.pos = close + quote.length;
    const raw = this.text.slice(start, close);
    return typed ? typedValue(raw) : raw;
  }

  private jsonString(): string {
    const start = this.pos;
    for (let at = start + 1; at < this.text.length; at++) {
      if (this.text[at] === '\\') at++;
      else if (this.text[at] === '"') {
        this.pos = at + 1;
        try {
          return JSON.parse(this.text.slice(start, at + 1)) as string;
        } catch {
          this.fail();
        }
      }
    }
    this.pos = this.text.length;
    this.fail();
  }

  /** Text up to the next `,` `}` `]`: the model left the quotes out (`unit:celsius`). */
  private bareWord(): string {
    const start = this.pos;
    while (this.pos < this.text.length && ',}]'.indexOf(this.text[this.pos]) < 0) {
      // Markup, an opening bracket or a second `key:` inside a bare word: not a value this grammar knows.
      if ('{[<":'.indexOf(this.text[this.pos]) >= 0) this.fail();
      this.pos++;
    }
    if (this.pos >= this.text.length) this.fail();
    const word = this.text.slice(start, this.pos).trim();
    if (word === '') this.fail();
    return word;
  }
}
