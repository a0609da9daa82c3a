/**
 * The one rule for what a player sees of a model's output, on every path that yields words
 * (an NPC's line, a bark, a text reply, a forced reply, the seed-compatible reply step, a
 * summary): reasoning, calls of every family, fences around calls and every control token are
 * removed; what is left is the words. Stage directions in brackets (`[waves]`) are words and
 * stay; an emotion tag is taken out by the line-first reader, which knows the allowed tags.
 *
 * `playerTextSoFar` is the same rule for a stream: it also holds back a tail that may still
 * turn into markup (`<th`, `[take_ord`, a run of backticks), so markup never flashes on screen.
 */
import { findCalls, withoutCallSpans } from '../calls/find-calls';
import { stripReasoning } from '../calls/reasoning';
import { withoutMarkup } from '../calls/markup';
import { callContext } from '../envelope/family-call';

export interface PlayerTextOptions {
  /** The agent's tools: bare calls of these (`take_order(…)`) are markup too. */
  toolNames?: readonly string[];
}

/** Lines that only name the call format (`tool_code:`) or hold a lone fence. */
const EMPTY_FENCE = /```[A-Za-z_]*[ \t]*\r?\n?\s*```/g;
const CALL_LABEL_LINE = /^[ \t]*(?:tool_code|tool_call|tool_calls|function_call|function_calls)\s*:?[ \t]*$/gim;

export function playerText(raw: string, options: PlayerTextOptions = {}): string {
  const text = String(raw ?? '');
  if (!mayHoldMarkup(text)) return text;
  const words = withoutMarkup(withoutCutToken(withoutCalls(stripReasoning(text), options)));
  return words === text ? text : tidy(words);
}

/** The words shown while the output still grows; a tail that may become markup is held back. */
export function playerTextSoFar(raw: string, options: PlayerTextOptions = {}): string {
  const text = String(raw ?? '');
  return playerText(text.slice(0, heldBackFrom(text, options)), options);
}

/** Cheap test: text without these characters has no markup and no call a reader could find. */
function mayHoldMarkup(text: string): boolean {
  return /[<>[\]{}(`|]|call:/.test(text);
}

function withoutCalls(text: string, options: PlayerTextOptions): string {
  return withoutCallSpans(text, findCalls(text, callContext(options.toolNames ?? [])));
}

/** A token the output stopped in the middle of (`… <function=`, `<|tool_`), at the very end. */
function withoutCutToken(text: string): string {
  return text.replace(/<[A-Za-z_|/][^<>\s]{0,40}$|\[TOOL_[A-Z_]*$/, '');
}

/** Blank fences and call-format labels left behind by removed calls go; runs of blanks shrink. */
function tidy(text: string): string {
  let out = text.replace(EMPTY_FENCE, ' ').replace(CALL_LABEL_LINE, '');
  // A fence left open after its call was removed (the output stopped inside it).
  out = out.replace(/```[A-Za-z_]*\s*$/g, '');
  out = out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
  // A space left before punctuation by a removed call: `Here you go .`
  out = out.replace(/ ([.,!?;:])(?=\s|$)/g, '$1');
  return out.trim();
}

/** Where a tail that may still become markup starts (the text's length when there is none). */
function heldBackFrom(text: string, options: PlayerTextOptions): number {
  const tail = text.slice(Math.max(0, text.length - 80));
  const offset = text.length - tail.length;
  const patterns = [
    /<(?:[A-Za-z_|/!][^<>\n]{0,80})?$/, // a tag or token still being written (`<function name="…` too)
    /(?:^|\n)[ \t]*(?:tool_code|tool_calls?|function_calls?)\s*:[^\n]*$/, // a line labelled as a call, until it ends
    /\[[A-Za-z_]?[\w.]{0,60}$/, // `[take_ord` or `[TOOL_CALL`
    /`+[A-Za-z_]*$/, // a fence or an inline code span opening
    /(?:^|[\s>])c(?:a(?:l(?:l(?::[\w.-]{0,64})?)?)?)?$/, // `call:` or `call:take_order` before its `{`
    /(?:^|\n)[ \t]*(?:tool|function)(?:_(?:c(?:o(?:d(?:e)?)?|a(?:l(?:l(?:s)?)?)?)?)?)?:?[ \t]*$/, // `tool_code:` labels
  ];
  let cut = text.length;
  for (const pattern of patterns) {
    const match = pattern.exec(tail);
    if (match) cut = Math.min(cut, offset + match.index);
  }
  const word = /[A-Za-z_][\w.]*\(?$/.exec(tail);
  const written = word ? word[0].replace(/\($/, '').toLowerCase() : '';
  if (
    word &&
    (options.toolNames ?? []).some(
      (name) => name.toLowerCase().startsWith(written) || written.startsWith(name.toLowerCase()),
    )
  )
    cut = Math.min(cut, offset + word.index);
  return cut;
}
