/**
 * Decodes a string that is still being streamed, piece by piece, so a reader can extend the
 * text it already has instead of parsing everything again. It reads exactly what the lenient
 * parser reads (same escapes, same rule for unescaped quotes), but stops before anything that
 * later text could still change: a quote followed only by blanks so far, or a cut escape.
 */
import { decodeEscape } from './escapes';
import { quoteClosesString } from './scan';

/** The first half of a UTF-16 surrogate pair (an emoji's first code unit). */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `text` without a trailing first half of a surrogate pair whose partner has not arrived yet. */
export function withoutHalfSurrogate(text: string): string {
  return isHighSurrogate(text.charCodeAt(text.length - 1)) ? text.slice(0, -1) : text;
}

/** How much of the previous text is compared to tell that a push extends it. */
const EXTENDS_CHECK_CHARS = 64;

/**
 * Whether `text` extends `prefix`. Streamed text only ever grows, so comparing the start and
 * the last characters of `prefix` tells a continuation from a restart in constant time; a full
 * comparison per chunk would make reading a long reply quadratic.
 */
export function extendsText(text: string, prefix: string): boolean {
  if (text.length < prefix.length) return false;
  const head = Math.min(EXTENDS_CHECK_CHARS, prefix.length);
  if (text.slice(0, head) !== prefix.slice(0, head)) return false;
  const from = Math.max(head, prefix.length - EXTENDS_CHECK_CHARS);
  return text.slice(from, prefix.length) === prefix.slice(from);
}

export interface StringPiece {
  /** The characters decoded between `from` and `next`. */
  decoded: string;
  /** Where to resume with longer text; the closing quote's index when `closed`. */
  next: number;
  /** The string's closing quote was found (at `next`). */
  closed: boolean;
}

/** Decodes from `from` (inside a string opened by `quote`) as far as the text allows. */
export function decodeStringTail(text: string, from: number, quote: string): StringPiece {
  let out = '';
  let chunkStart = from;
  let index = from;
  while (index < text.length) {
    const char = text[index];
    if (char === quote) {
      const closes = quoteClosesString(text, index);
      if (closes === undefined) break;
      if (closes) return { decoded: out + text.slice(chunkStart, index), next: index, closed: true };
      index++;
      continue;
    }
    if (char !== '\\') {
      index++;
      continue;
    }
    const escape = decodeEscape(text, index, true);
    if (escape === undefined) break;
    out += text.slice(chunkStart, index) + escape.value;
    index = escape.next;
    chunkStart = index;
  }
  return { decoded: out + text.slice(chunkStart, index), next: index, closed: false };
}
