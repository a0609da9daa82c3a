/**
 * Cleans a spoken line the way small models write them: a speaker label in front
 * ("Greta:", "**Greta**:", "Greta says:") and quotes around the whole line. Works on a
 * finished text and on a stream, where text that could still turn out to be a label or a
 * closing quote is held back until it is decided.
 *
 * One rule serves both, so a streamed line and the same line cleaned at once are identical:
 * - a label naming one of the given names is removed from the start;
 * - an opening quote (" “ ‘ « „) right after it is removed, and its matching closing quote
 *   is removed when it is the last character. A stream cannot take back what it has shown,
 *   so the opening quote goes even when the line turns out to be `"Hi," she said.`;
 * - a line opening with a plain apostrophe (' ) is held whole, because "'Tis late" and
 *   "'Tis late'" can only be told apart at the end;
 * - whitespace at both ends is trimmed.
 * `cleanLine` first applies the rule for what a player sees (`core/player-text`).
 */
import { playerText } from '../player-text/player-text';

/** Opening quotes and the closing quotes that may end a line they open. */
const CLOSERS: Record<string, readonly string[]> = {
  '"': ['"', '”'],
  '“': ['”', '"', '“'],
  '„': ['“', '”', '"'],
  '‘': ['’', "'"],
  '«': ['»'],
  "'": ["'", '’'],
};

const MARKER = /[*_]/;
const SPACE = /\s/;
const WORD_CHAR = /[\p{L}\p{N}]/u;

type LabelMatch = { status: 'match'; end: number } | { status: 'partial' } | { status: 'none' };

/**
 * Matches `Name:`, `Name says:`, `**Name**:`, `**Name:**`, `*Name*:` (case-insensitive) at the
 * start of `text`. `partial` means more text could still complete a label; with `final` the
 * text is complete and partial after the colon counts as a match.
 */
function matchLabel(text: string, name: string, final: boolean): LabelMatch {
  const length = text.length;
  let index = 0;
  const skipSpace = (): void => {
    while (index < length && SPACE.test(text[index])) index++;
  };
  const skipMarkers = (max: number): number => {
    let count = 0;
    while (index < length && count < max && MARKER.test(text[index])) {
      index++;
      count++;
    }
    return count;
  };
  const partial = (): LabelMatch => (final ? { status: 'none' } : { status: 'partial' });

  skipSpace();
  const opened = skipMarkers(2);
  skipSpace();
  for (let offset = 0; offset < name.length; offset++) {
    if (index >= length) return partial();
    if (text[index].toLowerCase() !== name[offset].toLowerCase()) return { status: 'none' };
    index++;
  }
  if (index >= length) return partial();
  // "Greta" must not match the start of "Gretchen".
  if (WORD_CHAR.test(text[index]) && WORD_CHAR.test(name[name.length - 1])) return { status: 'none' };
  let closed = skipMarkers(2);
  skipSpace();
  if (index >= length) return partial();
  if (/[a-z]/i.test(text[index])) {
    const start = index;
    while (index < length && /[a-z]/i.test(text[index])) index++;
    const word = text.slice(start, index).toLowerCase();
    if (index >= length)
      return word.length <= 4 && ('says'.startsWith(word) || 'said'.startsWith(word)) ? partial() : { status: 'none' };
    if (word !== 'says' && word !== 'said') return { status: 'none' };
    skipSpace();
  }
  closed += skipMarkers(2);
  skipSpace();
  if (index >= length) return partial();
  if (text[index] !== ':') return { status: 'none' };
  index++;
  // "**Greta:** Hello": the emphasis closes after the colon.
  const afterColon = index;
  skipSpace();
  if (opened > 0 && closed === 0) {
    if (skipMarkers(opened) === 0) index = afterColon;
    skipSpace();
  }
  if (index >= length && !final) return { status: 'partial' };
  return { status: 'match', end: index };
}

function matchAnyLabel(text: string, names: readonly string[], final: boolean): LabelMatch {
  let pending = false;
  for (const name of names) {
    const result = matchLabel(text, name, final);
    if (result.status === 'match') return result;
    if (result.status === 'partial') pending = true;
  }
  return pending ? { status: 'partial' } : { status: 'none' };
}

function usableNames(names: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const name of names ?? []) {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (trimmed && out.indexOf(trimmed) < 0) out.push(trimmed);
  }
  // Longest first, so "Old Tom" wins over "Old".
  return out.sort((left, right) => right.length - left.length);
}

