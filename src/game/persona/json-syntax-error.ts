/**
 * Where strict JSON text first goes wrong. JSON.parse messages differ per engine (V8 on
 * Android, JavaScriptCore on iOS) and newer V8 no longer says where; a designer fixing a
 * persona file needs the position, line and column, so we find it ourselves.
 */
export interface JsonSyntaxError {
  message: string;
  /** 0-based offset of the offending character (the text's length for an early end). */
  position: number;
  /** 1-based line and column of that offset. */
  line: number;
  column: number;
}

class Stop {
  constructor(
    readonly message: string,
    readonly position: number,
  ) {}
}

/** Deeper than this is refused rather than risking the engine's stack. */
const MAX_DEPTH = 512;

/**
 * Reads one JSON text from the start, one method per token kind; the first thing that is not
 * strict JSON throws a Stop where it is.
 */
class JsonScanner {
  private index = 0;
  private readonly length: number;

  constructor(private readonly text: string) {
    this.length = text.length;
  }

  /** The whole text: one value, then only white space. */
  readDocument(): void {
    this.readValue(0);
    this.skipSpace();
    if (this.index < this.length)
      this.fail(`token ${JSON.stringify(this.text[this.index])} after the end of the JSON value`);
  }

  private fail(what: string): never {
    if (this.index >= this.length) throw new Stop('Unexpected end of JSON input', this.length);
    throw new Stop(`Unexpected ${what === '' ? `token ${JSON.stringify(this.text[this.index])}` : what}`, this.index);
  }

  /** The character here is not what the grammar wants (at the end of the text: the input ended). */
  private failExpecting(expected: string): never {
    return this.fail(
      this.index < this.length ? `token ${JSON.stringify(this.text[this.index])}, expected ${expected}` : '',
    );
  }

  private skipSpace(): void {
    const { text, length } = this;
    while (
      this.index < length &&
      (text[this.index] === ' ' || text[this.index] === '\t' || text[this.index] === '\n' || text[this.index] === '\r')
    )
      this.index++;
  }

  private expect(ch: string): void {
    if (this.text[this.index] !== ch) this.failExpecting(JSON.stringify(ch));
    this.index++;
  }

  private readValue(depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.skipSpace();
    const ch = this.text[this.index];
    if (ch === '{') return this.readObject(depth);
    if (ch === '[') return this.readArray(depth);
    if (ch === '"') return this.readString();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return;
      }
    }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.readNumber();
    this.fail('');
  }

  private readObject(depth: number): void {
    this.index++; // {
    this.skipSpace();
    if (this.text[this.index] === '}') {
      this.index++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.index] !== '"') this.failExpecting('a quoted key');
      this.readString();
      this.skipSpace();
      this.expect(':');
      this.readValue(depth + 1);
      this.skipSpace();
      if (this.text[this.index] === ',') {
        this.index++;
        continue;
      }
      if (this.text[this.index] === '}') {
        this.index++;
        return;
      }
      this.failExpecting('"," or "}"');
    }
  }

  private readArray(depth: number): void {
    this.index++; // [
    this.skipSpace();
    if (this.text[this.index] === ']') {
      this.index++;
      return;
    }
    for (;;) {
      this.readValue(depth + 1);
      this.skipSpace();
      if (this.text[this.index] === ',') {
        this.index++;
        continue;
      }
      if (this.text[this.index] === ']') {
        this.index++;
        return;
      }
      this.failExpecting('"," or "]"');
    }
  }

  private readString(): void {
    this.index++; // opening quote
    for (;;) {
      if (this.index >= this.length) this.fail('');
      const ch = this.text[this.index];
      if (ch === '"') {
        this.index++;
        return;
      }
      if (ch === '\\') this.readEscape();
      else if (ch < ' ') this.fail('control character in string');
      else this.index++;
    }
  }

  /** A backslash and what follows it inside a string. */
  private readEscape(): void {
    this.index++; // the backslash
    const esc = this.text[this.index];
    if (esc === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.index + 1, this.index + 5)))
        this.fail('bad \\u escape in string');
      this.index += 5;
    } else if (esc !== undefined && '"\\/bfnrt'.indexOf(esc) >= 0) {
      this.index++;
    } else {
      this.fail('bad escape in string');
    }
  }

  private readNumber(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.index, this.index + 400));
    if (!match) return this.fail('');
    this.index += match[0].length;
  }
}

/** The first syntax error in `text`, or undefined when it is valid strict JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    new JsonScanner(text).readDocument();
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.position);
    const lines = before.split('\n');
    return {
      message: error.message,
      position: error.position,
      line: lines.length,
      column: lines[lines.length - 1].length + 1,
    };
  }
}
