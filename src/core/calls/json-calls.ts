/**
 * Calls written as JSON objects anywhere in the text (Llama 3.x's custom-tool format, vLLM's
 * llama3_json parser; Mistral and xLAM lists; our own `{"tool": …, "args": …}`):
 *
 *     {"name": "take_order", "parameters": {"item": "ale"}}; {"name": "check_menu", "parameters": {}}
 *     Here you go: [{"name": "take_order", "arguments": {…}}]
 *
 * An object is a call when it names a known tool, or names anything and carries arguments:
 * `{"name": "Sam"}` in a line is not one. Objects inside an object are never read on their own
 * (`{"query": "test"}` after a call is not a second call). The decide step's envelope reader
 * (`core/envelope`) reads the same objects with its synonyms and the reply forms; this reader
 * finds where they sit, so they can be kept from the player.
 */
import { parseLenient } from '../json/lenient';
import { findBalancedEnd } from '../json/scan';
import { readJsonCall, type JsonCallShape } from './json-call';
import { MAX_READ_CHARS, PROBLEM_CUT_OFF, type CallReadContext, type WrittenCall } from './written-call';

/** Objects tried per text, so garbage with many braces costs linear time. */
const MAX_OBJECTS = 32;
const NAMED = /^\{\s*"(?:name|tool|tool_name|function|action)"\s*:\s*"([^"]{1,128})"/;

export function readJsonCalls(text: string, ctx: CallReadContext): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('{') < 0) return [];
  const calls: WrittenCall[] = [];
  let from = 0;
  for (let tries = 0; tries < MAX_OBJECTS; tries++) {
    const start = nextOpener(text, from);
    if (start < 0) break;
    const end = findBalancedEnd(text, start);
    if (end < 0) {
      // Cut off: a call that names a known tool is recorded as not made.
      const named = NAMED.exec(text.slice(start, start + 160));
      if (named && ctx.isTool(named[1]))
        calls.push({ family: 'json', name: named[1], start, end: text.length, problem: PROBLEM_CUT_OFF });
      break;
    }
    const parsed = parseLenient(text.slice(start, end));
    const items = parsed.ok ? (Array.isArray(parsed.value) ? parsed.value : [parsed.value]) : [];
    const shapes = items.map(readJsonCall).filter((shape): shape is JsonCallShape => shape !== undefined);
    const read = shapes.filter((shape) => shape.withArguments || ctx.isTool(shape.name));
    read.forEach((shape, index) => {
      const span = { family: 'json' as const, name: shape.name, start: index === 0 ? start : end, end };
      calls.push(shape.args ? { ...span, args: shape.args } : { ...span, problem: shape.problem });
    });
    from = end;
  }
  return calls;
}

/** The next `{` or `[{` at or after `from`. */
function nextOpener(text: string, from: number): number {
  const brace = text.indexOf('{', from);
  if (brace < 0) return -1;
  // A list of calls: start at its `[` so the whole list is one span.
  let before = brace - 1;
  while (before >= from && /\s/.test(text[before])) before--;
  return before >= from && text[before] === '[' ? before : brace;
}
