/**
 * Python literals as Gemma 3 writes them inside a call (Google's Gemma 3 function-calling
 * guide; vLLM's pythonic tool parser reads them with `ast.literal_eval`): strings in single or
 * double quotes with backslash escapes, ints and floats, True/False/None (and JSON's
 * true/false/null), lists, tuples and dicts. Like `literal_eval` it refuses what is not a
 * literal: bytes (`b'z'`), names, calls, non-finite numbers. A bare word is read as text only
 * when it is a plain word followed by a delimiter (`unit=celsius`): the model meant the text.
 */
import { setOwnKey } from '../json/own-key';
import { MAX_ARG_DEPTH } from './written-call';

export class LiteralFailure {
  constructor(
    /** True when the text ended inside the literal (a cut-off output). */
    readonly cutOff: boolean,
  ) {}
}

const NUMBER = /^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/;
const WORD = /^[A-Za-z_][\w-]*/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f', v: '\v', a: '\x07' };

/** A cursor over the text; `literal()` reads one value and leaves `pos` after it. */
export class LiteralReader {
  pos: number;
  constructor(
    readonly text: string,
    start: number,
  ) {
    this.pos = start;
  }

  fail(): never {
    throw new LiteralFailure(this.pos >= this.text.length);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  /** One value; `bareWords` false refuses a bare word (read as text only as a keyword's value). */
  literal(depth = 0, bareWords = true): unknown {
    if (depth > MAX_ARG_DEPTH) this.fail();
    this.skipSpace();
    const char = this.text[this.pos];
    if (char === undefined) this.fail();
    if (char === '"' || char === "'") return this.string(char);
    if (char === '[') return this.sequence(']', depth);
    if (char === '(') return this.sequence(')', depth);
    if (char === '{') return this.dict(depth);
    const rest = this.text.slice(this.pos, this.pos + 64);
    const number = NUMBER.exec(rest);
    if (number) {
      const value = Number(number[0].replace(/_/g, ''));
      if (!Number.isFinite(value) || /^[\w.]/.test(rest.slice(number[0].length))) this.fail();
      this.pos += number[0].length;
      return value;
    }
    const word = WORD.exec(rest);
    if (!word) this.fail();
    this.pos += word[0].length;
    const named: Record<string, unknown> = {
      True: true,
      False: false,
      None: null,
      true: true,
      false: false,
      null: null,
    };
    if (Object.prototype.hasOwnProperty.call(named, word[0])) return named[word[0]];
    // A prefix string (b'…', f"…"), an attribute, a call or an operator: not a literal.
    if (!bareWords) this.fail();
    this.skipSpace();
    const next = this.text[this.pos];
    if (next !== ',' && next !== ')' && next !== ']' && next !== '}') this.fail();
    return word[0];
  }

  private string(quote: string): string {
    let out = '';
    for (let at = this.pos + 1; at < this.text.length; at++) {
      const char = this.text[at];
      if (char === '\\') {
        const next = this.text[at + 1];
        if (next === undefined) break;
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(at + 2, at + 6))) {
          out += String.fromCharCode(parseInt(this.text.slice(at + 2, at + 6), 16));
          at += 5;
        } else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(this.text.slice(at + 2, at + 4))) {
          out += String.fromCharCode(parseInt(this.text.slice(at + 2, at + 4), 16));
          at += 3;
        } else {
          out += ESCAPES[next] ?? next;
          at++;
        }
      } else if (char === quote) {
        this.pos = at + 1;
        return out;
      } else out += char;
    }
    this.pos = this.text.length;
    this.fail();
  }

  private sequence(close: string, depth: number): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === close) {
        this.pos++;
        return out;
      }
      out.push(this.literal(depth + 1));
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ',') this.pos++;
      else if (next !== close) this.fail();
    }
  }

  private dict(depth: number): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return out;
      }
      const key = this.literal(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') this.fail();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      setOwnKey(out, String(key), this.literal(depth + 1));
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ',') this.pos++;
      else if (next !== '}') this.fail();
    }
  }
}
