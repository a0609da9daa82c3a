/**
 * Hermes 2 Pro and Qwen 2.5/3 calls (vLLM's hermes parser; llama.cpp's HERMES_2_PRO format and
 * the wrappers its tests accept): a JSON call inside a tag, closed or cut at the end of the output.
 *
 *     <tool_call>{"name": "take_order", "arguments": {"item": "ale"}}</tool_call>
 *     <tool_call>[{"name": …}, {"name": …}]</tool_call>     several in one block
 *     <tool>, <tools>, <function_call>, <response>, <json>, <xml>: the same, as small models drift
 *
 * A block whose JSON names no function is not a call (its tags are still markup, removed from
 * what the player sees); a block that names one but cannot be read is recorded, never run.
 */
import { extractJson } from '../json/extract';
import { readAtEachOpener } from './each-opener';
import { readJsonCall } from './json-call';
import { MAX_READ_CHARS, PROBLEM_CUT_OFF, PROBLEM_UNREADABLE, type WrittenCall } from './written-call';

const OPENER = /<(tool_call|tool|tools|function_call|response|json|xml)>/gi;

export function readHermesCalls(text: string): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('<') < 0) return [];
  const lower = text.toLowerCase();
  return readAtEachOpener(text, OPENER, (match) => {
    const start = match.index;
    const closeTag = `</${match[1].toLowerCase()}>`;
    const bodyStart = start + match[0].length;
    const close = lower.indexOf(closeTag, bodyStart);
    const end = close < 0 ? text.length : close + closeTag.length;
    const found = readBlock(text.slice(bodyStart, close < 0 ? text.length : close));
    // A block without its closer runs to the end: no opener after it starts another (linear).
    if (found.length === 0) return close < 0 ? { calls: [], resume: text.length } : undefined;
    // One span per call; the first starts at the tag, the last ends after the closing tag.
    const calls = found.map((call, index): WrittenCall => ({
      family: 'hermes',
      ...call,
      start: index === 0 ? start : end,
      end,
    }));
    return { calls, resume: end };
  });
}

type BlockCall = Omit<WrittenCall, 'family' | 'start' | 'end'>;

/** The calls of one block's body: a JSON object or a list of them, possibly fenced. */
function readBlock(body: string): BlockCall[] {
  const extracted = extractJson(body);
  if (!extracted) return [];
  const items = Array.isArray(extracted.value) ? extracted.value : [extracted.value];
  const out: BlockCall[] = [];
  for (const item of items) {
    const shape = readJsonCall(item);
    if (!shape) continue;
    if (!extracted.complete) out.push({ name: shape.name, problem: PROBLEM_CUT_OFF });
    else if (shape.args) out.push({ name: shape.name, args: shape.args });
    else out.push({ name: shape.name, problem: shape.problem ?? PROBLEM_UNREADABLE });
  }
  return out;
}
