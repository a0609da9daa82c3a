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
  let i = quoteIndex + 1;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (i >= text.length) return undefined;
  const c = text[i];
  if (AFTER_CLOSING_QUOTE.indexOf(c) >= 0) return true;
  if (c !== '/') return false;
  if (i + 1 >= text.length) return undefined;
  return text[i + 1] === '/' || text[i + 1] === '*';
}

export function isQuote(c: string): boolean {
  return c === '"' || c === "'" || c === '`';
}

export function isSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\uFEFF' || c === '\u00A0';
}

/** Characters after which a quote opens a string (a value or key can start there). */
export const TOKEN_STARTERS = '{[,:=|';

/** A `//` or `/*` starts a comment unless it sits inside a bare word (`http://x`). */
export function startsComment(text: string, i: number): boolean {
  if (text[i] !== '/' || (text[i + 1] !== '/' && text[i + 1] !== '*')) return false;
  if (i === 0) return true;
  const before = text[i - 1];
  return isSpace(before) || '{}[],:=|"\'`'.indexOf(before) >= 0;
}

/** Index just past a comment starting at i (or the text's end when it never closes). */
export function skipComment(text: string, i: number): number {
  if (text[i + 1] === '/') {
    const nl = text.indexOf('\n', i + 2);
    return nl < 0 ? text.length : nl + 1;
  }
  const close = text.indexOf('*/', i + 2);
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
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (isQuote(c) && (TOKEN_STARTERS.indexOf(lastSignificant) >= 0 || lastSignificant === '')) {
      i = skipString(text, i);
      if (i < 0) return -1;
      lastSignificant = c;
      continue;
    }
    if (c === '/' && startsComment(text, i)) {
      i = skipComment(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth <= 0) return i + 1;
    }
    if (!isSpace(c)) lastSignificant = c;
    i++;
  }
  return -1;
}

/** Index just past the string opening at `start`, or -1 when the text ends inside it. */
function skipString(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote && isClosingQuote(text, i)) return i + 1;
    i++;
  }
  return -1;
}
