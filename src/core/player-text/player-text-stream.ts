/**
 * `playerTextSoFar` for one growing output, in time linear in the output: the words before the
 * last line break that closes every construct opened before it (reasoning, a tag, a fence, a
 * bracket) are cleaned once and kept; each push cleans only the text after them. An output that
 * does not extend the last one (a new step, a reset) starts over.
 */
import { ORPHAN_CLOSERS } from '../calls/reasoning';
import { playerText, playerTextSoFar, type PlayerTextOptions } from './player-text';

/** Characters past which an unsettled line is cleaned again only as it grows. */
const LONG_TAIL = 1024;

export class PlayerTextStream {
  private raw = '';
  /** Raw characters whose cleaned form is final, and that form. */
  private settled = 0;
  private settledText = '';
  /** The last cleaning of the unsettled tail: where it started, how long it was, what it showed. */
  private cleanedAt = -1;
  private cleanedLength = 0;
  private shown = '';

  constructor(private readonly options: PlayerTextOptions = {}) {}

  push(raw: string): string {
    if (!extendsText(raw, this.raw)) {
      this.settled = 0;
      this.settledText = '';
      this.cleanedAt = -1;
    }
    this.raw = raw;
    // A reasoning closer with no opener (the template opened the block) hides all before it.
    const fresh = raw.slice(this.settled);
    if (ORPHAN_CLOSERS.some((closer) => fresh.indexOf(closer) >= 0)) return playerTextSoFar(raw, this.options);
    this.settle();
    const tail = raw.slice(this.settled);
    // A long line with no break to settle at: cleaned again only after it grew by a twentieth,
    // so the work stays linear in the output (the words shown lag by at most that much).
    if (tail.length > LONG_TAIL && this.cleanedAt === this.settled && tail.length < this.cleanedLength * 1.05)
      return this.shown;
    this.cleanedAt = this.settled;
    this.cleanedLength = tail.length;
    this.shown = join(this.settledText, playerTextSoFar(tail, this.options));
    return this.shown;
  }

  /** Moves the settled mark to the last line break after which nothing opened before is still open. */
  private settle(): void {
    const cut = this.raw.lastIndexOf('\n');
    if (cut < this.settled) return;
    const piece = this.raw.slice(this.settled, cut + 1);
    if (!closes(piece)) return;
    // Words without markup stay exactly as written (line breaks included), as the final text keeps them.
    const cleaned = playerText(piece, this.options);
    this.settledText = cleaned === piece ? this.settledText + piece : join(this.settledText, cleaned);
    this.settled = cut + 1;
  }
}

/** How many characters at the end of the previous text are compared to tell a grown text from a new one. */
const EXTENDS_CHECK = 32;

/**
 * Whether `next` grew from `previous`: longer or equal, with the same last characters where
 * `previous` ended (a full comparison on every chunk would make a stream quadratic; the callers'
 * texts only ever grow or start over, and a new text ending the same 32 characters in the same
 * place as the old one is not a case that occurs).
 */
export function extendsText(next: string, previous: string): boolean {
  if (next.length < previous.length) return false;
  const from = Math.max(0, previous.length - EXTENDS_CHECK);
  return next.startsWith(previous.slice(from), from);
}

/** Two pieces as one text: a line break between them unless the first ends with one. */
function join(before: string, after: string): string {
  if (before === '') return after;
  if (after === '') return before;
  return before.endsWith('\n') ? before + after : `${before}\n${after}`;
}

/** Whether a piece of raw output opens nothing it does not close (so text after it cannot change how it reads). */
function closes(piece: string): boolean {
  // A stray closer opens nothing (`:)`, `1) ale`), and only `<` before a letter, `|` or `/` can open a tag (`<3`, `a < b` cannot).
  let depth = 0;
  let angle = 0;
  for (let index = 0; index < piece.length; index++) {
    const char = piece[index];
    if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth = Math.max(0, depth - 1);
    else if (char === '<' && /[A-Za-z|/]/.test(piece[index + 1] ?? '')) angle++;
    else if (char === '>') angle = Math.max(0, angle - 1);
  }
  if (depth !== 0 || angle !== 0) return false;
  return (piece.match(/```/g) ?? []).length % 2 === 0;
}
