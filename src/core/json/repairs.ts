/**
 * jsonrepair's meaning-keeping repairs that the lenient reader (`lenient.ts`) makes, as plain
 * functions of the text: curly quotes and double encoding before reading, and while reading the
 * `...` placeholder and a closing quote left out before the closers.
 */
import { isSpace } from './scan';

const CURLY_QUOTES = /[“”„‘’«»]/g;
const DOUBLE_ENCODED = /^[{[]?[ \t\r\n]{0,8}\\"/;

/**
 * Text-level repairs before reading: curly quotes are the delimiters when no straight quote is
 * used anywhere (otherwise they are words: "it’s"), and JSON escaped once too often
 * loses one level of escaping.
 */
export function repairedText(text: string): string {
  let out = text;
  if (out.indexOf('"') < 0 && out.indexOf("'") < 0 && CURLY_QUOTES.test(out))
    out = out.replace(CURLY_QUOTES, (quote) => ('‘’'.indexOf(quote) >= 0 ? "'" : '"'));
  CURLY_QUOTES.lastIndex = 0;
  if (DOUBLE_ENCODED.test(out.trimStart())) out = out.replace(/\\(["\\])/g, '$1');
  return out;
}

/** The length of a `…` or `...` placeholder at `pos` that stands where a value or member could (0 when there is none). */
export function ellipsisAt(text: string, pos: number): number {
  let length = 0;
  if (text.startsWith('...', pos)) length = 3;
  else if (text[pos] === '…') length = 1;
  if (length === 0) return 0;
  let next = pos + length;
  while (next < text.length && isSpace(text[next])) next++;
  return next < text.length && ',]}/'.indexOf(text[next]) < 0 ? 0 : length;
}

/**
 * How many characters at the end of an unclosed string are the closers of the open containers
 * (`open`, innermost last; blanks between), beyond the brackets the string itself opened; 0
 * when none. Found with one backward pass (a `[\]}\s]*$` regex retries from every blank).
 */
export function closersAtEnd(rest: string, open: readonly string[]): number {
  let start = rest.length;
  let closers = 0;
  while (start > 0 && (rest[start - 1] === '}' || rest[start - 1] === ']' || isSpace(rest[start - 1]))) {
    start--;
    if (rest[start] === '}' || rest[start] === ']') closers++;
  }
  if (closers === 0) return 0;
  for (let index = 0; index < start; index++) if (rest[index] === '{' || rest[index] === '[') return 0; // its own brackets close here: it is text
  let depth = open.length - 1;
  for (let index = start; index < rest.length; index++) {
    const char = rest[index];
    if (char !== '}' && char !== ']') continue;
    if (depth < 0 || open[depth] !== (char === '}' ? '{' : '[')) return 0;
    depth--;
  }
  return rest.length - start;
}
