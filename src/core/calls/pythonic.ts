/**
 * Gemma 3's pythonic calls (Google's Gemma 3 function-calling guide; vLLM's pythonic tool
 * parser; Llama 3.x's built-in tools in llama.cpp's LLAMA_3_X format):
 *
 *     [take_order(item="ale", quantity=2), check_menu()]     a list, anywhere in the text
 *     take_order(item="ale")                                 a bare call of a known tool
 *     print(take_order(item="ale"))   `take_order(…)`        wrapped, in backticks or a fence
 *     <|python_tag|>code_interpreter.call(code="…")          Llama 3.x built-in tool
 *     take_order("stew", 3)                                  positional: mapped by the caller
 *
 * Each call of a list is read on its own, with its own arguments: a call that cannot be read is
 * recorded with its problem and the next one is still read (vLLM: "a bad sibling call does not
 * drop good calls"); a mismatched bracket anywhere in a call makes that call unreadable. A list
 * may name any function (it is markup either way); a bare call counts only for a known tool, so
 * words like "smile(s)" stay words.
 */
import { findBalancedEnd } from '../json/scan';
import { LiteralFailure, LiteralReader } from './python-literal';
import {
  MAX_CALLS,
  MAX_READ_CHARS,
  PROBLEM_CUT_OFF,
  PROBLEM_UNREADABLE,
  type CallReadContext,
  type WrittenCall,
} from './written-call';

