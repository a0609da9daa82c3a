/**
 * Every call in a model's output, whatever family wrote it, in the order written. The readers
 * run from the most specific markup to the least (a JSON object inside `<tool_call>` is that
 * block's call, not a second one); a call overlapping one already found is dropped.
 */
import { readFunctionGemmaCalls } from './function-gemma';
import { readGemma4Calls } from './gemma4';
import { readHermesCalls } from './hermes';
import { readJsonCalls } from './json-calls';
import { readLlama3Calls } from './llama3';
import { readPythonicCalls } from './pythonic';
import { MAX_CALLS, type CallReadContext, type CallReader, type WrittenCall } from './written-call';

/** The readers, most specific markup first. */
export const CALL_READERS: readonly CallReader[] = [
  readFunctionGemmaCalls,
  readGemma4Calls,
  readHermesCalls,
  readLlama3Calls,
  readJsonCalls,
  readPythonicCalls,
];

/** The readers of the families written in markup or call syntax, without the JSON objects (the envelope reader reads those). */
export const MARKUP_CALL_READERS: readonly CallReader[] = CALL_READERS.filter((read) => read !== readJsonCalls);

export function findCalls(
  text: string,
  ctx: CallReadContext,
  readers: readonly CallReader[] = CALL_READERS,
): WrittenCall[] {
  const found: WrittenCall[] = [];
  for (const read of readers) {
    for (const call of read(text, ctx)) {
      if (found.length >= MAX_CALLS) break;
      const overlaps = found.some(
        (other) =>
          call.start < Math.max(other.end, other.start + 1) && other.start < Math.max(call.end, call.start + 1),
      );
      if (!overlaps) found.push(call);
    }
  }
  return found.sort((left, right) => left.start - right.start);
}

/** The text with each call's span (in order, not overlapping) replaced by one space, the blanks around it taken in. */
export function withoutCallSpans(text: string, calls: ReadonlyArray<Pick<WrittenCall, 'start' | 'end'>>): string {
  if (calls.length === 0) return text;
  let out = '';
  let from = 0;
  for (const call of calls) {
    if (call.start < from) continue;
    out += text.slice(from, call.start).replace(/[ \t]+$/, '') + ' ';
    from = call.end;
    while (from < text.length && (text[from] === ' ' || text[from] === '\t')) from++;
  }
  return out + text.slice(from);
}
