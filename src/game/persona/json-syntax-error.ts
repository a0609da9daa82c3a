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
  let index = 0;
  const length = text.length;

  const fail = (what: string): never => {
    if (index >= length) throw new Stop('Unexpected end of JSON input', length);
    throw new Stop(`Unexpected ${what === '' ? `token ${JSON.stringify(text[index])}` : what}`, index);
  };
  const skipSpace = (): void => {
    while (
      index < length &&
      (text[index] === ' ' || text[index] === '\t' || text[index] === '\n' || text[index] === '\r')
    )
      index++;
  };
  const expect = (ch: string): void => {
    if (text[index] !== ch)
      fail(`token ${index < length ? JSON.stringify(text[index]) : ''}, expected ${JSON.stringify(ch)}`);
    index++;
  };
  const readString = (): void => {
    index++; // opening quote
    for (;;) {
      if (index >= length) fail('');
      const ch = text[index];
      if (ch === '"') {
        index++;
        return;
      }
      if (ch === '\\') {
        index++;
        const esc = text[index];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 1, index + 5))) fail('bad \\u escape in string');
          index += 5;
        } else if (esc !== undefined && '"\\/bfnrt'.indexOf(esc) >= 0) {
          index++;
        } else {
          fail('bad escape in string');
        }
      } else if (ch < ' ') {
        fail('control character in string');
      } else {
        index++;
      }
    }
  };
  const readNumber = (): void => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
    if (!match) fail('');
    index += match![0].length;
  };
  const readValue = (depth: number): void => {
    if (depth > 512) fail('nesting too deep');
    skipSpace();
    const ch = text[index];
    if (ch === '{') {
      index++;
      skipSpace();
      if (text[index] === '}') {
        index++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[index] !== '"')
          fail(index < length ? `token ${JSON.stringify(text[index])}, expected a quoted key` : '');
        readString();
        skipSpace();
        expect(':');
        readValue(depth + 1);
        skipSpace();
        if (text[index] === ',') {
          index++;
          continue;
        }
        if (text[index] === '}') {
          index++;
          return;
        }
        fail(index < length ? `token ${JSON.stringify(text[index])}, expected "," or "}"` : '');
      }
    }
    if (ch === '[') {
      index++;
      skipSpace();
      if (text[index] === ']') {
        index++;
        return;
      }
      for (;;) {
        readValue(depth + 1);
        skipSpace();
        if (text[index] === ',') {
          index++;
          continue;
        }
        if (text[index] === ']') {
          index++;
          return;
        }
        fail(index < length ? `token ${JSON.stringify(text[index])}, expected "," or "]"` : '');
      }
    }
    if (ch === '"') return readString();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, index)) {
        index += word.length;
        return;
      }
    }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return readNumber();
    fail('');
  };

  try {
    readValue(0);
    skipSpace();
    if (index < length) fail(`token ${JSON.stringify(text[index])} after the end of the JSON value`);
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