/** `name(` with nothing between: `laughs (quietly)` and `trade (honestly)` are words. */
const LIST_OPENER = /\[\s*(?=[A-Za-z_][\w.]*\()/g;
const BARE_CALL = /[A-Za-z_][\w.]*(?=\()/g;
const NAME = /^[A-Za-z_][\w.]*/;
const KEYWORD = /^([A-Za-z_]\w*)\s*(?:=(?!=)|:)/;

interface ReadArgs {
  args: Record<string, unknown>;
  positional: unknown[];
}

export function readPythonicCalls(text: string, ctx: CallReadContext): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('(') < 0) return [];
  const calls: WrittenCall[] = [];
  // A name( inside a JSON object is text of that object (`{"note": "[A("}`), not a call.
  const inJson = jsonRegions(text);
  const inside = (at: number, regions: Array<[number, number]>) => regions.some(([from, to]) => at >= from && at < to);
  const taken: Array<[number, number]> = [];
  LIST_OPENER.lastIndex = 0;
  let lists = 0;
  for (let match = LIST_OPENER.exec(text); match && lists < MAX_CALLS; match = LIST_OPENER.exec(text)) {
    lists++;
    if (inside(match.index, inJson)) continue;
    const list = readList(text, match.index);
    // A bracket of unknown names that do not read as calls is words (`[f(x) = 2x]`, `[sighs(softly)]`).
    if (!list.some((call) => ctx.isTool(call.name) || (call.args !== undefined && !call.positional))) continue;
    calls.push(...list);
    taken.push([match.index, list[list.length - 1].end]);
    LIST_OPENER.lastIndex = list[list.length - 1].end;
  }
  BARE_CALL.lastIndex = 0;
  let bare = 0;
  for (let match = BARE_CALL.exec(text); match && bare < MAX_CALLS; match = BARE_CALL.exec(text)) {
    const start = match.index;
    // Inside a word, or quoted in speech (`He said "book_crossing(…)" once`): not a call.
    if (start > 0 && /[\w.$"'“‘]/.test(text[start - 1])) continue;
    if (inside(start, taken) || inside(start, inJson)) continue;
    const name = toolName(match[0]);
    // Inside ordinary words a call must name a tool exactly; a line that is only the call may be fuzzy.
    if (!ctx.isExactTool(name) && !(ctx.isTool(name) && aloneOnLine(text, start))) continue;
    bare++;
    const call = readOneCall(text, start);
    const wrapped = widen(text, call.start, call.end);
    calls.push({ ...call, start: wrapped.start, end: wrapped.end });
    BARE_CALL.lastIndex = Math.max(call.end, start + 1);
  }
  return calls.sort((left, right) => left.start - right.start);
}

/** `[a(…), b(…)]` from its `[`: every call, each with a span that covers its separator. */
function readList(text: string, open: number): WrittenCall[] {
  const calls: WrittenCall[] = [];
  let pos = open + 1;
  while (calls.length < MAX_CALLS) {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
    if (!NAME.test(text.slice(pos, pos + 1))) break;
    const call = readOneCall(text, pos);
    calls.push(call);
    pos = call.end;
    while (pos < text.length && /\s/.test(text[pos])) pos++;
    if (call.problem === PROBLEM_CUT_OFF || pos >= text.length) break;
    if (text[pos] === ']') {
      pos++;
      break;
    }
    if (text[pos] !== ',') break;
    pos++;
  }
  if (calls.length === 0) return calls;
  calls[0].start = open;
  for (let index = 0; index + 1 < calls.length; index++) calls[index].end = calls[index + 1].start;
  calls[calls.length - 1].end = Math.max(calls[calls.length - 1].end, pos);
  return calls;
}

/** One `name(args)` starting at `start` (the name's first character). */
function readOneCall(text: string, start: number): WrittenCall {
  const name = NAME.exec(text.slice(start, start + 256));
  const written = name ? name[0] : '';
  let open = start + written.length;
  while (open < text.length && /\s/.test(text[open])) open++;
  const base = { family: 'pythonic' as const, name: toolName(written), start };
  if (text[open] !== '(') return { ...base, end: open, problem: PROBLEM_UNREADABLE };
  const reader = new LiteralReader(text, open + 1);
  try {
    const read = readArgs(reader);
    const call: WrittenCall = { ...base, args: read.args, end: reader.pos };
    if (read.positional.length > 0) call.positional = read.positional;
    return call;
  } catch (error) {
    if (!(error instanceof LiteralFailure)) throw error;
    if (error.cutOff) return { ...base, end: text.length, problem: PROBLEM_CUT_OFF };
    return { ...base, end: skipCall(text, open), problem: PROBLEM_UNREADABLE };
  }
}

/** The arguments after `(`, up to and including the `)`. */
function readArgs(reader: LiteralReader): ReadArgs {
  const out: ReadArgs = { args: {}, positional: [] };
  let named = false;
  for (;;) {
    reader.skipSpace();
    if (reader.text[reader.pos] === ')') {
      reader.pos++;
      return out;
    }
    const keyword = KEYWORD.exec(reader.text.slice(reader.pos, reader.pos + 128));
    if (keyword) {
      reader.pos += keyword[0].length;
      const key = keyword[1];
      if (Object.prototype.hasOwnProperty.call(out.args, key)) reader.fail(); // f(a=1, a=2): which one?
      Object.defineProperty(out.args, key, {
        value: reader.literal(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      named = true;
    } else {
      if (named) reader.fail(); // positional after keyword: not Python, not certain
      // A bare word by position (`trade(honestly)`) is speech in parentheses, not a value.
      out.positional.push(reader.literal(0, false));
    }
    reader.skipSpace();
    const next = reader.text[reader.pos];
    if (next === ',') reader.pos++;
    else if (next !== ')') reader.fail();
  }
}

/** Past the `)` that closes the `(` at `open`, honouring quotes; the line's end when it never closes. */
function skipCall(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let at = open; at < text.length; at++) {
    const char = text[at];
    if (quote) {
      if (char === '\\') at++;
      else if (char === quote) quote = '';
      else if (char === '\n') quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') {
      depth--;
      if (depth <= 0) return at + 1;
    } else if (char === '\n') return at;
  }
  return text.length;
}

/** Where JSON objects (`{"…` or `{'…`) sit, closed or cut off at the end. */
function jsonRegions(text: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  const opener = /\{\s*["']/g;
  for (let match = opener.exec(text); match && regions.length < 32; match = opener.exec(text)) {
    const end = findBalancedEnd(text, match.index);
    regions.push([match.index, end < 0 ? text.length : end]);
    if (end < 0) break;
    opener.lastIndex = end;
  }
  return regions;
}

/** Whether the text before `at` on its line is blank (what follows is then the call, or the call in backticks). */
function aloneOnLine(text: string, at: number): boolean {
  for (let before = at - 1; before >= 0; before--) {
    const char = text[before];
    if (char === '\n') return true;
    if (char !== ' ' && char !== '\t' && char !== '`' && char !== '[') return false;
  }
  return true;
}

/** `code_interpreter.call` (Llama's built-in tools) names `code_interpreter`. */
function toolName(written: string): string {
  return written.endsWith('.call') ? written.slice(0, -'.call'.length) : written;
}

/** A bare call's span with what wraps it: `print(…)`, backticks, `tool_code:`. */
function widen(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  let to = end;
  const before = text.slice(Math.max(0, from - 16), from);
  const printed = /print\(\s*$/.exec(before);
  if (printed && /^\s*\)/.test(text.slice(to))) {
    from -= printed[0].length;
    to += (/^\s*\)/.exec(text.slice(to)) as RegExpExecArray)[0].length;
  }
  if (text[from - 1] === '`' && text[to] === '`') {
    from--;
    to++;
  }
  const label = /(?:tool_code|tool_call|function_call|call)\s*:\s*$/i.exec(text.slice(Math.max(0, from - 24), from));
  if (label) from -= label[0].length;
  return { start: from, end: to };
}
