/**
 * Character-level rules shared by the lenient parser and the cheap brace scanner, so that
 * "where does this object end" and "what does this object contain" always agree.
 */

/** Characters that may follow a closing quote (after spaces): a delimiter of the JSON grammar. */
const AFTER_CLOSING_QUOTE = ',}]:=|)\n\r';

/**
 * Small models write unescaped quotes inside strings (`"He said "hi" to me"`). A quote that
 * matches the opening one only closes the string when a delimiter, a comment or the end of
 * the text follows it; otherwise it is kept as part of the text.
 */
export function isClosingQuote(text: string, quoteIndex: number): boolean {
  const known = quoteClosesString(text, quoteIndex);
  // Undecided means the text ends after the quote (it closes), or with a lone "/" (it does not).
  return known ?? text[text.length - 1] !== '/';
}

/**
 * The same decision for text that is still growing: undefined while what follows the quote
 * (only blanks so far, or a lone "/") cannot tell yet.
 */
export function quoteClosesString(text: string, quoteIndex: number): boolean | undefined {
  let index = quoteIndex + 1;
  while (index < text.length && (text[index] === ' ' || text[index] === '\t')) index++;
  if (index >= text.length) return undefined;
  const char = text[index];
  if (AFTER_CLOSING_QUOTE.indexOf(char) >= 0) return true;
  if (char !== '/') return false;
  if (index + 1 >= text.length) return undefined;
  return text[index + 1] === '/' || text[index + 1] === '*';
}

export function isQuote(char: string): boolean {
  return char === '"' || char === "'" || char === '`';
}

/** Blanks between JSON tokens: ASCII whitespace, the BOM and the Unicode spaces models and editors paste (NBSP, en/em and thin spaces, ideographic space). */
export function isSpace(char: string): boolean {
  return (
    char === ' ' ||
    char === '\n' ||
    char === '\r' ||
    char === '\t' ||
    char === '\uFEFF' ||
    char === '\u00A0' ||
    (char >= '\u2000' && char <= '\u200B') ||
    char === '\u202F' ||
    char === '\u205F' ||
    char === '\u3000' ||
    char === '\u1680' ||
    char === '\u180E'
  );
}

/** Characters after which a quote opens a string (a value or key can start there). */
export const TOKEN_STARTERS = '{[,:=|';

/** A `//` or `/*` starts a comment unless it sits inside a bare word (`http://x`). */
export function startsComment(text: string, index: number): boolean {
  if (text[index] !== '/' || (text[index + 1] !== '/' && text[index + 1] !== '*')) return false;
  if (index === 0) return true;
  const before = text[index - 1];
  return isSpace(before) || '{}[],:=|"\'`'.indexOf(before) >= 0;
}

/** Index just past a comment starting at i (or the text's end when it never closes). */
export function skipComment(text: string, index: number): number {
  if (text[index + 1] === '/') {
    const nl = text.indexOf('\n', index + 2);
    return nl < 0 ? text.length : nl + 1;
  }
  const close = text.indexOf('*/', index + 2);
  return close < 0 ? text.length : close + 2;
}

/**
 * Finds the end of the object or array that opens at `start` ('{' or '['), honouring strings,
 * escapes and comments. Returns the index just past the closing bracket, or -1 when the text
 * ends first. Linear time, no recursion.
 */
export function findBalancedEnd(text: string, start: number): number {
  let depth = 0;
  let lastSignificant = '';
  let cursor = start;
  while (cursor < text.length) {
    const char = text[cursor];
    if (isQuote(char) && (TOKEN_STARTERS.indexOf(lastSignificant) >= 0 || lastSignificant === '')) {
      cursor = skipString(text, cursor);
      if (cursor < 0) return -1;
      lastSignificant = char;
      continue;
    }
    if (char === '/' && startsComment(text, cursor)) {
      cursor = skipComment(text, cursor);
      continue;
    }
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth <= 0) return cursor + 1;
    }
    if (!isSpace(char)) lastSignificant = char;
    cursor++;
  }
  return -1;
}

/** Index just past the string opening at `start`, or -1 when the text ends inside it. */
function skipString(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === quote && isClosingQuote(text, index)) return index + 1;
    index++;
  }
  return -1;
}
