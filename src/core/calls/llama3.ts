/**
 * Llama 3.1/3.2 calls besides its JSON objects (`json-calls.ts`) and built-in tools
 * (`pythonic.ts`): the `<function=…>` form (llama.cpp's LLAMA_3_X and Functionary v3.1 tests;
 * Meta's Llama 3.1 prompt format for custom tools) and its `<function name="…">` variant.
 *
 *     <function=take_order>{"item": "ale", "quantity": 2}</function>
 */
import { extractJson, isPlainObject } from '../json/extract';
import { readAtEachOpener } from './each-opener';
import { MAX_READ_CHARS, PROBLEM_CUT_OFF, PROBLEM_UNREADABLE, type WrittenCall } from './written-call';

const OPENER = /<function(?:=\s*([A-Za-z_][\w.-]*)|\s+name\s*=\s*"([A-Za-z_][\w.-]*)")\s*>/g;
const CLOSER = '</function>';

export function readLlama3Calls(text: string): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('<function') < 0) return [];
  return readAtEachOpener(text, OPENER, (match) => {
    const start = match.index;
    const bodyStart = start + match[0].length;
    // The body ends at its closer, or at the next opener: a body never takes a neighbour's arguments.
    const closer = text.indexOf(CLOSER, bodyStart);
    const next = text.indexOf('<function', bodyStart);
    const stop = next >= 0 && (closer < 0 || next < closer) ? next : closer;
    const end = stop < 0 ? text.length : stop === closer ? closer + CLOSER.length : stop;
    const body = text.slice(bodyStart, stop < 0 ? text.length : stop).trim();
    const base = { family: 'llama3' as const, name: match[1] ?? match[2], start, end };
    const extracted = body === '' ? undefined : extractJson(body);
    let call: WrittenCall;
    if (body === '') call = { ...base, args: {} };
    else if (!extracted || !isPlainObject(extracted.value)) call = { ...base, problem: PROBLEM_UNREADABLE };
    else if (!extracted.complete) call = { ...base, problem: PROBLEM_CUT_OFF };
    else call = { ...base, args: extracted.value };
    return { calls: [call], resume: end };
  });
}
