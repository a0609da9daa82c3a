/**
 * Backslash escapes inside strings, shared by the lenient parser and the incremental string
 * decoder so that both read the same text the same way. Unknown escapes keep their letter
 * (`\q` → `q`), as small models write them.
 */

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

const HEX = /^[0-9a-fA-F]*$/;

/**
 * Decodes the escape whose backslash is at `pos`. Returns the character(s) and the index just
 * past the escape, or undefined when the text ends inside it (in partial mode, a `\u00` at the
 * end may still become a full escape; otherwise only a lone final backslash is undefined).
 */
export function decodeEscape(text: string, pos: number, partial: boolean): { value: string; next: number } | undefined {
  const char = text[pos + 1];
  if (char === undefined) return undefined;
  if (char === 'u' || char === 'x') {
    const digits = char === 'u' ? 4 : 2;
    const hex = text.slice(pos + 2, pos + 2 + digits);
    if (hex.length === digits && HEX.test(hex)) {
      return { value: String.fromCharCode(parseInt(hex, 16)), next: pos + 2 + digits };
    }
    if (partial && pos + 2 + hex.length >= text.length && HEX.test(hex)) return undefined;
    // Not a real escape: keep the letter.
    return { value: char, next: pos + 2 };
  }
  return { value: ESCAPES[char] ?? char, next: pos + 2 };
}
