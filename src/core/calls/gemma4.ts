/**
 * Gemma 4's own call syntax (the Gemma 4 model card; vLLM's gemma4 tool parser):
 *
 *     <|tool_call>call:take_order{item:<|"|>ale<|"|>,quantity:2}<tool_call|>
 *
 * and the forms a model writes when its special tokens come out as text or get lost: the call
 * closed by `<turn|>` or by nothing, `<|tool_call>:call:…`, a bare `call:name{…}` at the start of
 * a line or right after the thought channel's `<channel|>`, and `<call>name{…}`. Several calls
 * follow each other; each is read on its own. The argument block is `delimited-args.ts`.
 */
import { readDelimitedArgs } from './delimited-args';
import { readAtEachOpener } from './each-opener';
import {
  MAX_READ_CHARS,
  PROBLEM_CUT_OFF,
  PROBLEM_UNREADABLE,
  type CallReadContext,
  type WrittenCall,
} from './written-call';

/** The openers; group 1 is the tool name, and the match ends just before the `{`. */
const OPENER =
  /(<\|tool_call>\s*:?\s*call:|<call>\s*(?:call:)?|<channel\|>\s*call:|call:)\s*([A-Za-z_][\w.-]*)\s*(?=\{)/g;
const CLOSERS = ['<tool_call|>', '<turn|>', '<end_of_turn>', '</call>'];

export function readGemma4Calls(text: string, ctx: CallReadContext): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('call') < 0) return [];
  return readAtEachOpener(text, OPENER, (match) => {
    const start = match.index;
    // A bare `call:` counts at the start of a line, right after a closer, or for a tool named
    // exactly (a runtime that strips special tokens leaves `Sure! call:check_tide{…}`); never inside a word.
    if (match[1] === 'call:' && !atLineStart(text, start) && !afterCloser(text, start)) {
      if (/[\w.:-]/.test(text[start - 1] ?? '') || !ctx.isExactTool(match[2])) return undefined;
    }
    const open = start + match[0].length;
    const read = readDelimitedArgs(text, open);
    const base = { family: 'gemma4' as const, name: match[2], start };
    if (!read.ok) {
      const end = read.cutOff ? text.length : endOfFailedCall(text, read.end);
      return { calls: [{ ...base, end, problem: read.cutOff ? PROBLEM_CUT_OFF : PROBLEM_UNREADABLE }], resume: end };
    }
    let end = read.end;
    for (const closer of CLOSERS) if (text.startsWith(closer, end)) end += closer.length;
    return { calls: [{ ...base, args: read.value, end }], resume: end };
  });
}

function afterCloser(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 16), index).trimEnd();
  return CLOSERS.some((closer) => before.endsWith(closer)) || before.endsWith('}');
}

function atLineStart(text: string, index: number): boolean {
  for (let before = index - 1; before >= 0; before--) {
    const char = text[before];
    if (char === '\n') return true;
    if (char !== ' ' && char !== '\t') return false;
  }
  return true;
}

/** Where an unreadable call's markup ends: its closer, else the end of its line. */
function endOfFailedCall(text: string, from: number): number {
  let best = -1;
  for (const closer of CLOSERS) {
    const at = text.indexOf(closer, from);
    if (at >= 0 && (best < 0 || at + closer.length < best)) best = at + closer.length;
  }
  if (best >= 0) return best;
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol;
}
