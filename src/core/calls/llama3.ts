/**
 * Llama 3.1/3.2 calls besides its JSON objects (`json-calls.ts`) and built-in tools
 * (`pythonic.ts`): the `<function=…>` form (llama.cpp's LLAMA_3_X and Functionary v3.1 tests;
 * Meta's Llama 3.1 prompt format for custom tools) and its `<function name="…">` variant.
 *
 *     <function=take_order>{"item": "ale", "quantity": 2}</function>
 */
import { extractJson, isPlainObject } from '../json/extract';
import { MAX_READ_CHARS, PROBLEM_CUT_OFF, PROBLEM_UNREADABLE, type WrittenCall } from './written-call';

const OPENER = /<function(?:=\s*([A-Za-z_][\w.-]*)|\s+name\s*=\s*"([A-Za-z_][\w.-]*)")\s*>/g;
const CLOSER = '</function>';

export function readLlama3Calls(text: string): WrittenCall[] {
  if (text.length > MAX_READ_CHARS || text.indexOf('<function') < 0) return [];
  const calls: WrittenCall[] = [];
  OPENER.lastIndex = 0;
  for (let match = OPENER.exec(text); match; match = OPENER.exec(text)) {
    const start = match.index;
    const name = match[1] ?? match[2];
    const bodyStart = start + match[0].length;
    const close = text.indexOf(CLOSER, bodyStart);
    const end = close < 0 ? text.length : close + CLOSER.length;
    const body = text.slice(bodyStart, close < 0 ? text.length : close).trim();
    const base = { family: 'llama3' as const, name, start, end };
    const extracted = body === '' ? undefined : extractJson(body);
    if (body === '') calls.push({ ...base, args: {} });
    else if (!extracted || !isPlainObject(extracted.value)) calls.push({ ...base, problem: PROBLEM_UNREADABLE });
    else if (!extracted.complete) calls.push({ ...base, problem: PROBLEM_CUT_OFF });
    else calls.push({ ...base, args: extracted.value });
    OPENER.lastIndex = end;
  }
  return calls;
}
