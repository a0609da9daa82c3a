/**
 * `playerTextSoFar` for one growing output, in time linear in the output: the words before the
 * last line break that closes every construct opened before it (reasoning, a tag, a fence, a
 * bracket) are cleaned once and kept; each push cleans only the text after them. An output that
 * does not extend the last one (a new step, a reset) starts over.
 */
import { playerText, playerTextSoFar, type PlayerTextOptions } from './player-text';

const ORPHAN_CLOSER = /<\/think(?:ing)?>|<channel\|>|<\|END_THINKING\|>/;

export class PlayerTextStream {
  private raw = '';
  /** Raw characters whose cleaned form is final, and that form. */
  private settled = 0;
  private settledText = '';

  constructor(private readonly options: PlayerTextOptions = {}) {}

  push(raw: string): string {
    if (!extendsText(raw, this.raw)) {
      this.settled = 0;
      this.settledText = '';
    }
    this.raw = raw;
    // A reasoning closer with no opener (the template opened the block) hides all before it.
    if (ORPHAN_CLOSER.test(raw.slice(this.settled))) return playerTextSoFar(raw, this.options);
    this.settle();
    const tail = playerTextSoFar(raw.slice(this.settled), this.options);
    return join(this.settledText, tail);
  }

  /** Moves the settled mark to the last line break after which nothing opened before is still open. */
  private settle(): void {
    const cut = this.raw.lastIndexOf('\n');
    if (cut < this.settled) return;
    const piece = this.raw.slice(this.settled, cut + 1);
    if (!closes(piece)) return;
    this.settledText = join(this.settledText, playerText(piece, this.options));
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

/** Two cleaned pieces as one text: a line break between them, none at the ends. */
function join(before: string, after: string): string {
  if (before === '') return after;
  if (after === '') return before;
  return `${before}\n${after}`;
}

/** Whether a piece of raw output opens nothing it does not close (so text after it cannot change how it reads). */
function closes(piece: string): boolean {
  let depth = 0;
  let angle = 0;
  for (const char of piece) {
    if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth--;
    else if (char === '<') angle++;
    else if (char === '>') angle--;
    if (depth < 0) return false;
  }
  if (depth !== 0 || angle !== 0) return false;
  return (piece.match(/```/g) ?? []).length % 2 === 0;
}