/** Removes a leading speaker label naming one of `names`; other text is returned unchanged. */
export function stripSpeakerLabel(text: string, names: readonly string[]): string {
  const source = String(text ?? '');
  const result = matchAnyLabel(source, usableNames(names), true);
  return result.status === 'match' ? source.slice(result.end) : source;
}

/** Removes quotes wrapping the line ("…", “…”, ‘…’, «…», „…“, '…'), and trims it. */
export function stripWrappingQuotes(text: string): string {
  const cleaner = new LineCleaner([]);
  return cleaner.push(String(text ?? '')) + cleaner.finish();
}

/** Markup (reasoning, calls, control tokens), then label, then wrapping quotes, then whitespace: the line the player should see. */
export function cleanLine(text: string, names: readonly string[]): string {
  const cleaner = new LineCleaner(names);
  return cleaner.push(playerText(String(text ?? ''))) + cleaner.finish();
}

type Phase = 'label' | 'quote' | 'body' | 'held';

/**
 * Streaming cleanup: `push(delta)` returns the part that may be shown now, `finish()` the
 * rest. Everything returned, concatenated, equals `cleanLine(fullText, names)`.
 */
export class LineCleaner {
  private readonly names: string[];
  private raw = '';
  private phase: Phase = 'label';
  private bodyStart = 0;
  private opener: string | undefined;
  private emitted = '';
  private finished = false;

  constructor(names: readonly string[]) {
    this.names = usableNames(names);
  }

  /** What has been shown so far (after finish: the whole cleaned line). */
  get text(): string {
    return this.emitted;
  }

  push(delta: string): string {
    if (this.finished) return '';
    this.raw += String(delta ?? '');
    return this.advance(false);
  }

  finish(): string {
    if (this.finished) return '';
    const out = this.advance(true);
    this.finished = true;
    return out;
  }

  private advance(final: boolean): string {
    if (this.phase === 'label') {
      const label = matchAnyLabel(this.raw, this.names, final);
      if (label.status === 'partial') return '';
      this.bodyStart = label.status === 'match' ? label.end : 0;
      this.phase = 'quote';
    }
    if (this.phase === 'quote') {
      let pos = this.bodyStart;
      while (pos < this.raw.length && SPACE.test(this.raw[pos])) pos++;
      if (pos >= this.raw.length) return '';
      const ch = this.raw[pos];
      if (ch === "'") {
        this.phase = 'held';
        this.bodyStart = pos;
      } else {
        this.phase = 'body';
        if (Object.prototype.hasOwnProperty.call(CLOSERS, ch)) {
          this.opener = ch;
          this.bodyStart = pos + 1;
        } else {
          this.bodyStart = pos;
        }
      }
    }
    const visible = this.phase === 'held' ? this.heldText(final) : this.bodyText();
    // By construction what was shown is a prefix of what may be shown now.
    const out = visible.slice(this.emitted.length);
    this.emitted = visible;
    return out;
  }

  /**
   * The body without the tail that is still undecided (spaces, a possible closing quote), found
   * by index: the leading blanks are skipped once, the trailing ones from the end, so a push
   * costs time in the new characters, not in the whole line.
   */
  private bodyText(): string {
    const raw = this.raw;
    while (this.bodyStart < raw.length && SPACE.test(raw[this.bodyStart])) this.bodyStart++;
    let end = raw.length;
    while (end > this.bodyStart && SPACE.test(raw[end - 1])) end--;
    if (this.opener && end > this.bodyStart && CLOSERS[this.opener].indexOf(raw[end - 1]) >= 0) {
      end--;
      while (end > this.bodyStart && SPACE.test(raw[end - 1])) end--;
    }
    return raw.slice(this.bodyStart, end);
  }

  private heldText(final: boolean): string {
    if (!final) return '';
    const body = this.raw.slice(this.bodyStart).trim();
    if (body.length >= 2 && CLOSERS["'"].indexOf(body[body.length - 1]) >= 0) {
      return body.slice(1, -1).trim();
    }
    return body;
  }
}

/**
 * Trailing whitespace removed, in one backward pass. (`/\s+$/` retries from every position of
 * a long inner run of spaces or newlines: quadratic on a model's 20,000 blank lines; and
 * String.prototype.trimEnd is ES2019, newer than the runtime bundle's ES2017 target.)
 */
export function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && SPACE.test(text[end - 1])) end--;
  return end === text.length ? text : text.slice(0, end);
}
