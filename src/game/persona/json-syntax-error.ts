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

/** The first syntax error in `text`, or undefined when it is valid strict JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const n = text.length;

  const fail = (what: string): never => {
    if (i >= n) throw new Stop('Unexpected end of JSON input', n);
    throw new Stop(`Unexpected ${what === '' ? `token ${JSON.stringify(text[i])}` : what}`, i);
  };
  const skipSpace = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const expect = (ch: string): void => {
    if (text[i] !== ch) fail(`token ${i < n ? JSON.stringify(text[i]) : ''}, expected ${JSON.stringify(ch)}`);
    i++;
  };
  const readString = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= n) fail('');
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape in string');
          i += 5;
        } else if (esc !== undefined && '"\\/bfnrt'.indexOf(esc) >= 0) {
          i++;
        } else {
          fail('bad escape in string');
        }
      } else if (ch < ' ') {
        fail('control character in string');
      } else {
        i++;
      }
    }
  };
  const readNumber = (): void => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail('');
    i += match![0].length;
  };
  const readValue = (depth: number): void => {
    if (depth > 512) fail('nesting too deep');
    skipSpace();
    const ch = text[i];
    if (ch === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail(i < n ? `token ${JSON.stringify(text[i])}, expected a quoted key` : '');
        readString();
        skipSpace();
        expect(':');
        readValue(depth + 1);
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(i < n ? `token ${JSON.stringify(text[i])}, expected "," or "}"` : '');
      }
    }
    if (ch === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        readValue(depth + 1);
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(i < n ? `token ${JSON.stringify(text[i])}, expected "," or "]"` : '');
      }
    }
    if (ch === '"') return readString();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return readNumber();
    fail('');
  };

  try {
    readValue(0);
    skipSpace();
    if (i < n) fail(`token ${JSON.stringify(text[i])} after the end of the JSON value`);
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
