/**
 * `hasCompleteObject` for a stream: give it the whole text so far after every chunk and it
 * answers the same, but it resumes scanning where the last call stopped, so a stream costs
 * linear time instead of re-reading everything per chunk. A candidate object is parsed once,
 * when its closing brace arrives.
 *
 * Decisions that depend on characters not received yet (is this quote closing? does this "/"
 * start a comment? what does this backslash escape?) wait for the next chunk, so the answer
 * always equals `hasCompleteObject(text)`.
 */
import { isPlainObject } from './extract';
import { parseLenient } from './lenient';
import { isQuote, isSpace, quoteClosesString, startsComment, TOKEN_STARTERS } from './scan';

/** Same bound as hasCompleteObject: balanced candidates that fail to parse before giving up. */
const MAX_CANDIDATES = 24;

type Mode = 'code' | 'string' | 'line-comment' | 'block-comment';

export class CompletionScanner {
  private text = '';
  private complete = false;
  /** Failed (balanced but unparsable) candidates so far. */
  private failures = 0;
  /** Where the next candidate's "{" is searched for when none is open. */
  private searchFrom = 0;
  /** The open candidate's "{", or -1. */
  private start = -1;
  private pos = 0;
  private depth = 0;
  private lastSignificant = '';
  private mode: Mode = 'code';
  private quote = '';

  /** Give the whole text generated so far; true once its first JSON object has closed. */
  push(fullTextSoFar: string): boolean {
    const text = typeof fullTextSoFar === 'string' ? fullTextSoFar : String(fullTextSoFar);
    // Text that does not extend the last one (a new attempt) starts the scan over.
    if (text.length < this.text.length || text.slice(0, this.text.length) !== this.text) this.reset();
    this.text = text;
    if (!this.complete) this.complete = this.scan();
    return this.complete;
  }

  private reset(): void {
    this.complete = false;
    this.failures = 0;
    this.searchFrom = 0;
    this.start = -1;
  }

  private scan(): boolean {
    const text = this.text;
    for (;;) {
      if (this.start < 0) {
        if (this.failures >= MAX_CANDIDATES) return false;
        const start = text.indexOf('{', this.searchFrom);
        if (start < 0) {
          this.searchFrom = text.length;
          return false;
        }
        this.start = start;
        this.pos = start;
        this.depth = 0;
        this.lastSignificant = '';
        this.mode = 'code';
      }
      const end = this.advance(text);
      if (end < 0) return false;
      const parsed = parseLenient(text.slice(this.start, end));
      if (parsed.ok && isPlainObject(parsed.value)) return true;
      // Like hasCompleteObject: the next candidate may start inside this one.
      this.failures++;
      this.searchFrom = this.start + 1;
      this.start = -1;
    }
  }

  /** Scans the open candidate on from `pos`: the index past its closing bracket, or -1. */
  private advance(text: string): number {
    let cursor = this.pos;
    const length = text.length;
    while (cursor < length) {
      const char = text[cursor];
      if (this.mode === 'string') {
        if (char === '\\') {
          if (cursor + 1 >= length) break;
          cursor += 2;
          continue;
        }
        if (char === this.quote) {
          const closes = quoteClosesString(text, cursor);
          if (closes === undefined) break;
          if (closes) {
            this.mode = 'code';
            this.lastSignificant = char;
          }
        }
        cursor++;
        continue;
      }
      if (this.mode === 'line-comment') {
        const newline = text.indexOf('\n', cursor);
        if (newline < 0) {
          cursor = length;
          break;
        }
        this.mode = 'code';
        cursor = newline + 1;
        continue;
      }
      if (this.mode === 'block-comment') {
        const close = text.indexOf('*/', cursor);
        if (close < 0) {
          cursor = Math.max(cursor, length - 1); // a "*" at the very end may be closed by the next chunk
          break;
        }
        this.mode = 'code';
        cursor = close + 2;
        continue;
      }
      if (isQuote(char) && (this.lastSignificant === '' || TOKEN_STARTERS.indexOf(this.lastSignificant) >= 0)) {
        this.mode = 'string';
        this.quote = char;
        cursor++;
        continue;
      }
      if (char === '/') {
        if (cursor + 1 >= length) break; // a comment may start with the next character
        if (startsComment(text, cursor)) {
          this.mode = text[cursor + 1] === '/' ? 'line-comment' : 'block-comment';
          cursor += 2;
          continue;
        }
      }
      if (char === '{' || char === '[') this.depth++;
      else if (char === '}' || char === ']') {
        this.depth--;
        if (this.depth <= 0) {
          this.pos = cursor + 1;
          return cursor + 1;
        }
      }
      if (!isSpace(char)) this.lastSignificant = char;
      cursor++;
    }
    this.pos = cursor;
    return -1;
  }
}
