/**
 * FunctionGemma's call syntax (Google's FunctionGemma model card; vLLM's functiongemma parser,
 * llama.cpp's FUNCTION_GEMMA chat format):
 *
 *     <start_function_call>call:take_order{item:<escape>ale<escape>,quantity:<escape>2<escape>}<end_function_call>
 *
 * Nested objects and lists use the same grammar as Gemma 4 (`delimited-args.ts`). A call whose
 * end marker never comes is read when its argument block closed, and recorded as cut off when
 * it did not.
 */
import { readDelimitedArgs } from './delimited-args';
import { readAtEachOpener } from './each-opener';
import { MAX_READ_CHARS, PROBLEM_CUT_OFF, PROBLEM_UNREADABLE, type WrittenCall } from './written-call';

const OPENER = /<start_function_call>\s*(?:call:)?\s*([A-Za-z_][\w.-]*)\s*(?=\{)/g;
const CLOSER = '<end_function_call>';

export function readFunctionGemmaCalls(text: string): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('<start_function_call>') < 0) return [];
  return readAtEachOpener(text, OPENER, (match) => {
    const start = match.index;
    const open = start + match[0].length;
    const read = readDelimitedArgs(text, open);
    const base = { family: 'functionGemma' as const, name: match[1], start };
    if (!read.ok) {
      const close = text.indexOf(CLOSER, read.end);
      const end = read.cutOff || close < 0 ? text.length : close + CLOSER.length;
      return { calls: [{ ...base, end, problem: read.cutOff ? PROBLEM_CUT_OFF : PROBLEM_UNREADABLE }], resume: end };
    }
    let end = read.end;
    const after = /^\s*<end_function_call>/.exec(text.slice(end, end + 64));
    if (after) end += after[0].length;
    return { calls: [{ ...base, args: read.value, end }], resume: end };
  });
}
