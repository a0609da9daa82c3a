/**
 * The reply as the player should see it, while it streams and at the end: the speaker label,
 * wrapping quotes and (at the end) an echoed `[tool {…} → …]` record removed. What is shown
 * only ever grows, because the cleaner holds back text that could still become a label or a
 * closing quote, and half a surrogate pair at the end.
 */
import { cleanLine, LineCleaner, trimEnd } from './text-cleanup';
import { withoutHalfSurrogate } from '../json/string-tail';
import { playerText, playerTextSoFar } from '../player-text/player-text';
import { extendsText, PlayerTextStream } from '../player-text/player-text-stream';

const TOOL_RECORD = /^\[[A-Za-z_][\w.-]* \{[^\]]*\]$/;

/**
 * The reply without a `[tool {…} → …]` record the model echoed at its end. Linear: only the
 * `[` after the last inner `]` can start the record (an unanchored `\s*\[…$` regex would retry
 * from every position of a long run of blank lines).
 */
function stripEchoedToolRecord(raw: string): string {
  const body = trimEnd(raw);
  if (!body.endsWith(']')) return raw;
  const boundary = body.lastIndexOf(']', body.length - 2);
  for (let open = body.indexOf('[', boundary + 1); open >= 0; open = body.indexOf('[', open + 1)) {
    if (TOOL_RECORD.test(body.slice(open))) return trimEnd(body.slice(0, open));
  }
  return raw;
}

export interface ReplyTextInput {
  raw: string;
  /** Speaker labels to take off the front. */
  labels: readonly string[];
  /** The whole output (true) or what has streamed so far (false). */
  final: boolean;
  /** The agent's tools, whose bare calls are markup too. */
  toolNames?: readonly string[];
}

export function cleanReplyText(input: ReplyTextInput): string {
  const { raw, labels, final, toolNames } = input;
  if (final) return cleanLine(playerText(stripEchoedToolRecord(raw), { toolNames }), labels);
  // A chunk may end between the two halves of a surrogate pair (an emoji): hold the first
  // half back until the second arrives, so no text delta carries half a character.
  return withoutHalfSurrogate(new LineCleaner(labels).push(playerTextSoFar(raw, { toolNames })));
}

/**
 * `cleanReplyText` for one growing reply, in time linear in its length: the player-text rule
 * cleans only what is new (`PlayerTextStream`), and one label-and-quote cleaner takes the new
 * characters. A reply that does not extend the last one starts over.
 */
export class ReplyTextStream {
  private readonly words: PlayerTextStream;
  private cleaner: LineCleaner;
  private fed = '';

  constructor(private readonly input: Pick<ReplyTextInput, 'labels' | 'toolNames'>) {
    this.words = new PlayerTextStream({ toolNames: input.toolNames });
    this.cleaner = new LineCleaner(input.labels);
  }

  push(raw: string): string {
    const words = this.words.push(raw);
    if (!extendsText(words, this.fed)) {
      this.cleaner = new LineCleaner(this.input.labels);
      this.fed = '';
    }
    this.cleaner.push(words.slice(this.fed.length));
    this.fed = words;
    return withoutHalfSurrogate(this.cleaner.text);
  }
}
