/**
 * The runtime's token estimate, for a model that cannot count (`countTokens` absent) and for the
 * editor's meter. Calibrated against Gemma 3's tokenizer (Gemini Nano's family) on the project's
 * prompts and outputs, a long conversation, the docs and the peers' tool-call fixtures (`npm run
 * bench` prints the comparison, bench/token-estimate.ts): a word is about one token and a long run
 * of letters more, each digit one, a line break a little more than one, ASCII punctuation about
 * half, any other character one and a half. Four characters per token undercounted 241 of those
 * 257 texts (by 20% at the median, up to 44% on JSON); this one is below the real count on 2 (by
 * at most 9%) and 12% above it at the median, so a prompt it lets through fits the window.
 */

const WORD_START = 1.07;
const WORD_LETTER = 0.07;
/** Letters past the tenth of one run (a hash, base64, "qqqq…") are rarely in the vocabulary. */
const LONG_WORD_LETTER = 0.5;
const LONG_WORD = 10;
const DIGIT = 1;
const LINE_BREAK = 1.2;
/** A space after a space: runs of spaces (indentation) take tokens of their own. */
const REPEATED_SPACE = 0.3;
const PUNCTUATION = 0.55;
const OTHER = 1.5;

/** Estimated Gemma tokens of `text` (rounded up): one pass over its UTF-16 units, no allocation. */
export function estimateTextTokens(text: string): number {
  let total = 0;
  let wordLength = 0;
  let lowerBefore = false;
  let spaceBefore = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const lower = code >= 97 && code <= 122;
    if (lower || (code >= 65 && code <= 90)) {
      // An upper-case letter after a lower-case one starts a new piece (camelCase).
      if (wordLength === 0 || (!lower && lowerBefore)) {
        total += WORD_START;
        wordLength = 1;
      } else {
        total += wordLength >= LONG_WORD ? LONG_WORD_LETTER : WORD_LETTER;
        wordLength++;
      }
      lowerBefore = lower;
      spaceBefore = false;
      continue;
    }
    wordLength = 0;
    lowerBefore = false;
    const space = code === 32 || code === 9;
    if (space)
      total += spaceBefore ? REPEATED_SPACE : 0; // one space joins the next word's token
    else if (code === 13) total += 0;
    else if (code >= 48 && code <= 57) total += DIGIT;
    else if (code === 10) total += LINE_BREAK;
    else if (code < 128) total += PUNCTUATION;
    else if (code < 0xdc00 || code > 0xdfff) total += OTHER; // a low surrogate goes with its pair
    spaceBefore = space;
  }
  return Math.ceil(total);
}
