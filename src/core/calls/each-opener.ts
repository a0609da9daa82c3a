/**
 * The loop every markup reader shares: each match of its opener, in order, read where it
 * stands; the search resumes after what was read (never before the match, so it always ends).
 */
import { MAX_CALLS, type WrittenCall } from './written-call';

export interface ReadAtOpener {
  calls: WrittenCall[];
  /** Where the search for the next opener resumes. */
  resume: number;
}

export function readAtEachOpener(
  text: string,
  opener: RegExp,
  read: (match: RegExpExecArray) => ReadAtOpener | undefined,
): WrittenCall[] {
  const calls: WrittenCall[] = [];
  const pattern = new RegExp(opener.source, opener.flags.indexOf('g') >= 0 ? opener.flags : `${opener.flags}g`);
  let openers = 0;
  for (let match = pattern.exec(text); match && openers < MAX_CALLS; match = pattern.exec(text)) {
    openers++;
    const found = read(match);
    if (!found) continue;
    calls.push(...found.calls);
    pattern.lastIndex = Math.max(found.resume, match.index + 1);
  }
  return calls;
}
